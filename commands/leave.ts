import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { requireManager } from '../src/core/interactions/preconditions.ts';
import { showResult } from '../src/core/interactions/replies.ts';
import { playerHere, requireMayLeave } from '../src/features/player/index.ts';

export const uses = ['autoread', 'seats'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('leave');

const mention = (id: string) => `<#${id}>`;

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const player = playerHere(interaction, context.seats);
  const channelId = player?.channelId;
  if (!player || channelId === undefined) throw new UserError('error.voice.notConnected');
  // While the server is read aloud, leaving is its managers' call, and it pauses reading: the binding stays.
  const reading = context.autoread?.channels.get(interaction.guildId)?.get(channelId);
  if (reading !== undefined) {
    const where = { channel: mention(reading.textChannelId), voice: mention(reading.voiceChannelId) };
    requireManager(interaction, 'autoread.guard.leave', where);
    await context.autoread?.pause(interaction.guildId, channelId);
    player.leave('asked');
    await showResult(interaction, 'autoread.pausedByLeave', where);
    return;
  }
  requireMayLeave(interaction, player, channelId);
  player.leave('asked');
  await showResult(interaction, 'leave.left', { channel: mention(channelId) });
};
