import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandModule } from '../src/core/interactions/command.ts';
import { showResult } from '../src/core/interactions/replies.ts';
import { playerControl, skippable } from '../src/features/player/index.ts';

export const data = slashCommand('skip');

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const player = context.players.find(interaction.guildId);
  const channelId = player?.channelId;
  if (!player?.playing || channelId === undefined) return showResult(interaction, 'skip.nothing');
  const skipped = player.skip(skippable(playerControl(interaction, channelId)));
  await showResult(interaction, skipped ? 'skip.skipped' : 'skip.notYours');
};
