// Application commands and their permissions over REST, per application: each token reads and writes its own
// application's commands (another application's ID: 404 10002), in servers its bot is in (else 403 50001).
import { PermissionFlagsBits } from 'discord.js';
import { checkCommandFileTypes, type CommandStore } from './commands.ts';
import { parsePermissionsBody, permissionsPayload, type CommandPermissionStore } from './command-permissions.ts';
import type { Answer } from './interactions.ts';
import { apiError } from './messages.ts';
import { fail, ID as id, ok, type AddRoute, type Context } from './rest-routes.ts';
import type { BotApplication, World } from './world.ts';

export interface CommandRouteDeps {
  world: World;
  /** The application's own commands. */
  commandsOf: (application: BotApplication) => CommandStore;
  commandPermissions: CommandPermissionStore;
  /** The user and scopes of a live OAuth2 access token (`Authorization: Bearer ...`), else undefined. */
  bearer: (authorization: string | undefined) => { userId: string; scopes: readonly string[] } | undefined;
  /** A command's permissions changed: APPLICATION_COMMAND_PERMISSIONS_UPDATE follows on the gateway. */
  commandPermissionsUpdated: (application: BotApplication, guildId: string, payload: Record<string, unknown>) => void;
}

/** Refuses an application ID not the caller's, and a server its bot is not in. */
function guard(
  world: World,
  application: BotApplication | undefined,
  appId: string,
  guildId?: string,
): Answer | undefined {
  if (application?.applicationId !== appId) return fail(apiError(404, 10002, 'Unknown Application'));
  if (guildId !== undefined && !world.guildOf(application, guildId))
    return fail(apiError(403, 50001, 'Missing Access'));
  return undefined;
}

export function addCommandRoutes(add: AddRoute, deps: CommandRouteDeps): void {
  addCommandPermissionRoutes(add, deps);
  const { world, commandsOf } = deps;
  for (const scope of ['global', 'guild'] as const) {
    const base = scope === 'global' ? `/applications/${id}/commands` : `/applications/${id}/guilds/${id}/commands`;
    const split = (ctx: Context): { guard: Answer | undefined; guildId: string | undefined; rest: string[] } => {
      const { params } = ctx;
      const appId = params[0] ?? '';
      const guildId = scope === 'global' ? undefined : (params[1] ?? '');
      return {
        guard: guard(world, ctx.application, appId, guildId),
        guildId,
        rest: params.slice(scope === 'global' ? 1 : 2),
      };
    };
    add('GET', base, true, (ctx) => {
      const { guard: refused, guildId } = split(ctx);
      return refused ?? ok(commandsOf(ctx.application).list(guildId));
    });
    add('PUT', base, true, (ctx) => {
      const { guard: refused, guildId } = split(ctx);
      if (refused) return refused;
      const { body } = ctx;
      if (!Array.isArray(body.json)) return fail(apiError(400, 50035, 'Invalid Form Body'));
      const problem = body.json.map((command) => checkCommandFileTypes(command)).find((p) => p !== undefined);
      if (problem) return fail(problem);
      return ok(commandsOf(ctx.application).overwrite(guildId, body.json));
    });
    add('POST', base, true, (ctx) => {
      const { guard: refused, guildId } = split(ctx);
      if (refused) return refused;
      const problem = checkCommandFileTypes(ctx.body.json);
      if (problem) return fail(problem);
      const { command, created } = commandsOf(ctx.application).upsert(guildId, ctx.body.json);
      return { status: created ? 201 : 200, json: command };
    });
    const one = `${base}/${id}`;
    const unknownCommand = fail(apiError(404, 10063, 'Unknown application command'));
    add('GET', one, true, (ctx) => {
      const { guard: refused, guildId, rest } = split(ctx);
      const command = commandsOf(ctx.application)
        .list(guildId)
        .find((c) => c.id === rest[0]);
      return refused ?? (command ? ok(command) : unknownCommand);
    });
    add('PATCH', one, true, (ctx) => {
      const { guard: refused, guildId, rest } = split(ctx);
      if (refused) return refused;
      const command = commandsOf(ctx.application).edit(guildId, rest[0] ?? '', ctx.body.json);
      return command ? ok(command) : unknownCommand;
    });
    add('DELETE', one, true, (ctx) => {
      const { guard: refused, guildId, rest } = split(ctx);
      if (refused) return refused;
      return commandsOf(ctx.application).delete(guildId, rest[0] ?? '') ? { status: 204 } : unknownCommand;
    });
  }
}

/**
 * GET .../guilds/{guild}/commands/permissions (every command's), GET and PUT .../commands/{command}/permissions
 * (the application's ID for the app-wide ones). Reading takes the bot token; editing only a Bearer token with the
 * applications.commands.permissions.update scope of a member with Manage Server and Manage Roles there (a bot token
 * is refused with 20001), and replaces the command's overrides. Not modelled: that the member can run the command
 * and manage the roles, members and channels named. Registered before the commands: "permissions" is no command ID.
 */
function addCommandPermissionRoutes(add: AddRoute, deps: CommandRouteDeps): void {
  const { world, commandsOf, commandPermissions } = deps;
  const base = `/applications/${id}/guilds/${id}/commands`;
  const knownCommand = (application: BotApplication, guildId: string, commandId: string): boolean =>
    commandId === application.applicationId ||
    commandsOf(application)
      .list(guildId)
      .some((c) => c.id === commandId) ||
    commandsOf(application)
      .list()
      .some((c) => c.id === commandId);
  add(
    'GET',
    `${base}/permissions`,
    true,
    ({ params: [appId = '', guildId = ''], application }) =>
      guard(world, application, appId, guildId) ??
      ok(
        commandPermissions
          .entries(guildId)
          .filter(([commandId]) => knownCommand(application, guildId, commandId))
          .map(([commandId, list]) => permissionsPayload(appId, guildId, commandId, list)),
      ),
  );
  add(
    'GET',
    `${base}/${id}/permissions`,
    true,
    ({ params: [appId = '', guildId = '', commandId = ''], application }) => {
      const refused = guard(world, application, appId, guildId);
      if (refused) return refused;
      const list = commandPermissions.get(guildId, commandId);
      return list && knownCommand(application, guildId, commandId)
        ? ok(permissionsPayload(appId, guildId, commandId, list))
        : fail(apiError(404, 10066, 'Unknown application command permissions'));
    },
  );
  add(
    'PUT',
    `${base}/${id}/permissions`,
    false,
    ({ params: [appId = '', guildId = '', commandId = ''], body, headers }) => {
      const application = [...world.applications.values()].find((a) => a.applicationId === appId);
      const refused = guard(world, application, appId, guildId);
      if (refused || !application) return refused ?? fail(apiError(404, 10002, 'Unknown Application'));
      const authorization = headers.authorization;
      if (authorization?.startsWith('Bot ') === true && world.applicationByToken(authorization))
        return fail(apiError(403, 20001, 'Bots cannot use this endpoint'));
      const bearer = deps.bearer(authorization);
      if (!bearer) return fail(apiError(401, 0, '401: Unauthorized'));
      if (!bearer.scopes.includes('applications.commands.permissions.update'))
        return fail(apiError(403, 50026, 'Missing required OAuth2 scope'));
      if (!knownCommand(application, guildId, commandId))
        return fail(apiError(404, 10063, 'Unknown application command'));
      const guild = world.guildOf(application, guildId);
      if (!guild) return fail(apiError(403, 50001, 'Missing Access'));
      const needed = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles;
      if (!guild.members.has(bearer.userId) || (guild.permissionsOf(bearer.userId) & needed) !== needed)
        return fail(apiError(403, 50013, 'Missing Permissions'));
      const parsed = parsePermissionsBody(guild, body.json);
      if ('field' in parsed)
        return fail(
          apiError(400, 50035, 'Invalid Form Body', {
            [parsed.field]: { _errors: [{ code: 'BASE_TYPE_INVALID', message: parsed.message }] },
          }),
        );
      commandPermissions.set(guildId, commandId, parsed.permissions);
      const payload = permissionsPayload(appId, guildId, commandId, parsed.permissions);
      deps.commandPermissionsUpdated(application, guildId, payload);
      return ok(payload);
    },
  );
}
