import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { UserError } from '../src/bot/failures.ts';
import { showResult } from '../src/bot/replies.ts';

export const data = new SlashCommandBuilder()
  .setName('leave')
  .setNameLocalizations({ ko: '나가기', ja: '退出' })
  .setDescription('Stop speaking and leave the voice channel')
  .setDescriptionLocalizations({ ko: '말하기를 멈추고 음성 채널에서 나갑니다', ja: '話すのをやめてボイスチャンネルから退出します' })
  .setContexts(InteractionContextType.Guild);

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const player = context.players.find(interaction.guildId);
  const channelId = player?.channelId;
  if (!player || channelId === undefined) throw new UserError('error.voice.notConnected');
  player.leave('asked');
  await showResult(interaction, 'leave.left', { channel: `<#${channelId}>` });
};
