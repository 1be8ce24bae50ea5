// Registered application commands, global and per guild, as PUT/POST/PATCH/DELETE /applications/{app}/... store them.
import { snowflake } from './snowflake.ts';
import { apiError, asObject, type ApiError, type Json } from './messages.ts';
import { fileTypesProblem } from './file-types.ts';

/** A command whose options' `file_types` Discord refuses (400 50035 with the option's path), walking sub-commands. */
export function checkCommandFileTypes(raw: unknown, at = ''): ApiError | undefined {
  const options = asObject(raw).options;
  for (const [i, option] of (Array.isArray(options) ? options : []).entries()) {
    const path = `${at}options.${i}`;
    const problem = fileTypesProblem(asObject(option).file_types);
    if (problem !== undefined)
      return apiError(400, 50035, 'Invalid Form Body', {
        [`${path}.file_types`]: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: problem }] },
      });
    const nested = checkCommandFileTypes(option, `${path}.`);
    if (nested) return nested;
  }
  return undefined;
}

export class CommandStore {
  private readonly applicationId: string;
  private readonly global: Json[] = [];
  private readonly guilds = new Map<string, Json[]>();
  /** Told of each command deleted or renamed: Discord deletes its permissions in every server with it. */
  private readonly forgotten: (commandId: string) => void;

  constructor(applicationId: string, forgotten: (commandId: string) => void = () => undefined) {
    this.applicationId = applicationId;
    this.forgotten = forgotten;
  }

  list(guildId?: string): Json[] {
    return guildId === undefined ? this.global : (this.guilds.get(guildId) ?? []);
  }

  /** The command an interaction names: a guild command first, then a global one; `type` 1 slash, 3 message menu. */
  find(guildId: string, name: string, type = 1): Json | undefined {
    const named = (c: Json) => c.name === name && (c.type ?? 1) === type;
    return this.list(guildId).find(named) ?? this.global.find(named);
  }

  /** Bulk overwrite: commands keep their id (and bump their version) when name and type match an existing one. */
  overwrite(guildId: string | undefined, body: unknown[]): Json[] {
    const previous = [...this.list(guildId)];
    const next = body.map((raw) => this.normalise(guildId, asObject(raw), previous));
    if (guildId === undefined) this.global.splice(0, this.global.length, ...next);
    else this.guilds.set(guildId, next);
    for (const old of previous) if (!next.some((c) => c.id === old.id)) this.forgotten(String(old.id));
    return next;
  }

  upsert(guildId: string | undefined, raw: unknown): { command: Json; created: boolean } {
    const list = this.list(guildId);
    const command = this.normalise(guildId, asObject(raw), list);
    const index = list.findIndex((c) => c.id === command.id);
    if (index >= 0) list[index] = command;
    else if (guildId === undefined) this.global.push(command);
    else this.guilds.set(guildId, [...list, command]);
    return { command, created: index < 0 };
  }

  edit(guildId: string | undefined, id: string, raw: unknown): Json | undefined {
    const list = this.list(guildId);
    const index = list.findIndex((c) => c.id === id);
    const current = list[index];
    if (!current) return undefined;
    const command: Json = { ...current, ...asObject(raw), id, version: snowflake() };
    list[index] = command;
    if (command.name !== current.name) this.forgotten(id);
    return command;
  }

  delete(guildId: string | undefined, id: string): boolean {
    const list = this.list(guildId);
    const index = list.findIndex((c) => c.id === id);
    if (index < 0) return false;
    list.splice(index, 1);
    this.forgotten(id);
    return true;
  }

  private normalise(guildId: string | undefined, command: Json, existing: Json[]): Json {
    const type = typeof command.type === 'number' ? command.type : 1;
    const same = existing.find((c) => c.name === command.name && (c.type ?? 1) === type);
    return {
      description: '',
      options: [],
      default_member_permissions: null,
      nsfw: false,
      name_localizations: null,
      description_localizations: null,
      integration_types: [0],
      contexts: null,
      ...command,
      id: same?.id ?? snowflake(),
      application_id: this.applicationId,
      type,
      version: snowflake(),
      ...(guildId !== undefined ? { guild_id: guildId } : {}),
    };
  }
}
