import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import { UserError } from './failures.ts';

/**
 * Changing what a whole server hears (presets, its default, later its voice library) needs Manage Server. The
 * command itself stays open to everyone (listing and using need nothing), so the check is here, per action.
 */
export function requireManageGuild(interaction: ChatInputCommandInteraction<'cached'>): void {
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) throw new UserError('error.permission.manageServer');
}
