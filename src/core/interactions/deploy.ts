import {
  ApplicationIntegrationType,
  InteractionContextType,
  REST,
  Routes,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import type { AnyCommandModule } from './command.ts';
import { isMessageMenu } from './router.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Fields Discord adds or defaults on its side: they say nothing about whether our definition changed. */
const SERVER_FIELDS = new Set(['id', 'application_id', 'version', 'guild_id', 'dm_permission', 'handler']);

/** A definition with Discord's defaults removed, so Discord's and the builders' compare equal; a menu keeps `type`. */
export function canonicalCommand(value: unknown, top = true): Json | undefined {
  if (value === null || value === undefined || value === false) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => canonicalCommand(v, false)).filter((v): v is Json => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value).sort()) {
      if (top && SERVER_FIELDS.has(key)) continue;
      const v = canonicalCommand((value as Record<string, unknown>)[key], false);
      if (v !== undefined) out[key] = v;
    }
    if (top && out['type'] === 1) delete out['type'];
    // Installed to servers only is Discord's default; a user install is a change (it must be registered).
    if (top && JSON.stringify(out['integration_types']) === '[0]') delete out['integration_types'];
    // Discord returns `description: ""` for a context menu, which has none.
    if (top && out['description'] === '') delete out['description'];
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value as Json;
}

export function sameDefinitions(current: readonly unknown[], wanted: readonly unknown[]): boolean {
  // Each definition serialised once, then the strings sorted: the same verdict for either order of either list.
  const key = (list: readonly unknown[]) => list.map((c) => JSON.stringify(canonicalCommand(c) ?? null)).sort();
  return JSON.stringify(key(current)) === JSON.stringify(key(wanted));
}

/** Each command's definition as its builder makes (and checks) it: once a process, as the builders are constants. */
const built = new WeakMap<AnyCommandModule['data'], RESTPostAPIApplicationCommandsJSONBody>();
function definition(command: AnyCommandModule): RESTPostAPIApplicationCommandsJSONBody {
  const made = built.get(command.data) ?? command.data.toJSON();
  built.set(command.data, made);
  return made;
}

interface DeployOptions {
  token: string;
  clientId: string;
  guildId?: string | undefined;
  apiBaseUrl?: string | undefined;
  commands: Iterable<AnyCommandModule>;
  /** USER_INSTALL is not off: the user-installable commands are registered for user installs and private channels. */
  userInstall?: boolean;
}

interface DeployResult {
  changed: boolean;
  count: number;
  scope: 'guild' | 'global';
}

/** Registers the commands to one server (guild ID given) or globally; no call when nothing changed. */
export async function deployCommands(options: DeployOptions): Promise<DeployResult> {
  const rest = new REST(options.apiBaseUrl === undefined ? {} : { api: options.apiBaseUrl }).setToken(options.token);
  const route =
    options.guildId === undefined
      ? Routes.applicationCommands(options.clientId)
      : Routes.applicationGuildCommands(options.clientId, options.guildId);
  const wanted: RESTPostAPIApplicationCommandsJSONBody[] = [...options.commands].map((c) =>
    withUserInstall(
      definition(c),
      options.userInstall === true && !isMessageMenu(c) && c.executeOutsideServer !== undefined,
    ),
  );
  const current = (await rest.get(route)) as unknown[];
  const scope = options.guildId === undefined ? 'global' : 'guild';
  if (sameDefinitions(current, wanted)) return { changed: false, count: wanted.length, scope };
  await rest.put(route, { body: wanted });
  return { changed: true, count: wanted.length, scope };
}

/**
 * A definition as registered: user-installable ones offered everywhere when the user install is on. They must say
 * `integration_types` and `contexts` explicitly (discord-api-docs #7108); only global commands can be user-installed.
 */
export function withUserInstall<T extends RESTPostAPIApplicationCommandsJSONBody>(definition: T, on: boolean): T {
  if (!on) return definition;
  return {
    ...definition,
    integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
  };
}
