import type { AnsweredInteraction } from './command.ts';

/**
 * The command an interaction answers for, for logs and replies: its own name, or for the submit of a command's
 * form the command that showed it (custom_ids of a command's components start with `<command name>:`).
 */
export function commandNameOf(interaction: AnsweredInteraction): string {
  return 'commandName' in interaction ? interaction.commandName : ownerOfCustomId(interaction.customId);
}

/** `clone` of `clone:form:file`. */
export function ownerOfCustomId(customId: string): string {
  return customId.split(':', 1)[0] ?? '';
}
