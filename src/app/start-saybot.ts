import { Engines, type EnginesOptions } from '../core/engines/engines.ts';
import { randomUUID } from 'node:crypto';
import type { Client, Guild } from 'discord.js';
import { VoiceApiClient, type VoiceApiClientOptions } from '../core/api/client.ts';
import { SayBot, type SayBotCore } from './saybot.ts';
import { AllowedGuilds } from './allowed-guilds.ts';
import type { OpusSettings } from '../core/audio/codecs/opus-settings.ts';
import { OPUS_ENCODER_SETTINGS } from '../core/cache/audio-fill.ts';
import { AudioCache } from '../core/cache/audio-cache.ts';
import type { AnyCommandModule, ChannelReading } from '../core/interactions/command.ts';
import { loadCommandModules } from './command-modules.ts';
import { freeVoiceRules } from '../core/free-voice/free-voice-engine.ts';
import { monthOf } from '../core/calendar.ts';
import { loadFeatureStrings } from './feature-strings.ts';
import { deployCommands } from '../core/interactions/deploy.ts';
import { configSecrets, describeDatabase, type Config } from '../core/config.ts';
import { asDiscordUnreachable } from './discord-unreachable.ts';
import { createLogger, type Logger } from '../core/log.ts';
import { Metrics } from '../core/metrics/metrics.ts';
import { Accounting } from '../core/quota/accounting.ts';
import { MONEY_RULES } from '../core/quota/money.ts';
import { startMetricsServer, type MetricsServer } from '../core/metrics/server.ts';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { ESPEAK_CHOICE, type StandInVoices } from '../core/sourcing/stand-in.ts';
import { PartSource } from '../core/sourcing/part-source.ts';
import { SpeechPipeline } from '../core/order/pipeline.ts';
import { openStore } from './store.ts';
import { startDashboard, type RunningDashboard } from '../features/dashboard/index.ts';
import { gatePort } from '../features/speaking/index.ts';
import { dashboardBot, discordCdnOf } from './dashboard-bot.ts';
import type { Store } from '../core/store/types.ts';
import { PlayerRegistry, Seats, type SeatBot } from '../core/voice/seats.ts';
import { HelperBot, HelperBots } from './helper-bots.ts';
import type { PacketSender } from '../core/voice/packet-sender.ts';

const DISCORD_API_URL = 'https://discord.com/api';

export interface RunningSayBot {
  bot: SayBot;
  /** The web dashboard, when DASHBOARD_URL turned it on. */
  dashboard?: RunningDashboard | undefined;
  config: Config;
  logger: Logger;
  stop(): Promise<void>;
}

/** How a part's audio becomes Opus packets and how they go out: fixed for the process's life. */
export interface VoicePlaneOptions {
  /** The Opus encoder and where WAV/MP3 are decoded (src/core/audio/codecs/opus-settings.ts). */
  encoding: Readonly<OpusSettings>;
  /** SayBot's sender thread when undefined; a benchmark's own sender to compare with (bench/senders/). */
  sender?: (() => PacketSender) | undefined;
  /** The sender thread's start lead (src/core/voice/sender/worker-clip.ts; default on): off only to measure without it. */
  startLead?: boolean;
}

/** Production's voice plane. */
export const VOICE_PLANE: Readonly<VoicePlaneOptions> = { encoding: OPUS_ENCODER_SETTINGS };

/** What tests and benchmarks may change about start-up; `npm start` passes none of these. */
export interface StartSeams {
  /** Where the JSON log lines go (default stdout). */
  logDestination?: NodeJS.WritableStream;
  /** The clock budgets and the monthly quota follow. */
  now?: () => Date;
  /** The dashboard's clock: sessions, its rate limits and how long a member's view is trusted (tests move it). */
  dashboardNow?: () => number;
  readyTimeoutMs?: number;
  /** How long a voice connection may take to be ready (default the player's, 15 s), e.g. longer on a busy test host. */
  voiceReadyTimeoutMs?: number;
  /** Wraps the shared Voice API client, e.g. the benchmarks' baseline that reads each response whole first. */
  wrapVoiceApiClient?: (client: VoiceApiClient) => VoiceApiClient;
  /** Retry delays and timeouts of the Voice API client, e.g. shorter in tests. */
  voiceApiClient?: Pick<VoiceApiClientOptions, 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'timeouts' | 'maxRetries'>;
  /** The owner's engines' deadlines, e.g. shorter in tests. */
  engines?: Pick<EnginesOptions, 'deadlines'>;
  /** Wraps the opened store, e.g. one that fails writes or answers slowly in a test. */
  wrapStore?: (store: Store) => Store;
  /** The command modules registered and routed (default loadCommandModules()). */
  commands?: Map<string, AnyCommandModule>;
  /** The encoder and the sender (default VOICE_PLANE), e.g. the benchmarks' baseline bot with the library's player. */
  voicePlane?: VoicePlaneOptions;
  /** A gateway close discord.js does not come back from: src/bin/start.ts ends the process; a test may note it. */
  onGatewayLost?: (code: number) => void;
}

/**
 * Wires and starts the bot, the one way production and the end-to-end tests do it; an unreachable Discord ends in a
 * one-line DiscordUnreachableError.
 */
export async function startSayBot(config: Config, seams: StartSeams = {}): Promise<RunningSayBot> {
  const root = createLogger({
    level: config.logLevel,
    secrets: configSecrets(config),
    destination: seams.logDestination,
  });
  // A shard process (src/app/shard/) names its shard on every line: the manager's output interleaves them.
  const logger = config.shard === undefined ? root : root.child({ shard: config.shard.id });

  // Crashes in one guild's work must not take every guild down: log, and keep serving.
  const onRejection = (reason: unknown) => logger.error({ err: reason }, 'unhandled promise rejection');
  process.on('unhandledRejection', onRejection);

  let sandbox: Sandbox | undefined;
  let api = config.voiceApi;
  if (api === undefined) {
    sandbox = await startSandbox();
    api = { baseUrl: sandbox.url, apiKey: sandbox.testKey };
    logger.warn(
      { url: sandbox.url },
      'VOICE_API_BASE_URL and VOICE_API_KEY are not set: using the built-in sandbox (test tones, not real speech)',
    );
  }
  let started: SayBot | undefined;
  /** The channels auto-read reads aloud: one map for the bot's life, looked up by a /say without crossing auto-read. */
  let reading: ChannelReading | undefined;
  // Made before the parts that report to it; its gauges read the bot when scraped, once there is one.
  const metrics =
    config.metricsPort === undefined
      ? undefined
      : new Metrics({
          activeVoiceConnections: () => started?.seats.connectedCount ?? 0,
          queueLengths: () => started?.seats.queuedCount ?? 0,
          cacheSizeBytes: () => started?.cacheBytes ?? 0,
          seats: () =>
            started?.seats.bots.map((bot) => ({
              connections: bot.players.connectedCount,
              queued: bot.players.queuedCount,
            })) ?? [],
        });
  const clientSeams = seams.voiceApiClient ?? {};
  const ownClient = new VoiceApiClient({
    ...api,
    logger,
    metrics,
    ...clientSeams,
    timeouts: { totalMs: config.voiceApiTimeoutMs, ...clientSeams.timeouts },
    audioLimits: config.voiceApiAudioLimits,
  });
  const voiceApi = seams.wrapVoiceApiClient ? seams.wrapVoiceApiClient(ownClient) : ownClient;

  const discordUrl = config.discord.apiBaseUrl ?? DISCORD_API_URL;
  let bot: SayBot;
  let metricsServer: MetricsServer | undefined;
  let dashboard: RunningDashboard | undefined;
  try {
    await loadFeatureStrings();
    const commands = seams.commands ?? (await loadCommandModules());
    // Checked before Discord hears of this start: a volume mounted wrong ends it in one line, before any login.
    const opened = await openStore(config.database, config.storeTimeouts);
    const store = seams.wrapStore ? seams.wrapStore(opened) : opened;
    logger.info({ database: describeDatabase(config.database) }, 'store open');
    const allowedGuilds = new AllowedGuilds(config.allowedGuilds, logger, config.allowedGuildsLeave);
    let core: SayBotCore;
    try {
      core = await assembleCore(
        config,
        logger,
        voiceApi,
        store,
        seams,
        metrics,
        (guildId) => started?.isReading(guildId) ?? false,
        {
          guild: (guildId) => started?.client.guilds.cache.get(guildId),
          userId: () => started?.client.user?.id,
          kept: (guildId, channelId) => reading?.get(guildId)?.has(channelId) === true,
          releasing: async (client) => started?.autoread.releaseClient(client),
        },
        (guildId) => allowedGuilds.inServer(guildId),
      );
      if (metrics !== undefined && config.metricsPort !== undefined) {
        // Served from before the gateway connects, so a health check sees 'connecting' rather than nothing.
        metricsServer = await startMetricsServer({
          metrics,
          port: config.metricsPort,
          health: async () => ({
            gateway: started?.client.isReady() ? 'ready' : 'connecting',
            store: await store.quota.get().then(
              () => 'ok' as const,
              () => 'failing' as const,
            ),
          }),
        });
        logger.info({ url: metricsServer.url }, 'metrics and health served');
      }
      await registerCommands(config, commands.values(), logger).catch((error: unknown) => {
        const unreachable = asDiscordUnreachable(error, discordUrl);
        if (unreachable !== error) throw unreachable;
        // e.g. 401 for a wrong token: one line naming the step, never the token (src/bin/start.ts redacts it too).
        throw new Error(
          `Could not register the slash commands with Discord: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      });
    } catch (error) {
      await store.close();
      throw error;
    }
    bot = new SayBot({
      config,
      logger,
      core,
      commands,
      metrics,
      readyTimeoutMs: seams.readyTimeoutMs,
      now: seams.now,
      allowedGuilds,
      onGatewayLost: seams.onGatewayLost,
    });
    // Before logging in: auto-read's restored guilds keep their players (stayConnected) and the gauges read it.
    started = bot;
    reading = bot.autoread.channels;
    await bot.start().catch((error: unknown) => {
      throw asDiscordUnreachable(error, discordUrl);
    });
    // One process serves it: the only one, or shard 0 (the store is shared; see the dashboard's notes in README.md).
    if (config.dashboard !== undefined && (config.shard === undefined || config.shard.id === 0)) {
      const ready = bot;
      const { loginsPerMinute, ...served } = config.dashboard;
      dashboard = await startDashboard({
        settings: {
          ...served,
          clientId: config.discord.clientId,
          discordApi: config.discord.apiBaseUrl ?? DISCORD_API_URL,
          discordCdn: discordCdnOf(config),
        },
        store: core.store,
        bot: dashboardBot(ready, core, config, logger, seams.dashboardNow, {
          keyState: () => ownClient.keyState,
          sandbox: sandbox !== undefined,
        }),
        logger: logger.child({ part: 'dashboard' }),
        ...(loginsPerMinute === undefined ? {} : { limits: { loginsPerMinute } }),
        ...(seams.dashboardNow === undefined ? {} : { now: seams.dashboardNow }),
      }).catch(async (error: unknown) => {
        await ready.stop();
        throw error;
      });
    }
  } catch (error) {
    await metricsServer?.close();
    await voiceApi.close();
    await sandbox?.close();
    process.off('unhandledRejection', onRejection);
    throw error;
  }
  return {
    bot,
    dashboard,
    config,
    logger,
    async stop() {
      await dashboard?.close();
      await metricsServer?.close();
      await bot.stop();
      await voiceApi.close();
      await sandbox?.close();
      process.off('unhandledRejection', onRejection);
      logger.info('stopped');
    },
  };
}

/** The core the commands and auto-read speak through: the audio cache, accounting, part source, pipeline, players. */
async function assembleCore(
  config: Config,
  logger: Logger,
  voiceApi: VoiceApiClient,
  store: Store,
  seams: StartSeams,
  metrics: Metrics | undefined,
  isReading: (guildId: string) => boolean,
  /** The main bot as it is once logged in: its servers, its user, the voice channels auto-read keeps it in. */
  main: Pick<SeatBot, 'guild' | 'userId'> & {
    kept: (guildId: string, channelId: string) => boolean;
    /** A helper's client about to be destroyed: auto-read clears the statuses it set through it first. */
    releasing: (client: Client) => Promise<void>;
  },
  /** Whether SayBot is still in the server (kicked, or the server deleted): asked before each part of accepted speech. */
  inServer: (guildId: string) => boolean,
): Promise<SayBotCore> {
  const cache = await AudioCache.open({ ...config.cache, logger });
  const { encoding, sender, startLead } = seams.voicePlane ?? VOICE_PLANE;
  // One voice group per bot: @discordjs/voice keeps one connection per (group, server).
  const group = `saybot-${randomUUID()}`;
  const playersOf = (index: number, guild: (guildId: string) => Guild | undefined) =>
    new PlayerRegistry({
      sender,
      startLead,
      logger: index === 0 ? logger : logger.child({ helper: index }),
      idleTimeoutMs: config.voiceIdleTimeoutMs,
      ...(seams.voiceReadyTimeoutMs === undefined ? {} : { readyTimeoutMs: seams.voiceReadyTimeoutMs }),
      group: index === 0 ? group : `${group}-helper-${index}`,
      // Silence between chat messages is not idleness: a guild being read keeps the bot in its channel.
      stayConnected: isReading,
      guild,
      helper: index > 0,
    });
  const mainBot: SeatBot = { index: 0, players: playersOf(0, main.guild), guild: main.guild, userId: main.userId };
  const accounting = new Accounting({
    store,
    rules: MONEY_RULES,
    budgets: config.budgets,
    botMonthlyChars: config.botMonthlyChars,
    planCharacterLimit: config.planCharacterLimit,
    account: { fingerprint: voiceApi.keyFingerprint, plan: config.plan },
    storeDeadlineMs: config.storeTimeouts.deadlineMs,
    logger,
    now: seams.now,
    metrics,
    // This process on the books, the same at each start of this application and shard: it finishes its predecessor's.
    owner: `${config.discord.clientId}:${config.shard === undefined ? 'main' : `shard-${config.shard.id}`}`,
  });
  // Before any request: what this process's predecessor left when it died is finished from what it wrote down.
  await accounting
    .recover()
    .catch((error: unknown) =>
      logger.error({ err: error }, 'could not settle what the previous run left on the books; its holds expire'),
    );
  const freeVoice = freeVoiceRules(config.freeVoice);
  const engines = await startEngines(config, logger, seams.engines);
  const source = new PartSource({
    client: voiceApi,
    logger,
    cache,
    accounting,
    encoding,
    metrics,
    freeVoice,
    engines: engines?.port,
    freeChoice: freeVoiceChoice(config.engines),
  });
  const speech = new SpeechPipeline({
    source,
    accounting,
    logger,
    maxCharsPerRequest: config.maxCharsPerRequest,
    queue: config.queue,
    metrics,
    freePerMinute: config.freeRequestsPerMinute,
    countFreeLines: (guildId, cause, speaker, lines) =>
      void store.freeVoiceLines
        .add(guildId, monthOf(seams.now?.() ?? new Date()), cause, speaker, lines)
        .catch((error: unknown) => logger.warn({ err: error, guildId }, 'a free line was not counted')),
    inServer,
    // The rights an order is held to: the speaking feature's gate, as the core's rights port.
    rights: gatePort,
    ...(seams.now === undefined ? {} : { now: seams.now }),
  });
  const helpers = new HelperBots(
    config.discord.helperTokens.map((token, at) => {
      const helper: HelperBot = new HelperBot({
        index: at + 1,
        token,
        apiBaseUrl: config.discord.apiBaseUrl,
        players: playersOf(at + 1, (guildId) => helper.guild(guildId)),
        logger,
        readyTimeoutMs: seams.readyTimeoutMs ?? 60_000,
        rightsChanged: (guildId) => speech.rightsChanged(guildId),
        releasing: main.releasing,
      });
      return helper;
    }),
  );
  const seats = new Seats([mainBot, ...helpers.bots], {
    kept: main.kept,
    mayJoin: gatePort.mayJoin,
  });
  return { store, speech, accounting, seats, helpers, cache, engines, freeVoice };
}

/** The owner's engines, their voices fetched once before the first command; undefined when none is set. */
async function startEngines(
  config: Config,
  logger: Logger,
  options: StartSeams['engines'],
): Promise<SayBotCore['engines']> {
  if (config.engines.voicevoxUrl === undefined && config.engines.speechServer === undefined) return undefined;
  const engines = new Engines(config.engines, { ...options, logger });
  await engines.start();
  for (const status of await engines.status())
    logger.info(
      { code: 'engine', engine: status.engine, url: status.url, answers: status.answers, voices: status.voices },
      status.answers ? 'speech engine answers' : 'speech engine does not answer yet: its voices come once it does',
    );
  return { port: engines, close: () => engines.close() };
}

/** FREE_VOICES as the part source reads it: a language (or `*`) to a free voice's ID, or `espeak`. */
function freeVoiceChoice(config: Config['engines']): StandInVoices | undefined {
  const entries = Object.entries(config.freeVoices).map(([language, choice]): [string, string] => [
    language,
    choice.kind === 'espeak' ? ESPEAK_CHOICE : choice.voice,
  ]);
  return entries.length === 0 ? undefined : new Map(entries);
}

/** Puts the slash commands on Discord when they differ from what it has: set-up is `.env` + `npm start`. */
async function registerCommands(config: Config, commands: Iterable<AnyCommandModule>, logger: Logger): Promise<void> {
  const result = await deployCommands({
    token: config.discord.token,
    clientId: config.discord.clientId,
    guildId: config.discord.guildId,
    apiBaseUrl: config.discord.apiBaseUrl,
    commands,
    userInstall: config.userInstall.mode !== 'off',
  });
  logger.info(
    { scope: result.scope, count: result.count, changed: result.changed },
    result.changed ? 'slash commands registered' : 'slash commands already up to date',
  );
}
