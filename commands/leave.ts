import { slashCommand } from '../src/bot/command-builder.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { UserError } from '../src/bot/failures.ts';
import { showResult } from '../src/bot/replies.ts';

export const data = slashCommand('leave');

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const player = context.players.find(interaction.guildId);
  const channelId = player?.channelId;
  if (!player || channelId === undefined) throw new UserError('error.voice.notConnected');
  player.leave('asked');
  await showResult(interaction, 'leave.left', { channel: `<#${channelId}>` });
};
