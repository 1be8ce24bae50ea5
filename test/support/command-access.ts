// What a server admin sets for SayBot's commands in Server Settings > Integrations (a command's permissions), as the
// local Discord keeps them: who is offered a command beyond its default member permissions.
import { CommandPermissionType, type FakeDiscord } from '@saybot/local-discord';

/**
 * A server admin lets these members use slash command `name` (a user override each, replacing the command's
 * overrides in that server; none: back to its default member permissions). They see and use it though they lack
 * those permissions, and SayBot's own checks are what is left to refuse them.
 */
export function letMembersUse(discord: FakeDiscord, guildId: string, name: string, userIds: readonly string[]): void {
  const command = [...discord.registeredCommands(guildId), ...discord.registeredCommands()]
    .map((c) => c as { id: string; name: string; type?: number })
    .find((c) => c.name === name && (c.type ?? 1) === 1);
  if (command === undefined) throw new Error(`no slash command /${name} is registered`);
  discord.setCommandPermissions(
    guildId,
    command.id,
    userIds.map((id) => ({ id, type: CommandPermissionType.User, permission: true })),
  );
}
