import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { showResult } from '../src/bot/replies.ts';

export const data = new SlashCommandBuilder()
  .setName('skip')
  .setNameLocalizations({ ko: '건너뛰기', ja: 'スキップ' })
  .setDescription('Skip the clip that is playing; the queue goes on')
  .setDescriptionLocalizations({ ko: '재생 중인 클립을 건너뜁니다 (대기열은 계속)', ja: '再生中のクリップをスキップします（キューは続きます）' })
  .setContexts(InteractionContextType.Guild);

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const skipped = context.players.find(interaction.guildId)?.skip() ?? false;
  await showResult(interaction, skipped ? 'skip.skipped' : 'skip.nothing');
};
