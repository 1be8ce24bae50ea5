import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { showResult } from '../src/core/interactions/replies.ts';
import { playerControl, stoppable } from '../src/features/player/index.ts';

/** The services this command is given: src/core/interactions/router.ts hands it no other. */
export const uses = ['players'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('stop');

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const player = context.players.find(interaction.guildId);
  const channelId = player?.channelId;
  if (!player || channelId === undefined) return showResult(interaction, 'stop.stopped', { count: 0 });
  const control = playerControl(interaction, channelId);
  const which = stoppable(control);
  if (!which) return showResult(interaction, 'stop.stopped', { count: player.stop() });
  const current = player.playing;
  const cleared = player.stop(which);
  const stoppedCurrent = current !== undefined && which(current);
  await showResult(interaction, cleared > 0 || stoppedCurrent ? 'stop.own' : 'stop.nothingOwn', { count: cleared });
};
