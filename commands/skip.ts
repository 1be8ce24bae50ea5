import { slashCommand } from '../src/bot/interactions/command-builder.ts';
import type { CommandModule } from '../src/bot/interactions/command.ts';
import { showResult } from '../src/bot/interactions/replies.ts';

export const data = slashCommand('skip');

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const skipped = context.players.find(interaction.guildId)?.skip() ?? false;
  await showResult(interaction, skipped ? 'skip.skipped' : 'skip.nothing');
};
