import { randomUUID } from 'node:crypto';
import { Client, Events, GatewayCloseCodes, MessageFlags, Options, ShardClientUtil, type GatewayIntentBits, type Interaction, type VoiceState } from 'discord.js';
import type { VoiceApiClient } from '../api/client.ts';
import type { Config } from '../config.ts';
import { AudioCache } from '../cache/audio-cache.ts';
import { ReplyAudioRegistry } from './reply-audio.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Accounting } from '../quota/accounting.ts';
import { PartSource } from '../speech/part-source.ts';
import { SpeechPipeline } from '../speech/pipeline.ts';
import type { Store } from '../store/types.ts';
import { catalogueVoices } from '../voices/catalogue.ts';
import { RemovedGuilds } from '../privacy/removed-guilds.ts';
import { PlayerRegistry } from '../voice/player-registry.ts';
import { AutoreadWiring } from './autoread-wiring.ts';
import type { AnyCommandModule, CommandContext } from './command.ts';
import { loadCommands } from './command-loader.ts';
import { t } from './i18n.ts';
import { handleInteraction } from './interactions.ts';
import { AUTOREAD_INTENTS, BASE_INTENTS, loginWithIntentFallback } from './intents.ts';
import { NO_MENTIONS } from './replies.ts';

export interface SayBotOptions {
  config: Config;
  logger: Logger;
  voiceApi: VoiceApiClient;
  /** The bot owns it from here: stop() closes it, after the last running command is done with it. */
  store: Store;
  commands?: Map<string, AnyCommandModule>;
  /** How long to wait for Discord to say the bot is ready. */
  readyTimeoutMs?: number;
  /** The clock budgets and the monthly quota follow (tests move it past a reset date). */
  now?: () => Date;
  /** Download each audio response in full before playing it (PartSourceOptions.bufferResponses): benchmarks' baseline. */
  bufferResponses?: boolean;
  /** The operator's counters (commands, characters, cache lookups); absent when no metrics are served. */
  metrics?: Pick<Metrics, 'command' | 'characters' | 'cacheLookup' | 'timeToFirstAudio'>;
}

/** The running bot: one Discord client, one player per guild, one speech pipeline over the shared API client. */
export class SayBot {
  #client: Client;
  #autoreadAvailable = false;
  readonly players: PlayerRegistry;
  readonly #log: Logger;
  readonly #context: CommandContext;
  readonly #store: Store;
  readonly #speech: SpeechPipeline;
  readonly #accounting: Accounting;
  readonly #cache: AudioCache;
  readonly #autoread: AutoreadWiring;
  readonly #removedGuilds: RemovedGuilds;
  readonly #commands: Map<string, AnyCommandModule>;
  readonly #inFlight = new Set<Promise<void>>();
  #stopping = false;

  private constructor(options: SayBotOptions, commands: Map<string, AnyCommandModule>, cache: AudioCache) {
    const { config, logger } = options;
    this.#log = logger;
    this.#commands = commands;
    this.#store = options.store;
    this.#cache = cache;
    this.players = new PlayerRegistry({
      logger,
      idleTimeoutMs: config.voiceIdleTimeoutMs,
      group: `saybot-${randomUUID()}`,
      // Silence between chat messages is not idleness: a guild being read keeps the bot in its channel.
      keepConnected: (guildId) => this.#autoread.isReading(guildId),
    });
    const accounting = new Accounting({
      store: options.store,
      budgets: config.budgets,
      planCharacterLimit: config.planCharacterLimit,
      account: { fingerprint: options.voiceApi.keyFingerprint, plan: config.plan },
      storeDeadlineMs: config.storeTimeouts.deadlineMs,
      logger,
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    });
    this.#accounting = accounting;
    const source = new PartSource({
      client: options.voiceApi, logger, cache, accounting,
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.bufferResponses === undefined ? {} : { bufferResponses: options.bufferResponses }),
    });
    this.#speech = new SpeechPipeline({
      source, accounting, players: this.players, logger, maxCharsPerRequest: config.maxCharsPerRequest, queue: config.queue,
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    });
    this.#autoread = new AutoreadWiring({
      store: options.store, speech: this.#speech, players: this.players, logger, available: () => this.#autoreadAvailable,
      backlog: { messages: config.queue.guildClips, seconds: config.queue.guildSeconds },
    });
    this.#removedGuilds = new RemovedGuilds({
      store: options.store, purgeVoice: (voiceId) => this.#speech.purgeVoice(voiceId), graceMs: config.removedGuildGraceMs, logger,
      present: (guildId) => this.#client.guilds.cache.has(guildId),
      ours: (guildId) => config.shard === undefined || ShardClientUtil.shardIdForGuildId(guildId, config.shard.count) === config.shard.id,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    this.#client = this.#newClient(config, [...BASE_INTENTS, ...AUTOREAD_INTENTS]);
    this.#context = {
      speech: this.#speech,
      autoread: this.#autoread,
      accounting,
      players: this.players,
      logger,
      settings: { maxCharsPerRequest: config.maxCharsPerRequest, clipDownload: config.clipDownload, queue: config.queue, userInstall: config.userInstall },
      replyAudio: new ReplyAudioRegistry(),
      store: options.store,
      voices: catalogueVoices(config.extraVoices),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    };
  }

  get client(): Client {
    return this.#client;
  }

  /** Discord gave the intents auto-read needs (Message Content): /autoread start says why it cannot read otherwise. */
  get autoreadAvailable(): boolean {
    return this.#autoreadAvailable;
  }

  /** A client with these intents and every listener: made again without auto-read's when Discord refuses them. */
  #newClient(config: Config, intents: readonly GatewayIntentBits[]): Client {
    const logger = this.#log;
    const client = new Client({
      intents: [...intents],
      allowedMentions: NO_MENTIONS,
      // Nothing reads a channel's message cache (auto-read takes each message from its event, Speak from the
      // interaction), and discord.js's default keeps 200 per channel: every reply SayBot posts, for ever, per channel.
      makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }),
      ...(config.discord.apiBaseUrl === undefined ? {} : { rest: { api: config.discord.apiBaseUrl } }),
    });
    client.on(Events.InteractionCreate, (interaction) => this.#onInteraction(interaction));
    client.on(Events.VoiceStateUpdate, (before, after) => this.#onVoiceState(before, after));
    // discord.js emits GuildDelete only for a GUILD_DELETE without `unavailable` (an outage is GuildUnavailable).
    client.on(Events.GuildDelete, (guild) => this.#track(this.#removedGuilds.removed(guild.id), 'recording a removal from a server failed'));
    client.on(Events.GuildCreate, (guild) => this.#track(this.#removedGuilds.present(guild.id), 'cancelling a removal from a server failed'));
    this.#autoread.attach(client);
    client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
    client.on(Events.Warn, (message) => logger.warn({ detail: message }, 'discord client warning'));
    client.on(Events.ShardDisconnect, (event, shardId) => {
      // 4014 (Message Content not enabled) is said once, with what to do, by src/bot/intents.ts.
      if (event.code !== GatewayCloseCodes.DisallowedIntents) logger.warn({ code: event.code, shardId }, 'gateway disconnected');
    });
    // Drops, op 7 and op 9 are survived (voice connections and queues are not the gateway's): one line each, no more.
    client.on(Events.ShardReconnecting, (shardId) => logger.warn({ code: 'gateway-reconnecting', shardId }, 'gateway connection lost: reconnecting'));
    client.on(Events.ShardResume, (shardId, replayed) => logger.info({ code: 'gateway-resumed', shardId, replayed }, 'gateway session resumed'));
    return client;
  }

  /** Bytes in the audio cache now (the operator's gauge). */
  get cacheBytes(): number {
    return this.#cache.size.bytes;
  }

  static async start(options: SayBotOptions): Promise<SayBot> {
    const commands = options.commands ?? (await loadCommands());
    let cache: AudioCache;
    try {
      cache = await AudioCache.open({ ...options.config.cache, logger: options.logger });
    } catch (error) {
      await options.store.close();
      throw error;
    }
    const bot = new SayBot(options, commands, cache);
    try {
      // Auto-read's intents first; without Message Content (4014) a fresh client without them (src/bot/intents.ts).
      let first = true;
      const login = await loginWithIntentFallback({
        makeClient: (intents) => {
          if (!first) bot.#client = bot.#newClient(options.config, intents);
          first = false;
          return bot.#client;
        },
        token: options.config.discord.token,
        logger: options.logger,
        readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
      });
      bot.#autoreadAvailable = login.autoreadAvailable;
      await bot.#autoread.restore();
      // Servers added back while SayBot was down are in the cache now: the sweep keeps their data.
      await bot.#removedGuilds.start();
    } catch (error) {
      await options.store.close();
      throw error;
    }
    options.logger.info(
      { user: bot.client.user?.tag, guilds: bot.client.guilds.cache.size, commands: [...commands.keys()] },
      'SayBot is ready',
    );
    return bot;
  }

  #onInteraction(interaction: Interaction): void {
    if (this.#stopping) {
      if (interaction.isRepliable()) {
        void interaction
          .reply({ content: t(interaction.locale, 'error.shuttingDown'), flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS })
          .catch(() => undefined);
      }
      return;
    }
    const task = handleInteraction(interaction, this.#commands, this.#context).catch((error: unknown) =>
      this.#log.error({ err: error }, 'interaction handler failed'),
    );
    this.#inFlight.add(task);
    void task.finally(() => this.#inFlight.delete(task));
  }

  /** Runs store work from an event like a command: stop() waits for it before closing the store. */
  #track(work: Promise<void>, failure: string): void {
    const task = work.catch((error: unknown) => this.#log.error({ err: error }, failure));
    this.#inFlight.add(task);
    void task.finally(() => this.#inFlight.delete(task));
  }

  /** Leaves a channel once no human is left in it. */
  #onVoiceState(before: VoiceState, after: VoiceState): void {
    const player = this.players.find(before.guild.id);
    const channelId = player?.channelId;
    if (!player || channelId === undefined) return;
    if (before.channelId !== channelId && after.channelId !== channelId) return;
    const channel = before.guild.channels.cache.get(channelId);
    if (!channel?.isVoiceBased()) return;
    const humans = channel.members.filter((m) => !m.user.bot).size;
    if (humans === 0) player.leave('alone');
  }

  /** Stops taking commands, leaves every voice channel, lets running handlers finish, logs out, closes the store. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#log.info({ inFlight: this.#inFlight.size }, 'shutting down');
    // Before the players leave voice: leaving at shutdown is not auto-read stopping, the bindings are resumed next start.
    await this.#autoread.close();
    this.players.destroyAll();
    const drained = Promise.allSettled([...this.#inFlight]);
    await Promise.race([drained, new Promise((r) => setTimeout(r, 5_000).unref())]);
    // Fetches still running for the cache are abandoned; spends and cache files under way are finished first.
    await this.#removedGuilds.close();
    await this.#speech.close();
    await this.client.destroy();
    // No hold renewal may reach a closed store; holds still live then expire (BUDGET_HOLD_TTL_MS), as after a crash.
    this.#accounting.close();
    await this.#store.close();
  }
}
