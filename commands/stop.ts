import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { showResult } from '../src/bot/replies.ts';

export const data = new SlashCommandBuilder()
  .setName('stop')
  .setNameLocalizations({ ko: '정지', ja: '停止' })
  .setDescription('Stop speaking and clear the queue')
  .setDescriptionLocalizations({ ko: '말하기를 멈추고 대기열을 비웁니다', ja: '話すのをやめてキューを空にします' })
  .setContexts(InteractionContextType.Guild);

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const cleared = context.players.find(interaction.guildId)?.stop() ?? 0;
  await showResult(interaction, 'stop.stopped', { count: cleared });
};
