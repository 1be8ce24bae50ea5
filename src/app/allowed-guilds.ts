// ALLOWED_GUILDS: anyone may add a Public Bot, and each server spends the owner's month; the door turns away what a
// server off the list sends (src/core/interactions/router.ts, given the list as data). Servers in it at READY but off the list are left only
// with ALLOWED_GUILDS_LEAVE=1, so a mistyped list costs a warning. DMs: USER_INSTALL.
import { Events, type Client, type Guild } from 'discord.js';
import type { Logger } from '../core/log.ts';
import { chosenByOwner } from '../core/interactions/router.ts';
import { USER_INSTALL_GUILD } from '../features/speaking/index.ts';

/** The most servers one warning names (the count says how many there are). */
const KEPT_NAMED = 25;

export class AllowedGuilds {
  /** The servers the owner chose; absent: any server, as without ALLOWED_GUILDS. */
  readonly chosen: ReadonlySet<string> | undefined;
  readonly #log: Logger;
  /** Servers being left now, so a READY and a GUILD_CREATE close together ask Discord once. */
  readonly #leaving = new Set<string>();
  /** Whether the owner confirmed leaving the servers off the list that a READY names (ALLOWED_GUILDS_LEAVE=1). */
  readonly #leaveAtReady: boolean;
  /** Servers off the list already named in a warning, so each is named once (at most the bot's guilds). */
  readonly #warned = new Set<string>();
  /** The current client's servers (absent before the first client): a server SayBot left is served no more. */
  #present: { has(guildId: string): boolean } | undefined;

  constructor(list: readonly string[] | undefined, logger: Logger, leaveAtReady = false) {
    this.chosen = list === undefined ? undefined : new Set(list);
    this.#log = logger;
    this.#leaveAtReady = leaveAtReady;
  }

  /** Whether the owner chose this server, by the door's rule (src/core/interactions/router.ts `chosenByOwner`). */
  allows(guildId: string | null | undefined): boolean {
    return chosenByOwner(this.chosen, guildId);
  }

  /** Whether SayBot serves this server: on the list, and still in it (the dashboard asks). */
  serves(guildId: string): boolean {
    return guildId === USER_INSTALL_GUILD || (this.allows(guildId) && this.inServer(guildId));
  }

  /** Whether SayBot is still in this server (before each part of speech; the list was asked where its order came in):
   * not kicked nor the server deleted (GUILD_DELETE took it out of the cache; an outage leaves it there). */
  inServer(guildId: string): boolean {
    return guildId === USER_INSTALL_GUILD || (this.#present?.has(guildId) ?? true);
  }

  /** Leaves servers off the list added while running; those a READY lists only when confirmed, else one warning. */
  watch(client: Client): void {
    this.#present = client.guilds.cache;
    if (this.chosen === undefined) return;
    client.on(Events.ShardReady, (shardId) => {
      const unlisted = [...client.guilds.cache.values()].filter((g) => g.shardId === shardId && !this.allows(g.id));
      if (this.#leaveAtReady) for (const guild of unlisted) this.#leaveIfNotAllowed(guild, 'ready');
      else this.#warnKept(unlisted);
    });
    client.on(Events.GuildCreate, (guild) => this.#leaveIfNotAllowed(guild, 'added'));
  }

  /** One warning naming the servers off the list SayBot stays in, those not named before; the line names at most 25. */
  #warnKept(unlisted: readonly Guild[]): void {
    const fresh = unlisted.filter((guild) => !this.#warned.has(guild.id));
    if (fresh.length === 0) return;
    for (const guild of fresh) this.#warned.add(guild.id);
    this.#log.warn(
      {
        code: 'guild-not-allowed-kept',
        count: fresh.length,
        guilds: fresh.slice(0, KEPT_NAMED).map((guild) => ({ id: guild.id, name: guild.name })),
      },
      `SayBot is in ${fresh.length} server(s) not in ALLOWED_GUILDS: it serves none of them and stays in them. If one is yours, add its ID to ALLOWED_GUILDS; to leave them, set ALLOWED_GUILDS_LEAVE=1 and restart`,
    );
  }

  #leaveIfNotAllowed(guild: Guild, when: 'ready' | 'added'): void {
    if (this.allows(guild.id) || this.#leaving.has(guild.id)) return;
    this.#leaving.add(guild.id);
    guild
      .leave()
      .then(
        () =>
          this.#log.warn(
            { code: 'guild-not-allowed-left', guildId: guild.id, when },
            'SayBot left a server that is not in ALLOWED_GUILDS',
          ),
        (error: unknown) =>
          this.#log.error(
            { code: 'guild-not-allowed-leave-failed', guildId: guild.id, when, err: error },
            'could not leave a server that is not in ALLOWED_GUILDS: its interactions are still refused',
          ),
      )
      .finally(() => this.#leaving.delete(guild.id));
  }
}
