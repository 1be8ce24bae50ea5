// Who may read the whole plan's figures (what is left of the month, the bot-wide budget): the owner's business.
import { PermissionFlagsBits, type Interaction } from 'discord.js';

/** The operator anywhere, a manager in a server SayBot is in; outside servers Manage Server counts for nothing. */
export function seesPlanFigures(
  interaction: Interaction,
  isOperator: ((userId: string) => boolean) | undefined,
): boolean {
  if (isOperator?.(interaction.user.id) === true) return true;
  return interaction.inCachedGuild() && interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild);
}
