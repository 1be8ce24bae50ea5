// Helper bots (HELPER_BOT_TOKENS): each a discord.js client of its own in this process, with the Guilds and Guild
// Voice States intents only (no commands, no chat), a seat in every server it is in. A helper that fails (its token
// refused, its gateway lost, removed from a server) is only that seat gone: the main bot and the others go on.
import { Client, Events, GatewayCloseCodes, REST, Routes, type Guild } from 'discord.js';
import type { Logger } from '../core/log.ts';
import type { PlayerRegistry, SeatBot } from '../core/voice/seats.ts';
import type { HelperStatus } from '../features/dashboard/index.ts';
import { BASE_INTENTS, loginWithIntentFallback } from './intents.ts';
import { boundedClientOptions } from './saybot.ts';
import { oneShotRest } from './bot-guilds.ts';
import { NO_MENTIONS } from '../core/interactions/replies.ts';
import { UserError } from '../core/interactions/failures.ts';

/** The first wait before a failed login is tried again, doubled each time up to LOGIN_RETRY_MAX_MS. */
export const LOGIN_RETRY_MS = 5_000;
export const LOGIN_RETRY_MAX_MS = 15 * 60_000;

/**
 * Of a helper's daily identify budget (session_start_limit), the part never spent by logins: a crash loop stops
 * logging a helper in while less is left, so no token's whole budget goes at once and the fixed bot can still start.
 */
export const IDENTIFY_RESERVE = 0.25;

/** Gateway closes after which a token is not tried again (4004: refused; 4010 to 4014: the owner must act). */
/** How long SayBot's start waits for its helpers to log in: well within a shard's ready time (shard/manager.ts). */
const HELPERS_START_WAIT_MS = 20_000;
const FINAL_CLOSES = new Set<number>([
  GatewayCloseCodes.AuthenticationFailed,
  GatewayCloseCodes.InvalidShard,
  GatewayCloseCodes.ShardingRequired,
  GatewayCloseCodes.InvalidAPIVersion,
  GatewayCloseCodes.InvalidIntents,
  GatewayCloseCodes.DisallowedIntents,
]);

/** `closed`: Discord closed its gateway for good (4010 to 4014): it is not logged in again until SayBot restarts. */
export type HelperState = 'offline' | 'online' | 'refused' | 'closed';

/** What a final gateway close means for a helper: its log line and the console's doctor say it so. */
export function finalCloseWords(code: number): string {
  return `Discord closed its gateway for good (${code} ${GatewayCloseCodes[code] ?? ''}): it stays offline until SayBot is restarted`;
}

export interface HelperBotOptions {
  /** 1 for the first token in HELPER_BOT_TOKENS: how logs name it (never by its token). */
  index: number;
  token: string;
  apiBaseUrl: string | undefined;
  players: PlayerRegistry;
  logger: Logger;
  readyTimeoutMs: number;
  /** A right its speech depends on may have changed (its own voice state: muted, sent to a Stage's audience). */
  rightsChanged: (guildId: string) => void;
  /** Its client is about to be destroyed: what only it can undo (the voice channel statuses it set) is undone first. */
  releasing: (client: Client) => Promise<void>;
}

/** One helper bot: a seat in each server it is in while online. */
export class HelperBot implements SeatBot {
  readonly index: number;
  readonly players: PlayerRegistry;
  #client: Client | undefined;
  #state: HelperState = 'offline';
  /** The final gateway close that left it `closed`. */
  #closeCode: number | undefined;
  #name: string | undefined;
  #failures = 0;
  #retry: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #options: HelperBotOptions;
  readonly #log: Logger;

  constructor(options: HelperBotOptions) {
    this.index = options.index;
    this.players = options.players;
    this.#options = options;
    this.#log = options.logger.child({ helper: options.index });
  }

  get state(): HelperState {
    return this.#state;
  }

  userId(): string | undefined {
    return this.#state === 'online' ? this.#client?.user?.id : undefined;
  }

  guild(guildId: string): Guild | undefined {
    return this.#state === 'online' ? this.#client?.guilds.cache.get(guildId) : undefined;
  }

  /** Its user name once logged in (the owner's console). */
  name(): string | undefined {
    return this.#name;
  }

  get closeCode(): number | undefined {
    return this.#closeCode;
  }

  /** Servers it is in now (the owner's console, doctor). */
  guildIds(): string[] {
    return this.#state === 'online' ? [...(this.#client?.guilds.cache.keys() ?? [])] : [];
  }

  /** One login attempt; a failure is logged and tried again later (never a refused token). Never throws. */
  async login(): Promise<void> {
    if (this.#stopped || this.#state !== 'offline') return;
    try {
      if (!(await this.#budgetLeft())) return;
      const client = await loginWithIntentFallback({
        makeClient: () => this.#newClient(),
        token: this.#options.token,
        logger: this.#log,
        readyTimeoutMs: this.#options.readyTimeoutMs,
        autoread: false,
      }).then((login) => login.client);
      if (this.#stopped) {
        await client.destroy();
        return;
      }
      this.#client = client;
      this.#name = client.user?.username;
      this.#state = 'online';
      this.#failures = 0;
      this.#log.info(
        { code: 'helper-online', user: client.user?.tag, guilds: client.guilds.cache.size },
        `helper bot ${this.index} is online`,
      );
    } catch (error) {
      if (isTokenRefused(error)) return this.#refused();
      this.#log.warn({ code: 'helper-login-failed', err: error }, `helper bot ${this.index} could not log in`);
      this.#later();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.players.destroyAll();
    const client = this.#client;
    this.#client = undefined;
    this.#state = 'offline';
    if (client !== undefined) await this.#release(client);
  }

  async #release(client: Client): Promise<void> {
    await this.#options
      .releasing(client)
      .catch((error: unknown) => this.#log.warn({ err: error }, 'helper bot not released cleanly'));
    await client.destroy();
  }

  /** Whether its identify budget is above the reserve; else one line and a login once it is reset. */
  async #budgetLeft(): Promise<boolean> {
    const api = this.#options.apiBaseUrl;
    const rest = new REST({ ...oneShotRest, ...(api === undefined ? {} : { api }) }).setToken(this.#options.token);
    const info = (await rest.get(Routes.gatewayBot())) as {
      session_start_limit?: { total: number; remaining: number; reset_after: number };
    };
    const limit = info.session_start_limit;
    if (limit === undefined || limit.remaining > limit.total * IDENTIFY_RESERVE) return true;
    this.#log.warn(
      {
        code: 'helper-identify-reserve',
        remaining: limit.remaining,
        total: limit.total,
        resetAfterMs: limit.reset_after,
      },
      `helper bot ${this.index} has little of its daily logins left: it waits for Discord's reset`,
    );
    this.#later(limit.reset_after);
    return false;
  }

  /** Its seats in these servers are gone: what they were saying ends, and its members are told why. */
  #seatsGone(guildIds: readonly string[]): void {
    for (const guildId of guildIds) {
      const player = this.players.find(guildId);
      player?.end(() => true, new UserError('error.voice.seatLost'));
      player?.leave('seat-lost');
    }
  }

  #refused(): void {
    this.#state = 'refused';
    this.#log.error(
      { code: 'helper-token-refused' },
      `Discord refused helper bot ${this.index}'s token (4004): it is left out until its token in HELPER_BOT_TOKENS is fixed and SayBot restarted`,
    );
  }

  /** Tries again after a wait that doubles with each failure in a row. */
  #later(waitMs?: number): void {
    if (this.#stopped) return;
    const wait = waitMs ?? Math.min(LOGIN_RETRY_MS * 2 ** this.#failures, LOGIN_RETRY_MAX_MS);
    this.#failures += 1;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.login(), wait);
    this.#retry.unref();
  }

  #newClient(): Client {
    const client = new Client({
      intents: [...BASE_INTENTS],
      allowedMentions: NO_MENTIONS,
      ...boundedClientOptions(this.#options.apiBaseUrl),
    });
    client.on(Events.Error, (error) => this.#log.warn({ err: error }, 'helper bot client error'));
    // Its own voice state as its own cache has it (the gate reads that): the main bot sees it too, and does the rest.
    client.on(Events.VoiceStateUpdate, (_before, after) => {
      if (after.id === client.user?.id) this.#options.rightsChanged(after.guild.id);
    });
    // Removed from a server: its seat there is gone, what it was saying there is cut off by its player.
    client.on(Events.GuildDelete, (guild) => {
      this.#log.warn(
        { code: 'helper-removed', guildId: guild.id },
        `helper bot ${this.index} was removed from a server`,
      );
      this.#seatsGone([guild.id]);
    });
    client.on(Events.ShardDisconnect, (event) => {
      if (this.#client !== client || this.#stopped) return;
      const final = FINAL_CLOSES.has(event.code);
      this.#log.error(
        { code: 'helper-gateway-lost', closeCode: event.code, closeName: GatewayCloseCodes[event.code], final },
        final
          ? `helper bot ${this.index}: ${finalCloseWords(event.code)}; its seats are gone`
          : `helper bot ${this.index} lost its gateway (${event.code}): its seats are gone until it logs in again`,
      );
      this.#seatsGone([...client.guilds.cache.keys()]);
      this.#client = undefined;
      this.#state = 'offline';
      this.players.destroyAll();
      void this.#release(client);
      if (event.code === GatewayCloseCodes.AuthenticationFailed) this.#refused();
      else if (final) [this.#state, this.#closeCode] = ['closed', event.code];
      else this.#later();
    });
    return client;
  }
}

/** discord.js's rejection of a token Discord refused (4004, or 401 on REST). */
function isTokenRefused(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown; status?: unknown }).code;
  const status = (error as { status?: unknown }).status;
  return code === 'TokenInvalid' || status === 401 || code === GatewayCloseCodes.AuthenticationFailed;
}

/** Every helper, logged in one after another (each token's identifies its own, never all at once). */
export class HelperBots {
  readonly bots: readonly HelperBot[];

  constructor(bots: readonly HelperBot[]) {
    this.bots = bots;
  }

  /**
   * One attempt each, in order; those that fail try again by themselves. Waited for `withinMs` at most (SayBot's start,
   * and a shard's ready the manager waits for, never wait on a slow helper): the rest go on logging in meanwhile.
   */
  async start(withinMs = HELPERS_START_WAIT_MS): Promise<void> {
    const all = (async () => {
      for (const bot of this.bots) await bot.login();
    })();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
    await Promise.race([all, bound]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    await Promise.all(this.bots.map((bot) => bot.stop()));
  }

  /** Each helper as the owner console shows it: its name, never its token. */
  status(): HelperStatus[] {
    return this.bots.map((bot) => ({
      index: bot.index,
      name: bot.name(),
      state: bot.state,
      servers: bot.guildIds().length,
      inVoice: bot.players.connectedCount,
      ...(bot.closeCode === undefined ? {} : { closeCode: bot.closeCode }),
    }));
  }
}
