import { slashCommand } from '../src/bot/interactions/command-builder.ts';
import type { CommandModule } from '../src/bot/interactions/command.ts';
import { showResult } from '../src/bot/interactions/replies.ts';

export const data = slashCommand('stop');

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const cleared = context.players.find(interaction.guildId)?.stop() ?? 0;
  await showResult(interaction, 'stop.stopped', { count: cleared });
};
