import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { chooseTarget } from '../src/bot/deliver-speech.ts';
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
  const target = chooseTarget(interaction, 'voice', context);
  if (target.kind !== 'voice') return;
  const channel = `<#${target.channelId}>`;
  if (target.player.channelId === target.channelId && target.player.state.kind === 'connected') {
    await showResult(interaction, 'join.already', { channel });
    return;
  }
  await acknowledge(interaction);
  await target.player.connect(target.channelId);
  await showResult(interaction, 'join.joined', { channel });
};
