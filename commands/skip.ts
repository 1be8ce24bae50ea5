import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { showResult } from '../src/core/interactions/replies.ts';
import { playerControl, playerHere, skippable } from '../src/features/player/index.ts';

export const uses = ['seats'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('skip');

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const player = playerHere(interaction, context.seats);
  const channelId = player?.channelId;
  if (!player?.playing || channelId === undefined) return showResult(interaction, 'skip.nothing');
  const skipped = player.skip(skippable(playerControl(interaction, channelId)));
  await showResult(interaction, skipped ? 'skip.skipped' : 'skip.notYours');
};
