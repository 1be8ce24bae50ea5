import { slashCommand } from '../src/bot/command-builder.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { chooseTarget, type Target } from '../src/bot/deliver-speech.ts';
import type { Requirements } from '../src/bot/preconditions.ts';
import { showResult } from '../src/bot/replies.ts';
import { acknowledge } from '../src/bot/acknowledge.ts';

export const requires: Requirements = { inVoice: true };

export const data = slashCommand('join', requires);

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  // Asked for 'voice', chooseTarget gives a voice channel or refuses; it never falls back to a file.
  const target = chooseTarget(interaction, 'voice', context) as Extract<Target, { kind: 'voice' }>;
  const channel = `<#${target.channelId}>`;
  if (target.player.channelId === target.channelId && target.player.state.kind === 'connected') {
    await showResult(interaction, 'join.already', { channel });
    return;
  }
  await acknowledge(interaction);
  await target.player.connect(target.channelId);
  await showResult(interaction, 'join.joined', { channel });
};
