import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { memberVoiceChannel } from '../src/bot/speak.ts';
import { showResult } from '../src/bot/replies.ts';
import { acknowledge } from '../src/bot/acknowledge.ts';

export const data = new SlashCommandBuilder()
  .setName('join')
  .setNameLocalizations({ ko: '참가', ja: '参加' })
  .setDescription('Join your voice channel')
  .setDescriptionLocalizations({ ko: '내 음성 채널에 들어옵니다', ja: 'あなたのボイスチャンネルに参加します' })
  .setContexts(InteractionContextType.Guild);

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const { channelId, adapterCreator } = memberVoiceChannel(interaction, context.players);
  const channel = `<#${channelId}>`;
  const player = context.players.get(interaction.guildId, adapterCreator);
  if (player.channelId === channelId && player.state.kind === 'connected') {
    await showResult(interaction, 'join.already', { channel });
    return;
  }
  await acknowledge(interaction);
  await player.connect(channelId);
  await showResult(interaction, 'join.joined', { channel });
};
