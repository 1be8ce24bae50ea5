// The running bot's Discord side: one client, its events and commands, over the core start-saybot.ts assembled.
import { catalogueVoices } from '../core/voice-catalogue/voices.ts';
import type { EnginePort } from '../core/sourcing/engine-port.ts';
import type { FreeVoiceRules } from '../core/free-voice/free-voice-engine.ts';
import {
  Client,
  Events,
  GatewayCloseCodes,
  Options,
  REST,
  ShardClientUtil,
  type ClientOptions,
  type GatewayIntentBits,
  type InternalRequest,
  type VoiceState,
} from 'discord.js';
import type { Config } from '../core/config.ts';
import type { AudioCache } from '../core/cache/audio-cache.ts';
import { FileShares, ReplyAudioRegistry, handleReplyButton } from '../features/speaking/index.ts';
import { describeFailure } from '../features/speaking/index-words.ts';
import type { Logger } from '../core/log.ts';
import type { Metrics } from '../core/metrics/metrics.ts';
import type { Accounting } from '../core/quota/accounting.ts';
import type { SpeechPipeline } from '../core/order/pipeline.ts';
import type { Store } from '../core/store/types.ts';
import { ForgetNotices, RemovedGuilds } from '../features/privacy/index.ts';
import type { PlayerRegistry, Seats } from '../core/voice/seats.ts';
import type { HelperStatus } from '../features/dashboard/index.ts';
import { AUTOREAD_INTENTS, AutoreadWiring } from '../features/autoread/index.ts';
import type { AnyCommandModule, CommandContext } from '../core/interactions/command.ts';
import { handleInteraction, type Door } from '../core/interactions/router.ts';
import { BASE_INTENTS, loginWithIntentFallback } from './intents.ts';
import { NO_MENTIONS } from '../core/interactions/replies.ts';
import type { AllowedGuilds } from './allowed-guilds.ts';
import { OwnerApplication } from './owner-application.ts';

/** The core the Discord side runs on, made by src/app/start-saybot.ts (the one place the app is assembled). */
export interface SayBotCore {
  /** The bot owns these from here: stop() closes them, after the last running command is done with them. */
  store: Store;
  speech: SpeechPipeline;
  accounting: Accounting;
  /** Every bot's seats: the main bot's and the helpers' (HELPER_BOT_TOKENS). */
  seats: Seats;
  /** The helper bots (src/app/helper-bots.ts), logged in after the main bot; the bot stops them. */
  helpers: { start(): Promise<void>; stop(): Promise<void>; status(): HelperStatus[] };
  cache: AudioCache;
  /** The owner's speech engines (VOICEVOX_URL, SPEECH_SERVER_URL); absent: none set. */
  engines?: { port: EnginePort; close(): Promise<void> } | undefined;
  freeVoice: FreeVoiceRules;
}

export interface SayBotOptions {
  config: Config;
  logger: Logger;
  core: SayBotCore;
  commands: Map<string, AnyCommandModule>;
  readyTimeoutMs?: number | undefined;
  /** The clock the removal sweep follows (tests move it). */
  now?: (() => Date) | undefined;
  /** The operator's counters (commands); absent when no metrics are served. */
  metrics?: Pick<Metrics, 'command'> | undefined;
  /** ALLOWED_GUILDS, made before the core (whose pipeline asks it whether a server is served). */
  allowedGuilds: AllowedGuilds;
  /** A gateway close discord.js never comes back from: src/bin/start.ts exits so the supervisor restarts SayBot. */
  onGatewayLost?: ((code: number) => void) | undefined;
}

export class SayBot {
  #client: Client;
  /** Stops the sweep of the current client's idle REST handlers (one per interaction token). */
  #stopRestSweep: (() => void) | undefined;
  #interactionRest: REST | undefined;
  #autoreadAvailable = false;
  readonly seats: Seats;
  /** This bot's files and voice messages under way (src/features/speaking/file-shares.ts): its own, not the process's. */
  readonly fileShares = new FileShares();
  readonly #log: Logger;
  readonly #context: CommandContext;
  readonly #speech: SpeechPipeline;
  readonly #autoread: AutoreadWiring;
  readonly #removedGuilds: RemovedGuilds;
  /** Deletions `npm run forget` made while this bot runs: read from the store, applied to what it holds in memory. */
  readonly forgetNotices: ForgetNotices;
  /** ALLOWED_GUILDS: servers off the list are left and refused. */
  readonly #allowedGuilds: AllowedGuilds;
  readonly #application: OwnerApplication;
  /** What the door is handed with each interaction, as data (src/core/interactions/router.ts decides). */
  readonly #door: Door;
  readonly #inFlight = new Set<Promise<void>>();
  #stopping = false;
  /** Logged in and ready: a gateway close from now on is no longer the login's to handle (src/app/intents.ts). */
  #ready = false;

  readonly #options: SayBotOptions;

  constructor(options: SayBotOptions) {
    this.#options = options;
    const { config, logger, core } = options;
    this.#log = logger;
    this.seats = core.seats;
    this.#speech = core.speech;
    const accounting = core.accounting;
    this.#allowedGuilds = options.allowedGuilds;
    this.#application = new OwnerApplication(config.ownerIds);
    this.#autoread = new AutoreadWiring({
      serves: (guildId) => options.allowedGuilds.allows(guildId),
      saving: { listed: catalogueVoices(config.extraVoices), engines: core.engines?.port, freeVoice: core.freeVoice },
      store: core.store,
      speech: this.#speech,
      seats: this.seats,
      logger,
      available: () => this.#autoreadAvailable,
      backlog: { messages: config.queue.guildClips, seconds: config.queue.guildSeconds },
    });
    this.#removedGuilds = new RemovedGuilds({
      store: core.store,
      purgeVoice: (voiceId) => this.#speech.purgeVoice(voiceId),
      graceMs: config.removedGuildGraceMs,
      logger,
      anonymiseRequests: (guildId) => accounting.anonymiseRequests(guildId),
      present: (guildId) => this.#client.guilds.cache.has(guildId),
      ours: (guildId) =>
        config.shard === undefined ||
        ShardClientUtil.shardIdForGuildId(guildId, config.shard.count) === config.shard.id,
      now: options.now,
    });
    this.forgetNotices = new ForgetNotices({
      store: core.store,
      logger,
      holds: {
        guilds: () => this.#client.guilds.cache.keys(),
        members: (guildId) => [...this.#autoread.membersHeld(guildId), ...accounting.requestingMembers(guildId)],
      },
      apply: (notice) => {
        if (notice.userId !== undefined) {
          accounting.anonymiseRequests(notice.guildId, notice.userId);
          this.#autoread.forgetMember(notice.userId, notice.guildId, 'operator');
        } else if (notice.guildId !== undefined) {
          accounting.anonymiseRequests(notice.guildId);
          // The server's auto-read binding went with its rows: its reading stops as well.
          this.#track(
            this.#autoread.stop(notice.guildId).then(() => undefined),
            'stopping a forgotten server failed',
          );
        }
      },
    });
    this.#client = this.#newClient(config, [...BASE_INTENTS, ...AUTOREAD_INTENTS]);
    this.#context = {
      speech: this.#speech,
      reading: this.#autoread.channels,
      autoread: this.#autoread,
      accounting,
      seats: this.seats,
      logger,
      config: {
        maxCharsPerRequest: config.maxCharsPerRequest,
        clipDownload: config.clipDownload,
        queue: config.queue,
        userInstall: config.userInstall,
        freeVoice: core.freeVoice,
      },
      replyAudio: new ReplyAudioRegistry(),
      fileShares: this.fileShares,
      store: core.store,
      voices: catalogueVoices(config.extraVoices),
      engines: core.engines?.port,
      metrics: options.metrics,
      isOperator: (userId) => this.#application.isOperator(userId),
    };
    const { commands, allowedGuilds } = options;
    this.#door = {
      commands,
      context: this.#context,
      chosen: allowedGuilds.chosen,
      describeFailure,
      otherButton: handleReplyButton,
    };
  }

  get client(): Client {
    return this.#client;
  }

  /** The main bot's players (its seats); the helpers' are in `seats`. */
  get players(): PlayerRegistry {
    return this.seats.main.players;
  }

  /** The REST client interactions' answers go through, apart from the bot's global limit (saybot.ts). */
  get interactionRest(): REST | undefined {
    return this.#interactionRest;
  }

  /** The bot's owner (the application's owner or its team's members): who sees the whole plan's figures. */
  isOperator(userId: string): boolean {
    return this.#application.isOperator(userId);
  }

  /** Public Bot as Discord says it now (the owner console); undefined when it could not be read. */
  publicBot(): Promise<boolean | undefined> {
    return this.#application.publicBot(this.#client);
  }

  /** Whether SayBot serves this server (AllowedGuilds.serves: on the list, and still in it). */
  serves(guildId: string): boolean {
    return this.#allowedGuilds.serves(guildId);
  }

  /** Whether the owner chose this server (ALLOWED_GUILDS), whichever shard holds it (the dashboard's question). */
  chosen(guildId: string): boolean {
    return this.#allowedGuilds.allows(guildId);
  }

  /** Discord gave the intents auto-read needs (Message Content): /autoread start says why it cannot read otherwise. */
  get autoreadAvailable(): boolean {
    return this.#autoreadAvailable;
  }

  /** A guild being read aloud: silence between chat messages is not idleness (PlayerRegistry stayConnected). */
  isReading(guildId: string): boolean {
    return this.#autoread.isReading(guildId);
  }

  /** Auto-read in this bot, for what changes it outside a command (the dashboard). */
  get autoread(): AutoreadWiring {
    return this.#autoread;
  }

  /** A client with these intents and every listener: made again without auto-read's when Discord refuses them. */
  #newClient(config: Config, intents: readonly GatewayIntentBits[]): Client {
    const logger = this.#log;
    const client = new Client({
      intents: [...intents],
      allowedMentions: NO_MENTIONS,
      ...boundedClientOptions(config.discord.apiBaseUrl),
    });
    this.#stopRestSweep?.();
    // Interactions' answers never wait behind the bot's global limit (saybot.ts), each client's handlers swept.
    const interactions = interactionRequestsApart(client.rest, config.discord.clientId);
    this.#interactionRest = interactions;
    const stopSweeps = [sweepIdleRestHandlers(client.rest), sweepIdleRestHandlers(interactions)];
    this.#stopRestSweep = () => {
      for (const stop of stopSweeps) stop();
      interactions.clearHandlerSweeper();
      interactions.clearHashSweeper();
    };
    client.on(Events.InteractionCreate, (interaction) =>
      this.#track(handleInteraction(interaction, this.#door, this.#stopping), 'interaction handler failed'),
    );
    client.on(Events.VoiceStateUpdate, (before, after) => this.#onVoiceState(before, after));
    watchRights(client, (guildId, userId) => this.#speech.rightsChanged(guildId, userId));
    // discord.js emits GuildDelete only for a GUILD_DELETE without `unavailable` (an outage is GuildUnavailable).
    client.on(Events.GuildDelete, (guild) =>
      this.#track(this.#removedGuilds.removed(guild.id), 'recording a removal from a server failed'),
    );
    client.on(Events.GuildCreate, (guild) =>
      this.#track(this.#removedGuilds.present(guild.id), 'cancelling a removal from a server failed'),
    );
    this.#autoread.attach(client);
    this.#allowedGuilds.watch(client);
    client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
    client.on(Events.Warn, (message) => logger.warn({ detail: message }, 'discord client warning'));
    // discord.js emits ShardDisconnect only for a close it does not come back from (4004, 4010 to 4014).
    client.on(Events.ShardDisconnect, (event, shardId) => {
      if (this.#ready && !this.#stopping) {
        logger.error(
          { code: 'gateway-lost', closeCode: event.code, closeName: GatewayCloseCodes[event.code], shardId },
          `Discord closed the gateway with ${event.code} (${GatewayCloseCodes[event.code] ?? 'unknown'}) and discord.js does not reconnect after it: exiting so that the supervisor starts SayBot again`,
        );
        this.#options.onGatewayLost?.(event.code);
        return;
      }
      // 4014 (Message Content not enabled) is said once, with what to do, by src/app/intents.ts.
      if (event.code !== GatewayCloseCodes.DisallowedIntents)
        logger.warn({ code: event.code, shardId }, 'gateway disconnected');
    });
    // Drops, op 7 and op 9 are survived: one line each. Our own close (stop()) also says "reconnecting": no incident.
    client.on(Events.ShardReconnecting, (shardId) => {
      if (!this.#stopping)
        logger.warn({ code: 'gateway-reconnecting', shardId }, 'gateway connection lost: reconnecting');
    });
    client.on(Events.ShardResume, (shardId, replayed) =>
      logger.info({ code: 'gateway-resumed', shardId, replayed }, 'gateway session resumed'),
    );
    return client;
  }

  /** Bytes in the audio cache now (the operator's gauge). */
  get cacheBytes(): number {
    return this.#options.core.cache.size.bytes;
  }

  /** Logs in to Discord, resumes auto-read's bindings and starts the removal sweep; a failure closes the store. */
  async start(): Promise<void> {
    const options = this.#options;
    const { commands } = options;
    try {
      // Auto-read's intents first; without Message Content (4014) a fresh client without them (src/app/intents.ts).
      let first = true;
      const login = await loginWithIntentFallback({
        makeClient: (intents) => {
          if (!first) this.#client = this.#newClient(options.config, intents);
          first = false;
          return this.#client;
        },
        token: options.config.discord.token,
        logger: options.logger,
        readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
      });
      this.#autoreadAvailable = login.autoreadAvailable;
      // One after another, after the main bot: a helper that fails is left out and tries again by itself.
      await options.core.helpers.start();
      await this.#application.read(this.#client, this.#allowedGuilds.chosen !== undefined, options.logger);
      await this.#autoread.restore();
      // Servers added back while SayBot was down are in the cache now: the sweep keeps their data.
      await this.#removedGuilds.start();
      await this.forgetNotices.start();
    } catch (error) {
      await options.core.store.close();
      throw error;
    }
    this.#ready = true;
    options.logger.info(
      { user: this.client.user?.tag, guilds: this.client.guilds.cache.size, commands: [...commands.keys()] },
      'SayBot is ready',
    );
  }

  /** Runs store work from an event like a command: stop() waits for it before closing the store. */
  #track(work: Promise<void>, failure: string): void {
    const task = work.catch((error: unknown) => this.#log.error({ err: error }, failure));
    this.#inFlight.add(task);
    void task.finally(() => this.#inFlight.delete(task));
  }

  /** Each seat leaves its channel once no human is left in it (or is moved where none is); one sent to a Stage's audience speaks again. */
  #onVoiceState(before: VoiceState, after: VoiceState): void {
    for (const bot of this.seats.bots) {
      const player = bot.players.find(before.guild.id);
      if (after.id === bot.userId() && after.suppress === true && before.suppress !== true) player?.sentToAudience();
      // Moved by a moderator: the seat is where Discord says, and a line nobody can hear there ends.
      if (after.id === bot.userId() && after.channelId !== null && player?.channelId !== undefined) {
        const there =
          after.channel?.isVoiceBased() === true ? after.channel.members.filter((m) => !m.user.bot).size : 0;
        if (after.channelId !== player.channelId) player.movedTo(after.channelId, there > 0);
      }
      const channelId = player?.channelId;
      if (!player || channelId === undefined) continue;
      if (before.channelId !== channelId && after.channelId !== channelId) continue;
      const channel = before.guild.channels.cache.get(channelId);
      if (!channel?.isVoiceBased()) continue;
      const humans = channel.members.filter((m) => !m.user.bot).size;
      if (humans === 0) player.leave('alone');
    }
  }

  /** Stops taking commands, leaves every voice channel, lets running handlers finish, logs out, closes the store. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#log.info({ inFlight: this.#inFlight.size }, 'shutting down');
    // Before the players leave voice: leaving at shutdown is not auto-read stopping; bindings resume next start.
    await this.#autoread.close();
    this.seats.destroyAll();
    const drained = Promise.allSettled([...this.#inFlight]);
    await Promise.race([drained, new Promise((r) => setTimeout(r, 5_000).unref())]);
    // Fetches still running for the cache are abandoned; spends and cache files under way are finished first.
    await this.#removedGuilds.close();
    await this.forgetNotices.close();
    await this.#speech.close();
    await this.#options.core.engines?.close();
    await this.client.destroy();
    await this.#options.core.helpers.stop();
    this.#stopRestSweep?.();
    // No hold renewal may reach a closed store; holds still live then expire (BUDGET_HOLD_TTL_MS), as after a crash;
    // what the store refused is written once more before it closes.
    await this.#options.core.accounting.close();
    await this.#options.core.store.close();
  }
}

// What the discord.js client keeps, bounded: its defaults grow with every /say (docs/benchmarks.md, figure 4).
/** How often the request handlers with nothing to do are dropped (sweepIdleRestHandlers). */
export const REST_HANDLER_SWEEP_MS = 10_000;

/** The client's cache and REST options: no message cache. */
export function boundedClientOptions(apiBaseUrl: string | undefined): Pick<ClientOptions, 'makeCache' | 'rest'> {
  return {
    // Nothing reads a channel's message cache, and discord.js keeps 200 per channel by default, for ever.
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }),
    ...(apiBaseUrl === undefined ? {} : { rest: { api: apiBaseUrl } }),
  };
}

/**
 * Drops @discordjs/rest's idle handlers (one per interaction token, 1.1 KiB) every `intervalMs`: REST's own sweep
 * never runs while the global limit is used up, as a busy bot's always is. Returns the function that stops it.
 */
export function sweepIdleRestHandlers(rest: REST, intervalMs = REST_HANDLER_SWEEP_MS): () => void {
  let afterWindow: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    afterWindow = undefined;
    const untilReset = rest.globalRemaining <= 0 ? rest.globalReset - Date.now() : -1;
    if (untilReset >= 0) {
      afterWindow = setTimeout(sweep, untilReset + 1);
      afterWindow.unref();
      return;
    }
    rest.handlers.sweep((handler) => handler.inactive);
  };
  const timer = setInterval(() => {
    if (afterWindow === undefined) sweep();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(afterWindow);
  };
}

/**
 * Interaction requests through a REST client of their own: Discord does not count them against the global limit
 * (discord-api-docs #4416), but @discordjs/rest queued them behind it for tens of seconds (docs/benchmarks.md, 21).
 */
export function interactionRequestsApart(rest: REST, applicationId: string): REST {
  const apart = new REST({ ...rest.options, globalRequestsPerSecond: Number.POSITIVE_INFINITY });
  const interactionWebhook = `/webhooks/${applicationId}/`;
  const isInteractions = ({ fullRoute, auth }: InternalRequest): boolean =>
    auth === false &&
    (fullRoute.startsWith(interactionWebhook) ||
      (fullRoute.startsWith('/interactions/') && fullRoute.endsWith('/callback')));
  const own = rest.queueRequest.bind(rest);
  rest.queueRequest = (request) => (isInteractions(request) ? apart.queueRequest(request) : own(request));
  return apart;
}

/**
 * Discord's events that may take away a right speech in voice depends on: each asks the pipeline's one check again,
 * so what plays for a member who may no longer be heard stops at once. discord.js updates its caches first.
 */
function watchRights(client: Client, rightsChanged: (guildId: string, userId?: string) => void): void {
  // A moderator's server mute, a Stage speaker moved to the audience, a member moved or disconnected; SayBot's own
  // (muted, sent to the audience) reaches everyone it speaks for there.
  client.on(Events.VoiceStateUpdate, (_before, after) =>
    after.id === client.user?.id ? rightsChanged(after.guild.id) : rightsChanged(after.guild.id, after.id),
  );
  // A role given or taken (sent only with the Guild Members intent; harmless without it).
  client.on(Events.GuildMemberUpdate, (_before, after) => rightsChanged(after.guild.id, after.id));
  // A channel's permission overwrites (Speak denied to a member or a role): every member there.
  client.on(Events.ChannelUpdate, (_before, after) => {
    if (!after.isDMBased()) rightsChanged(after.guildId);
  });
  // A role's permissions changed or the role deleted: every member of the guild.
  client.on(Events.GuildRoleUpdate, (_before, after) => rightsChanged(after.guild.id));
  client.on(Events.GuildRoleDelete, (role) => rightsChanged(role.guild.id));
  // SayBot kicked or the server deleted (an outage is GuildUnavailable): it no longer serves that server.
  client.on(Events.GuildDelete, (guild) => rightsChanged(guild.id));
}
