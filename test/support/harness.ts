import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import tls from 'node:tls';
import type { VoiceApiClient } from '../../src/core/api/client.ts';
import { dominantPitchHz, rmsDbfs } from '../../src/core/audio/analysis/clip.ts';
import type { SayBot } from '../../src/app/saybot.ts';
import { loadConfig, type Config } from '../../src/core/config.ts';
import { startSayBot, type RunningSayBot, type StartSeams } from '../../src/app/start-saybot.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '@saybot/voice-sandbox';
import type { Store } from '../../src/core/store/types.ts';
import { APP_ID, fakeToken, FakeDiscord, type FakeBotApplication } from '@saybot/local-discord';
import { Events, PermissionFlagsBits } from 'discord.js';
import { DEFAULT_PERMISSIONS, GatewayIntent } from '@saybot/local-discord/state.ts';
import { logLeaks } from './log-leaks.ts';
import { migratedSqliteFile } from './migrated-sqlite.ts';
import { watchLogs } from './live-logs.ts';
import {
  ALICE,
  BOB,
  GENERAL,
  londonWith,
  LOUNGE,
  MINJI,
  OTHER_ROOM,
  OUTSIDE,
  SEOUL,
  SEOUL_STAGE,
  SEOUL_TEXT,
} from './world.ts';
import type {
  FakeAttachmentInput,
  FakeDiscordOptions,
  FakeGuildSpec,
  HeardAudio,
  InteractionHandle,
  InteractionOption,
} from '@saybot/local-discord/types.ts';
import { bufferingClient } from '../../fixtures/buffering-client.ts';

export { APP_ID, fakeToken } from '@saybot/local-discord';

let trusted = false;
/** Lets @discordjs/voice (which always uses wss://) trust the fake voice gateway's self-signed certificate. */
function trustFakeDiscord(pem: string): void {
  if (trusted) return;
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), pem]);
  trusted = true;
}

/** Two guilds by default: one Korean, one English, each with members in and out of voice. */
export function defaultGuilds(): FakeGuildSpec[] {
  return [
    {
      id: SEOUL,
      name: 'Seoul',
      preferredLocale: 'ko',
      textChannelId: SEOUL_TEXT,
      voiceChannels: [
        { id: LOUNGE, name: 'lounge' },
        { id: SEOUL_STAGE, name: 'stage' },
      ],
      members: [
        { id: MINJI, username: 'minji', voiceChannelId: LOUNGE, locale: 'ko' },
        { id: OUTSIDE, username: 'outside', locale: 'ko' },
        { id: OTHER_ROOM, username: 'other-room', voiceChannelId: SEOUL_STAGE, locale: 'en-US' },
      ],
    },
    londonWith([
      { id: ALICE, username: 'alice', voiceChannelId: GENERAL, locale: 'en-US' },
      { id: BOB, username: 'bob', locale: 'ja' },
    ]),
  ];
}

/**
 * What @everyone and the bot may do where voice messages are tested: Discord's defaults and Send Voice Messages (as
 * on Discord, where @everyone may send voice messages by default; the bot's own role too).
 */
export const WITH_VOICE_MESSAGES = DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages;

/** The default world ([Seoul, London]) with WITH_VOICE_MESSAGES for @everyone and the bot in both servers. */
export function voiceMessageGuilds(): [FakeGuildSpec, FakeGuildSpec] {
  return defaultGuilds().map((g) => ({
    ...g,
    everyonePermissions: WITH_VOICE_MESSAGES,
    botPermissions: WITH_VOICE_MESSAGES,
  })) as [FakeGuildSpec, FakeGuildSpec];
}

export interface HarnessOptions {
  guilds?: FakeGuildSpec[];
  sandbox?: SandboxOptions;
  encryptionModes?: string[];
  /** DAVE options of the local Discord (mode, who commits, handshake delay); its defaults otherwise. */
  dave?: Pick<FakeDiscordOptions, 'dave' | 'daveCommitter' | 'daveHandshakeDelayMs'>;
  /** Discord's limits in the local Discord (e.g. a short interaction token lifetime); its defaults otherwise. */
  discord?: Pick<
    FakeDiscordOptions,
    | 'interactionTimeoutMs'
    | 'interactionTokenLifetimeMs'
    | 'allowedPrivilegedIntents'
    | 'hostClockAheadMs'
    | 'botPublic'
    | 'applicationOwnerId'
    | 'oauth2'
  >;
  env?: Record<string, string>;
  /** Overrides applied after the environment is read (values too small for the environment's ranges). */
  config?: Partial<Config>;
  clientRetryBaseDelayMs?: number;
  clientTimeouts?: ConstructorParameters<typeof VoiceApiClient>[0]['timeouts'];
  /** Start the bot with the benchmarks' baseline client (fixtures/buffering-client.ts: download in full, then play). */
  bufferResponses?: boolean;
  /** The bot's clock for budgets and the monthly quota (default: the real one). */
  now?: () => Date;
  /** The dashboard's clock (sessions, rate limits, the trust in a member's view); default the real one. */
  dashboardNow?: () => number;
  /** The owner's engines' deadlines (default SayBot's own). */
  engines?: StartSeams['engines'];
  /** Wraps the store the bot gets (e.g. one whose writes fail); called again at each restart. */
  wrapStore?: (store: Store) => Store;
  /** The command modules the bot registers and routes (default: what the loader offers). */
  commands?: StartSeams['commands'];
  /** Helper bots ("SayBot 2", ...): applications of their own, in every server, their tokens in HELPER_BOT_TOKENS. */
  helpers?: number;
  /** What happens in the local Discord before the bot starts (a helper's token reset, say). */
  beforeStart?: (discord: FakeDiscord, helpers: readonly FakeBotApplication[]) => void;
}

export interface Harness {
  discord: FakeDiscord;
  sandbox: Sandbox;
  /** The running bot; a new one after restart(). */
  readonly bot: SayBot;
  config: Config;
  /** This harness's own SQLite file (in a temporary directory removed by close()). */
  databasePath: string;
  /** This harness's own audio cache directory (in the same temporary directory). */
  cacheDir: string;
  token: string;
  apiKey: string;
  /** The helper bots (HarnessOptions.helpers), in HELPER_BOT_TOKENS' order. */
  helpers: FakeBotApplication[];
  /** Everything the bot logged so far (JSON lines). */
  logs(): string;
  /** Stops the bot as a shutdown does (store closed) and starts a new one on the same database file. */
  restart(): Promise<SayBot>;
  close(): Promise<void>;
}

export interface LocalServices {
  discord: FakeDiscord;
  sandbox: Sandbox;
  token: string;
  close(): Promise<void>;
}

/** A fake Discord and a sandbox Voice API on 127.0.0.1, for a bot started in or out of this process. */
export async function startLocalServices(
  options: Pick<HarnessOptions, 'guilds' | 'sandbox' | 'encryptionModes' | 'dave' | 'discord'> = {},
): Promise<LocalServices> {
  const token = fakeToken();
  const discord = await FakeDiscord.start({
    token,
    applicationId: APP_ID,
    guilds: options.guilds ?? defaultGuilds(),
    // As a bot owner following the owners' guide (docs/guide-owners.md) does: Message Content on, so auto-read is there (tests of its absence pass 0).
    allowedPrivilegedIntents: GatewayIntent.MessageContent,
    ...(options.encryptionModes ? { encryptionModes: options.encryptionModes } : {}),
    ...options.dave,
    ...options.discord,
    log: () => undefined,
  });
  trustFakeDiscord(discord.caCertificatePem);
  const sandbox = await startSandbox(options.sandbox);
  return {
    discord,
    sandbox,
    token,
    async close() {
      await sandbox.close();
      await discord.close();
    },
  };
}

/** `count` helper bot applications ("SayBot 2", ...), each invited to every one of `guildIds`. */
export function addHelpers(discord: FakeDiscord, count: number, guildIds: readonly string[]): FakeBotApplication[] {
  return Array.from({ length: count }, (_, at) => {
    const helper = discord.addBotApplication({ username: `SayBot ${at + 2}` });
    for (const guildId of guildIds) discord.inviteBot(guildId, helper.userId);
    return helper;
  });
}

/** The real bot, in this process, wired to a fake Discord and a sandbox Voice API on 127.0.0.1. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const services = await startLocalServices(options);
  const { discord, sandbox, token } = services;
  const apiKey = sandbox.testKey;
  const helpers = addHelpers(
    discord,
    options.helpers ?? 0,
    (options.guilds ?? defaultGuilds()).map((g) => g.id),
  );
  options.beforeStart?.(discord, helpers);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'saybot-harness-'));
  const databasePath = path.join(dataDir, 'saybot.sqlite');
  const config: Config = {
    ...loadConfig({
      DATABASE_URL: `sqlite:${databasePath}`,
      CACHE_DIR: path.join(dataDir, 'cache'),
      DISCORD_TOKEN: token,
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_BASE_URL: discord.restUrl,
      DISCORD_CDN_BASE_URL: discord.cdnUrl,
      VOICE_API_BASE_URL: sandbox.url,
      VOICE_API_KEY: apiKey,
      LOG_LEVEL: 'debug',
      // This operator sets no budgets (SayBot's own defaults are sized from the plan): tests of budgets set their
      // own, and test/e2e/queue-bounds.test.ts unsets these to see the defaults.
      BUDGET_GUILD_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_DAILY_CHARS: '0',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
      BUDGET_BOT_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_FREE_PER_MINUTE: '0',
      // The fake serves attachments like Discord's CDN, from its own address.
      ATTACHMENT_HOSTS: new URL(discord.restUrl).host,
      ...(helpers.length > 0 ? { HELPER_BOT_TOKENS: helpers.map((helper) => helper.token).join(',') } : {}),
      ...options.env,
    }),
    ...options.config,
  };
  const logStream = new PassThrough();
  const lines: string[] = [];
  logStream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  // Every e2e test's log is scanned when it closes its harness: no interaction token, private reply text or
  // bytes, and no line over the bound, whatever the test was about.
  const checkLogs = () => {
    const problems = logLeaks(lines.join('').split('\n').filter(Boolean), discord.interactions());
    if (problems.length > 0) throw new Error(`The bot's log is not clean:\n${problems.slice(0, 10).join('\n')}`);
  };
  // The same start-up as `npm start` (src/app/start-saybot.ts), with only the test seams changed.
  const seams: StartSeams = {
    logDestination: logStream,
    // The bot's and its helpers' ready from the local Discord, and a voice connection's: bounds for a busy host (six
    // files of this suite at once on two cores had a join take past the player's 15 s), not figures.
    readyTimeoutMs: 30_000,
    voiceReadyTimeoutMs: 45_000,
    voiceApiClient: {
      retryBaseDelayMs: options.clientRetryBaseDelayMs ?? 5,
      retryMaxDelayMs: 20,
      ...(options.clientTimeouts ? { timeouts: options.clientTimeouts } : {}),
    },
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.dashboardNow === undefined ? {} : { dashboardNow: options.dashboardNow }),
    ...(options.bufferResponses === true ? { wrapVoiceApiClient: bufferingClient } : {}),
    ...(options.wrapStore === undefined ? {} : { wrapStore: options.wrapStore }),
    ...(options.engines === undefined ? {} : { engines: options.engines }),
    ...(options.commands === undefined ? {} : { commands: options.commands }),
  };
  let running: RunningSayBot;
  try {
    if (config.database.kind === 'sqlite' && config.databasePath === databasePath)
      await migratedSqliteFile(databasePath);
    running = await startSayBot(config, seams);
  } catch (error) {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const forgetLogs = watchLogs(() => lines.join(''));
  return {
    discord,
    sandbox,
    get bot() {
      return running.bot;
    },
    config,
    databasePath: config.databasePath,
    cacheDir: config.cache.dir,
    token,
    apiKey,
    helpers,
    logs: () => lines.join(''),
    async restart() {
      await running.stop();
      running = await startSayBot(config, seams);
      return running.bot;
    },
    async close() {
      forgetLogs();
      await running.stop();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
      checkLogs();
    },
  };
}

/** A NUMBER option (type 10): whole numbers would otherwise be sent as INTEGER, as the fake infers types. */
export function numberValue(value: number): { type: number; value: number } {
  return { type: 10, value };
}

type OptionValue = string | number | boolean | { type: number; value: string | number | boolean } | undefined;

function optionOf(name: string, value: OptionValue): InteractionOption[] {
  if (value === undefined) return [];
  return typeof value === 'object' ? [{ name, ...value }] : [{ name, value }];
}

/** Who runs which command where, with which options. */
export interface CommandInput {
  guildId: string;
  userId: string;
  name: string;
  /** Sends the options inside this sub-command (`/preset save …`). */
  subcommand?: string;
  options?: Record<string, OptionValue>;
  locale?: string;
  /** Attachment options: the fake hosts the bytes on its CDN and resolves them in the interaction. */
  attachments?: FakeAttachmentInput[];
  /**
   * How long to wait for its first response with something to read (default 60 s): a bound, not a figure. /usage
   * waits for its chart, drawn ten steps nicer than the processes beside it, for up to 20 s on a busy host.
   */
  waitMs?: number;
}

function optionsOf(input: CommandInput, focus: InteractionOption[] = []): InteractionOption[] {
  const filled = Object.entries(input.options ?? {}).flatMap(([name, value]) => optionOf(name, value));
  const all = [...filled, ...focus];
  return input.subcommand === undefined ? all : [{ name: input.subcommand, type: 1, options: all }];
}

/** Changes a member's voice state in the local Discord (`change`); resolves once the bot's cache has it. */
export async function voiceStateSeen(h: Harness, userId: string, change: () => void): Promise<void> {
  const seen = new Promise<void>((resolve) => {
    const listener = (_before: unknown, after: { id: string }) => {
      if (after.id !== userId) return;
      h.bot.client.off(Events.VoiceStateUpdate, listener);
      resolve();
    };
    h.bot.client.on(Events.VoiceStateUpdate, listener);
  });
  change();
  await seen;
}

/** Sends a slash command and waits for its final visible response (not the bare defer). */
export async function runCommand(
  harness: Harness,
  input: CommandInput,
): Promise<{ handle: InteractionHandle; content: string }> {
  const options = optionsOf(input);
  const handle = await harness.discord.command({
    guildId: input.guildId,
    userId: input.userId,
    name: input.name,
    options,
    ...(input.locale === undefined ? {} : { locale: input.locale }),
    ...(input.attachments === undefined ? {} : { attachments: input.attachments }),
  });
  // The first response with something to read: not the bare defer, nor the deletion that precedes a private error.
  const final = await handle.waitFor(
    (r) => r.kind !== 'delete' && (r.content !== undefined || r.files.length > 0),
    input.waitMs ?? 60_000,
  );
  return { handle, content: final.content ?? '' };
}

/**
 * `userId` has /say speak `text` (in `voice` when given) in the voice channel they are in, in `guildId`: waits for the
 * reply that ends it, fails unless that says it spoke, and returns what the channel heard from then on.
 */
export async function sayAndHear(
  h: Harness,
  guildId: string,
  userId: string,
  options: { text: string; voice?: string },
): Promise<HeardAudio> {
  h.discord.clearAudio(guildId);
  const { handle } = await runCommand(h, { guildId, userId, name: 'say', options });
  const done = await handle.waitFor((r) => /^(Spoke|The voice|Something)/.test(r.content ?? ''), 20_000);
  if (!(done.content ?? '').startsWith('Spoke')) throw new Error(`/say did not speak: ${done.content ?? ''}`);
  return h.discord.waitForAudio(guildId, { minSeconds: 0.3 });
}

/** The choices the bot offers while `focus` is being typed (the other options as already filled in). */
export function autocomplete(
  harness: Harness,
  input: CommandInput & { focus: { name: string; value: string } },
): Promise<Array<{ name: string; value: string | number }>> {
  return harness.discord.autocomplete({
    guildId: input.guildId,
    userId: input.userId,
    name: input.name,
    options: optionsOf(input, [{ ...input.focus, type: 3, focused: true }]),
    ...(input.locale === undefined ? {} : { locale: input.locale }),
  });
}

/**
 * An autocomplete's answer as SayBot gives it in time: asked again (5 times at most) while its answer came past its
 * deadline, an empty list by design (router.ts, `autocomplete-late`) that a busy host may make of any question.
 */
export async function inTime<T>(harness: Harness, ask: () => Promise<T>): Promise<T> {
  const late = () => harness.logs().split('"code":"autocomplete-late"').length;
  for (let tries = 1; ; tries++) {
    const before = late();
    const answer = await ask();
    if (late() === before || tries === 5) return answer;
  }
}

/** Mono float samples from what a voice channel heard. */
export function monoOf(heard: HeardAudio): Float32Array {
  const frames = heard.pcm.length / 2;
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) out[i] = ((heard.pcm[2 * i] ?? 0) + (heard.pcm[2 * i + 1] ?? 0)) / 65536;
  return out;
}

export function pitchOf(heard: HeardAudio): number | undefined {
  return dominantPitchHz(monoOf(heard), 48_000);
}

export function loudnessOf(heard: HeardAudio): number {
  return rmsDbfs(monoOf(heard));
}
