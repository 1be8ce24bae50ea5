// Who may use an application command in a server, as Discord decides it before its client offers a command or sends
// an interaction (Discord's documentation, interactions/application-commands: Permissions, default_member_permissions,
// Interaction Contexts; the support articles "Updates to Command Permissions" and "Command Permissions Lockout"):
// - a global command is offered in a server only when its `integration_types` include GUILD_INSTALL (0) and its
//   `contexts` (null: all) include GUILD (0); a guild command always is (contexts are for global commands);
// - the server's owner and members with Administrator may use every command, whatever the settings;
// - the server's command permissions (PUT .../commands/{command.id}/permissions, set by a member with Manage Server
//   and Manage Roles; the application's ID for the app-wide ones) come next, the command's own overriding the
//   app-wide ones where they conflict: a channel (its own override, else "All Channels", the guild ID - 1) that is
//   denied hides the command there; then the member's own override decides, else their roles' (allowed when any of
//   them is allowed), else @everyone's (the guild ID), where a deny hides the command and an allow leaves it to
//   default_member_permissions (discord-api-docs #5356: an @everyone allow does not widen a command whose default
//   member permissions the member lacks);
// - default_member_permissions last: null lets everyone; otherwise the member needs every one of those bits, here
//   in the channel (their permissions there, as an interaction's member.permissions carries them); "0" lets nobody.
//   A timeout is not counted: Discord still sends a timed-out member's commands (bots check the timeout themselves,
//   discord-api-docs #6847), and does not say that it hides more from them; their roles' permissions are used.
// Not modelled: Use Application Commands (a member without it is offered nothing), age-restricted (nsfw) commands.
import { PermissionFlagsBits } from 'discord.js';
import { asObject, type Json } from './api-error.ts';
import type { GuildRecord } from './state.ts';

/** ROLE 1, USER 2, CHANNEL 3 (Application Command Permission Type). */
export const CommandPermissionType = { Role: 1, User: 2, Channel: 3 } as const;
export type CommandPermissionTypeValue = (typeof CommandPermissionType)[keyof typeof CommandPermissionType];

/** One override: a role, user or channel (or @everyone, the guild ID; All Channels, the guild ID - 1), allowed or not. */
export interface CommandPermission {
  id: string;
  type: CommandPermissionTypeValue;
  permission: boolean;
}

/** "You can add up to 100 permission overwrites for a command." */
export const MAX_COMMAND_PERMISSIONS = 100;

/** The All Channels constant: the guild's ID minus one. */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/** The server's command permissions: per guild, per command ID (or the application's ID, for the app-wide ones). */
export class CommandPermissionStore {
  private readonly byGuild = new Map<string, Map<string, CommandPermission[]>>();

  get(guildId: string, commandId: string): CommandPermission[] | undefined {
    return this.byGuild.get(guildId)?.get(commandId);
  }

  /** Replaces a command's overrides (an empty list removes them). */
  set(guildId: string, commandId: string, permissions: CommandPermission[]): void {
    const guild = this.byGuild.get(guildId) ?? new Map<string, CommandPermission[]>();
    if (permissions.length === 0) guild.delete(commandId);
    else
      guild.set(
        commandId,
        permissions.map((p) => ({ ...p })),
      );
    this.byGuild.set(guildId, guild);
  }

  /** Every command (and the app-wide entry) that has overrides in this guild. */
  entries(guildId: string): Array<[string, CommandPermission[]]> {
    return [...(this.byGuild.get(guildId) ?? new Map<string, CommandPermission[]>()).entries()];
  }

  /** "Deleting or renaming a command will permanently delete all permissions for the command." */
  forget(commandId: string): void {
    for (const guild of this.byGuild.values()) guild.delete(commandId);
  }
}

/** A guild's command permissions object, as Discord answers it (the application's ID for the app-wide ones). */
export function permissionsPayload(
  applicationId: string,
  guildId: string,
  commandId: string,
  permissions: CommandPermission[],
): Record<string, unknown> {
  return { id: commandId, application_id: applicationId, guild_id: guildId, permissions };
}

/** May this member use the command here; when not, why (naming the missing permission or the override). */
export type CommandAccess = { allowed: true } | { allowed: false; code: 'context' | 'permissions'; why: string };

export interface AccessInput {
  guild: GuildRecord;
  userId: string;
  channelId: string;
  command: Json;
  applicationId: string;
  permissions: CommandPermissionStore;
}

/** Whether Discord offers `command` to this member in this channel of a server where the app is installed. */
export function commandAccess(input: AccessInput): CommandAccess {
  const { guild, userId, channelId, command } = input;
  const name = `/${String(command.name)}`;
  const offered = offeredInServers(command);
  if (offered !== undefined)
    return { allowed: false, code: 'context', why: `${name} is not offered in servers (${offered})` };
  if (userId === guild.ownerId || (guild.permissionsOf(userId) & PermissionFlagsBits.Administrator) !== 0n)
    return { allowed: true };
  const levels = [
    input.permissions.get(guild.id, String(command.id)) ?? [],
    input.permissions.get(guild.id, input.applicationId) ?? [],
  ];
  const find = (type: CommandPermissionTypeValue, id: string): CommandPermission | undefined => {
    for (const level of levels) {
      const found = level.find((p) => p.type === type && p.id === id);
      if (found) return found;
    }
    return undefined;
  };
  const channel =
    find(CommandPermissionType.Channel, channelId) ?? find(CommandPermissionType.Channel, allChannelsId(guild.id));
  if (channel?.permission === false)
    return { allowed: false, code: 'permissions', why: `${name} is turned off in this channel (command permissions)` };
  const own = find(CommandPermissionType.User, userId);
  if (own !== undefined)
    return own.permission
      ? { allowed: true }
      : { allowed: false, code: 'permissions', why: `${name} is denied to this member (command permissions)` };
  const roles = guild.members.get(userId)?.roles ?? [];
  for (const level of levels) {
    const mine = level.filter(
      (p) => p.type === CommandPermissionType.Role && p.id !== guild.id && roles.includes(p.id),
    );
    if (mine.length === 0) continue;
    if (mine.some((p) => p.permission)) return { allowed: true };
    return {
      allowed: false,
      code: 'permissions',
      why: `${name} is denied to this member's roles (command permissions)`,
    };
  }
  const everyone = find(CommandPermissionType.Role, guild.id);
  if (everyone?.permission === false)
    return { allowed: false, code: 'permissions', why: `${name} is denied to @everyone (command permissions)` };
  const wanted = defaultMemberPermissions(command);
  if (wanted === undefined) return { allowed: true };
  const missing = wanted & ~guild.permissionsIn(userId, channelId, true);
  if (wanted !== 0n && missing === 0n) return { allowed: true };
  return {
    allowed: false,
    code: 'permissions',
    why:
      wanted === 0n
        ? `${name} is for administrators only (default_member_permissions "0")`
        : `${name} needs ${permissionNames(missing).join(', ')} (its default_member_permissions), which the member lacks here`,
  };
}

/** Why a global command is not offered in servers (integration_types, contexts), or undefined when it is. */
function offeredInServers(command: Json): string | undefined {
  if (typeof command.guild_id === 'string') return undefined;
  const types = Array.isArray(command.integration_types) ? command.integration_types : [0];
  if (!types.includes(0)) return `integration_types ${JSON.stringify(types)}`;
  if (Array.isArray(command.contexts) && !command.contexts.includes(0))
    return `contexts ${JSON.stringify(command.contexts)}`;
  return undefined;
}

/**
 * The interaction contexts a global command may be used in: `contexts`, or when that is null every context, less
 * the bot's DM when the deprecated `dm_permission` is false.
 */
export function commandContexts(command: Json): number[] {
  if (Array.isArray(command.contexts)) return command.contexts.filter((c): c is number => typeof c === 'number');
  return command.dm_permission === false ? [0, 2] : [0, 1, 2];
}

function defaultMemberPermissions(command: Json): bigint | undefined {
  const raw = command.default_member_permissions;
  if (raw === null || raw === undefined) return undefined;
  try {
    return BigInt(String(raw));
  } catch {
    return undefined;
  }
}

/** The names of the permission bits set (discord.js's PermissionFlagsBits names, e.g. ManageGuild for Manage Server). */
export function permissionNames(bits: bigint): string[] {
  return Object.entries(PermissionFlagsBits)
    .filter(([, bit]) => (bits & bit) !== 0n)
    .map(([flag]) => flag);
}

/**
 * The body of PUT .../commands/{command.id}/permissions checked as Discord does: up to 100 overrides, each a role of
 * the guild (or @everyone), one of its members, or one of its channels (or All Channels), with a boolean. The list,
 * or the field error (Invalid Form Body).
 */
export function parsePermissionsBody(
  guild: GuildRecord,
  body: unknown,
): { permissions: CommandPermission[] } | { field: string; message: string } {
  const list = asObject(body).permissions;
  if (!Array.isArray(list)) return { field: 'permissions', message: 'This field is required' };
  if (list.length > MAX_COMMAND_PERMISSIONS)
    return { field: 'permissions', message: `Must be ${MAX_COMMAND_PERMISSIONS} or fewer in length.` };
  const permissions: CommandPermission[] = [];
  for (const [i, raw] of list.entries()) {
    const entry = asObject(raw);
    const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : '';
    const type = entry.type;
    if (typeof entry.permission !== 'boolean')
      return { field: `permissions.${i}.permission`, message: 'Must be either true or false.' };
    const known =
      type === CommandPermissionType.Role
        ? guild.roles.some((r) => r.id === id)
        : type === CommandPermissionType.User
          ? guild.members.has(id)
          : type === CommandPermissionType.Channel
            ? guild.channels.has(id) || id === allChannelsId(guild.id)
            : false;
    if (!known) return { field: `permissions.${i}.id`, message: `Invalid ${describeType(type)} ID` };
    permissions.push({ id, type: type as CommandPermissionTypeValue, permission: entry.permission });
  }
  return { permissions };
}

function describeType(type: unknown): string {
  if (type === CommandPermissionType.Role) return 'role';
  if (type === CommandPermissionType.User) return 'user';
  if (type === CommandPermissionType.Channel) return 'channel';
  return 'permission type or';
}
