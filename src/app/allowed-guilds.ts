// The servers the owner chose (ALLOWED_GUILDS). Discord lets anyone add a Public Bot to their own server with its
// application ID, and every server gets budgets of its own out of the owner's month; with a list, SayBot leaves any
// other server it finds itself in (at start-up, on each READY, and when added) and serves nothing there meanwhile.
// Direct messages and group DMs belong to no server: there the owner's USER_INSTALL setting alone decides.
import { Events, MessageFlags, type Client, type Guild, type Interaction } from 'discord.js';
import type { Logger } from '../core/log.ts';
import { t } from '../core/i18n/translate.ts';
import { NO_MENTIONS } from '../core/interactions/replies.ts';

export class AllowedGuilds {
  /** Absent: any server, as without ALLOWED_GUILDS. */
  readonly #allowed: ReadonlySet<string> | undefined;
  readonly #log: Logger;
  /**
   * Servers being left now, so a READY and a GUILD_CREATE close together ask Discord once (at most the bot's guilds).
   */
  readonly #leaving = new Set<string>();

  constructor(list: readonly string[] | undefined, logger: Logger) {
    this.#allowed = list === undefined ? undefined : new Set(list);
    this.#log = logger;
  }

  /** Whether the owner named the servers SayBot may serve. */
  get listed(): boolean {
    return this.#allowed !== undefined;
  }

  /** Whether SayBot may serve (and spend for) this server; no server (a DM) is USER_INSTALL's to decide. */
  allows(guildId: string | null | undefined): boolean {
    return this.#allowed === undefined || guildId === null || guildId === undefined || this.#allowed.has(guildId);
  }

  /** Leaves servers off the list as they show up: those READY lists (start-up, a new session) and each one added. */
  watch(client: Client): void {
    if (this.#allowed === undefined) return;
    client.on(Events.ShardReady, (shardId) => {
      for (const guild of client.guilds.cache.values())
        if (guild.shardId === shardId) this.#leaveIfNotAllowed(guild, 'ready');
    });
    client.on(Events.GuildCreate, (guild) => this.#leaveIfNotAllowed(guild, 'added'));
  }

  /**
   * Answers an interaction from a server off the list, privately and before anything is looked up or paid, and
   * says whether it did (the caller then routes nothing). An autocomplete gets no choices.
   */
  refuse(interaction: Interaction): boolean {
    if (this.allows(interaction.guildId)) return false;
    this.#log.info(
      { code: 'guild-not-allowed', guildId: interaction.guildId, userId: interaction.user.id },
      'interaction from a server not in ALLOWED_GUILDS refused',
    );
    if (interaction.isAutocomplete()) {
      void interaction.respond([]).catch(() => undefined);
    } else if (interaction.isRepliable()) {
      void interaction
        .reply({
          content: t(interaction.locale, 'error.guildNotAllowed'),
          flags: MessageFlags.Ephemeral,
          allowedMentions: NO_MENTIONS,
        })
        .catch((error: unknown) =>
          this.#log.warn(
            { code: 'guild-not-allowed', guildId: interaction.guildId, err: error },
            'the refusal could not be sent',
          ),
        );
    }
    return true;
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
