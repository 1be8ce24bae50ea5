import type { PresetVoice } from './voice-catalogue/voices.ts';
import { z } from 'zod';
import { postgresUrlProblem } from './postgres-url.ts';
import { DEFAULT_AUDIO_LIMITS, type AudioLimits } from './api/audio-body.ts';
import type { StoreTimeouts } from './store/types.ts';
import { readVoicesFile } from './voice-catalogue/voices-file.ts';
import {
  ENGINE_VARIABLES,
  readEngineVariables,
  type EngineVariables,
  type EnginesConfig,
} from './engines/engine-settings.ts';

// The budgets an operator sets (BUDGET_*) and a server lowers (/budget): their names and values.
export type BudgetName = 'guildMonthlyChars' | 'memberDailyChars' | 'memberCooldownSeconds';
export const BUDGET_NAMES: readonly BudgetName[] = ['guildMonthlyChars', 'memberDailyChars', 'memberCooldownSeconds'];

/** One value per budget; 0 means no limit. */
export type OperatorBudgets = Record<BudgetName, number>;
/** A server's own limits: only those it set (each at most the operator's). */
export type ServerBudgets = Partial<Record<BudgetName, number>>;

/** The operator's bounds (QUEUE_MAX_*); 0 = no limit. */
export interface QueueBounds {
  /** Estimated seconds of speech one seat's voice queue may hold (what plays now included). */
  guildSeconds: number;
  guildClips: number;
  /** Requests one member may have under way in one server (queued, playing or being made), any output. */
  memberRequests: number;
}

/** Monthly character limits of the plans that include API access (voice-api.md, "Plans"). */
export const PLAN_CHARACTER_LIMITS = { creator: 300_000, pro: 700_000, business: 4_000_000 } as const;
export type ApiPlan = keyof typeof PLAN_CHARACTER_LIMITS;

/** Budgets when unset, so no one runs away with the month: a server a third, a member 1/150 a day, 3 s apart. */
export function defaultBudgets(plan: ApiPlan): OperatorBudgets {
  const month = PLAN_CHARACTER_LIMITS[plan];
  const hundreds = (value: number) => Math.floor(value / 100) * 100;
  return { guildMonthlyChars: hundreds(month / 3), memberDailyChars: hundreds(month / 150), memberCooldownSeconds: 3 };
}

/** The bot's month when BUDGET_BOT_MONTHLY_CHARS is unset: nine tenths of the plan, a tenth kept for the dashboard. */
export function defaultBotMonthlyChars(plan: ApiPlan): number {
  return Math.floor((PLAN_CHARACTER_LIMITS[plan] * 0.9) / 100) * 100;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Variables whose values are secrets: never echoed, even when malformed. */
const SECRET_VARIABLES = new Set([
  'DISCORD_TOKEN',
  'HELPER_BOT_TOKENS',
  'VOICE_API_KEY',
  'DISCORD_CLIENT_SECRET',
  'SPEECH_SERVER_KEY',
]);

/** Helper bots at most: each is one more gateway session, and ten seats cover the busiest server's rooms. */
export const MAX_HELPER_BOTS = 10;

const BOT_TOKEN = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** HELPER_BOT_TOKENS as tokens: split at commas, blanks dropped. */
const helperTokens = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');

const snowflake = (what: string) =>
  z
    .string({ error: `is required: ${what} (a Discord ID of 17 to 20 digits)` })
    .regex(/^\d{17,20}$/, `must be ${what} (a Discord ID of 17 to 20 digits)`);

const httpUrl = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL')
  .transform((v) => v.replace(/\/+$/, ''));

const idList = (what: string) =>
  z
    .string()
    .regex(/^\d{17,20}(,\d{17,20})*$/, `must be a comma-separated list of ${what} IDs (17 to 20 digits each)`)
    .optional();

const wholeNumber = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

const EnvSchema = z.object({
  DISCORD_TOKEN: z
    .string({ error: 'is required: the bot token from the Discord Developer Portal (Bot page)' })
    .regex(BOT_TOKEN, 'must be a bot token: three dot-separated parts from the Developer Portal'),
  // Helper bots (a seat each in every server they are in): the tokens of applications of their own.
  HELPER_BOT_TOKENS: z
    .string()
    .refine(
      (v) => helperTokens(v).every((token) => BOT_TOKEN.test(token)),
      'must be bot tokens separated by commas, each three dot-separated parts from the Developer Portal',
    )
    .refine((v) => helperTokens(v).length <= MAX_HELPER_BOTS, `must list at most ${MAX_HELPER_BOTS} tokens`)
    .optional(),
  DISCORD_CLIENT_ID: snowflake('the application ID'),
  DISCORD_GUILD_ID: snowflake('a server ID').optional(),
  DISCORD_API_BASE_URL: httpUrl.optional(),
  DISCORD_CDN_BASE_URL: httpUrl.optional(),
  VOICE_API_BASE_URL: httpUrl.optional(),
  VOICE_API_KEY: z
    .string()
    .regex(/^\S{8,}$/, 'must be an API key of at least 8 characters with no spaces')
    .optional(),
  VOICE_API_PLAN: z
    .enum(['creator', 'pro', 'business'], { error: 'must be one of creator, pro, business' })
    .default('creator'),
  VOICE_API_TIMEOUT_SECONDS: wholeNumber(5, 600).default(120),
  TTS_MAX_CHARS_PER_REQUEST: wholeNumber(50, 10_000).default(1000),
  // The most audio a request's text may bring (src/core/api/audio-body.ts `audioBound`): past it the body is cut,
  // charged, undelivered.
  VOICE_API_MAX_SECONDS_PER_CHAR: wholeNumber(1, 60).default(1),
  VOICE_API_MAX_AUDIO_MB: wholeNumber(1, 1024).default(64),
  VOICE_IDLE_TIMEOUT_SECONDS: wholeNumber(10, 86_400).default(300),
  DATABASE_URL: z
    .string()
    .regex(
      /^(postgres(ql)?:\/\/\S+|(sqlite:|file:)?([^:]+|:memory:))$/,
      'must be an SQLite file path (or :memory:), optionally prefixed with sqlite: or file:, or a postgres:// URL',
    )
    .default('sqlite:./data/saybot.sqlite'),
  // The store's deadline and PostgreSQL's timeouts and keepalive: a hung server or a held lock ends in a refusal.
  STORE_DEADLINE_MS: wholeNumber(100, 600_000).default(5000),
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(100, 600_000).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(15_000),
  DATABASE_LOCK_TIMEOUT_MS: wholeNumber(100, 600_000).default(4000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: wholeNumber(100, 3_600_000).default(15_000),
  DATABASE_KEEPALIVE_MS: wholeNumber(1000, 3_600_000).default(10_000),
  VOICES_FILE: z.string().min(1).optional(),
  ATTACHMENT_HOSTS: z
    .string()
    .regex(
      /^[a-z0-9.-]+(:\d+)?(,[a-z0-9.-]+(:\d+)?)*$/i,
      'must be a comma-separated list of host names (host or host:port)',
    )
    .default('cdn.discordapp.com,media.discordapp.net'),
  CLONE_MAX_MB: wholeNumber(1, 100).default(20),
  // Operator budgets; unset: defaultBudgets(plan); 0: no limit. A server may lower them (/budget), never raise them.
  BUDGET_GUILD_MONTHLY_CHARS: wholeNumber(0, 100_000_000).optional(),
  BUDGET_MEMBER_DAILY_CHARS: wholeNumber(0, 100_000_000).optional(),
  BUDGET_MEMBER_COOLDOWN_SECONDS: wholeNumber(0, 86_400).optional(),
  // The whole bot's month (all servers and user installs together); unset: defaultBotMonthlyChars(plan); 0: no limit.
  BUDGET_BOT_MONTHLY_CHARS: wholeNumber(0, 100_000_000).optional(),
  // The servers SayBot may serve; unset: any server it is added to. It serves no other (leaving: below).
  ALLOWED_GUILDS: idList('server'),
  // Owners besides the application's owner (or its team): they see the plan's figures and the owner console.
  OWNER_IDS: idList('user'),
  // Confirms leaving the servers ALLOWED_GUILDS lacks at start-up; unset or 0 leaves none (a mistyped list must not
  // start the deletion clock of the owner's own servers).
  ALLOWED_GUILDS_LEAVE: z
    .enum(['0', '1'], { error: 'must be 1 (leave the servers off ALLOWED_GUILDS at start-up) or 0 (leave none)' })
    .default('0'),
  // Requests that spend nothing (free and engine lines, cache hits, replays) a member may make a minute; 0: none.
  BUDGET_MEMBER_FREE_PER_MINUTE: wholeNumber(0, 10_000).default(10),
  // The free voice (src/core/free-voice/): `chosen`, members may pick its voices; `fallback`, it speaks what money
  // refused; `on` both; `off` neither. FREE_VOICES set turns the fallback on too, unless this is `off`.
  FREE_VOICE: z
    .enum(['on', 'chosen', 'fallback', 'off'], { error: 'must be one of on, chosen, fallback, off' })
    .default('chosen'),
  // The user-installable app (/say, /emote in DMs, group DMs and servers without SayBot): off by default.
  USER_INSTALL: z
    .enum(['off', 'allowlist', 'everyone'], { error: 'must be one of off, allowlist, everyone' })
    .default('off'),
  USER_INSTALL_ALLOWLIST: idList('user'),
  // Queue bounds (src/core/quota/capacity.ts' QueueBook); 0 means no limit.
  QUEUE_MAX_SECONDS: wholeNumber(0, 86_400).default(180),
  QUEUE_MAX_CLIPS: wholeNumber(0, 10_000).default(20),
  QUEUE_MAX_PER_MEMBER: wholeNumber(0, 1000).default(3),
  // Days a server's data stays after SayBot is removed from it; added back within them, nothing is deleted.
  FORGET_REMOVED_GUILD_AFTER_DAYS: wholeNumber(1, 3650).default(30),
  CACHE_DIR: z.string().min(1).default('./data/cache'),
  // 0 turns the audio cache off (identical requests in flight at once still share one call).
  CACHE_MAX_MB: wholeNumber(0, 1_000_000).default(500),
  // The operator's /metrics (Prometheus) and /healthz on 127.0.0.1; unset: not served.
  METRICS_PORT: wholeNumber(1, 65_535).optional(),
  // Shards (src/app/shard/): unset runs one process; `auto` asks Discord how many, N runs N shard processes.
  SHARDS: z
    .union([z.literal('auto'), wholeNumber(1, 1000)], { error: 'must be auto or a whole number from 1 to 1000' })
    .optional(),
  // The web dashboard (src/features/dashboard/), off unless DASHBOARD_URL is set; the secret is OAuth2's.
  DASHBOARD_URL: z
    .string()
    .superRefine((value, context) => {
      const problem = dashboardUrlProblem(value);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  DASHBOARD_PORT: wholeNumber(1, 65_535).default(8080),
  DASHBOARD_HOST: z
    .string()
    .regex(/^[0-9a-f.:]+$|^localhost$/i, 'must be an IP address to listen on (127.0.0.1, ::1 or 0.0.0.0)')
    .default('127.0.0.1'),
  // The https proxy's address: requests from it are counted by the last X-Forwarded-For address.
  DASHBOARD_TRUSTED_PROXY: z
    .string()
    .regex(/^[0-9a-f.:]+$/i, 'must be the IP address the https proxy connects from (such as 127.0.0.1)')
    .optional(),
  // Login requests a minute from one address (/login and /callback each count); unset: src/features/dashboard/limits.ts.
  DASHBOARD_LOGINS_PER_MINUTE: wholeNumber(1, 1_000_000).optional(),
  DISCORD_CLIENT_SECRET: z
    .string()
    .regex(/^[\w-]{16,}$/, 'must be the OAuth2 client secret from the Developer Portal (OAuth2 page)')
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  // The owner's speech engines, checked by src/core/engines/engine-settings.ts; unset: none.
  VOICEVOX_URL: z.string().optional(),
  SPEECH_SERVER_URL: z.string().optional(),
  SPEECH_SERVER_KEY: z.string().optional(),
  SPEECH_SERVER_MODEL: z.string().optional(),
  SPEECH_SERVER_VOICES: z.string().optional(),
  FREE_VOICES: z.string().optional(),
});

const POSTGRES_URL = /^postgres(ql)?:\/\//;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What is wrong with DASHBOARD_URL: it must be an origin (the __Host- cookie wants Path=/), https unless local. */
function dashboardUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return "must be the dashboard's public URL, such as https://saybot.example.org";
  const url = new URL(value);
  if (!/^https?:$/.test(url.protocol)) return 'must be an http:// or https:// URL';
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '')
    return 'must be an origin only (scheme, host and port, no path), such as https://saybot.example.org';
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname))
    return 'must use https:// outside localhost (put SayBot behind an https proxy; docs/guide-owners.md, "Dashboard")';
  return undefined;
}

/** Who may use the user-installed commands: nobody (off), the listed user IDs, or everyone. */
type UserInstallSetting = { mode: 'off' | 'everyone' } | { mode: 'allowlist'; users: readonly string[] };

/** The dashboard's settings; `clientSecret` is a secret. */
interface DashboardConfig {
  /** The public origin, e.g. https://saybot.example.org. */
  url: string;
  port: number;
  host: string;
  /** The https proxy's address, whose X-Forwarded-For names the member's; absent: no proxy is trusted. */
  trustedProxy?: string | undefined;
  clientSecret: string;
  loginsPerMinute?: number | undefined;
}

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** A database URL for a message: scheme and host only, since the password may be anywhere in a malformed one. */
export function describeDatabaseUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:)\/*(?:[^@/]*@)?([^/?#\s]*)/i.exec(url);
  if (!match) return '(not a URL)';
  const scheme = match[1] ?? '';
  const host = match[2] ?? '';
  const readable = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(host);
  return readable ? `${scheme}//${host}` : `${scheme}// (host not shown)`;
}

/** The database for a log line: the SQLite path, or PostgreSQL's scheme and host (no user, password or query). */
export function describeDatabase(target: DatabaseTarget): string {
  return target.kind === 'sqlite' ? target.path : describeDatabaseUrl(target.url);
}

/** A secret part of a URL as written and, where it differs, decoded; under 4 characters it is not redacted. */
function secretForms(part: string | undefined): string[] {
  if (part === undefined || part.length < 4) return [];
  try {
    const decoded = decodeURIComponent(part);
    return decoded === part ? [part] : [part, decoded];
  } catch {
    // A malformed escape: the raw form is the one that can show up.
    return [part];
  }
}

/** A database URL and its password (as written and decoded), to be redacted like the tokens. */
function databaseUrlSecrets(url: string): string[] {
  return [url, ...secretForms(/^[a-z][a-z0-9+.-]*:\/*[^:@/]*:([^@]*)@/i.exec(url)?.[1])];
}

/** The secrets among the engines' variables: the speech server's token, and any password put in a URL. */
function engineSecrets(variables: EngineVariables): string[] {
  const secrets = variables.SPEECH_SERVER_KEY === undefined ? [] : [variables.SPEECH_SERVER_KEY];
  for (const url of [variables.VOICEVOX_URL, variables.SPEECH_SERVER_URL]) {
    if (url === undefined || !URL.canParse(url)) continue;
    const { username, password } = new URL(url);
    secrets.push(...secretForms(password), ...secretForms(username));
    if (password !== '' || username !== '') secrets.push(url);
  }
  return secrets;
}

/** The variables `names` as loadConfig reads them: trimmed, an empty one unset (a .env file's `NAME=`). */
function variables<N extends string>(env: NodeJS.ProcessEnv, names: readonly N[]): Partial<Record<N, string>> {
  const read = names.map((name) => [name, env[name] === '' ? undefined : env[name]?.trim()]);
  return Object.fromEntries(read) as Partial<Record<N, string>>;
}

/** The secrets in the raw environment, for messages written when the configuration could not be read. */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  const url = env['DATABASE_URL'];
  return [
    ...[...SECRET_VARIABLES].map((name) => env[name] ?? ''),
    ...helperTokens(env['HELPER_BOT_TOKENS']),
    ...(url === undefined || url === '' ? [] : databaseUrlSecrets(url)),
    ...engineSecrets(variables(env, ENGINE_VARIABLES)),
  ].filter((s) => s.length > 0);
}

/** What the environment says, each field read from the variables above (their comments say what each means). */
export interface Config {
  discord: {
    token: string;
    /** HELPER_BOT_TOKENS: each a helper bot's token (secrets like `token`), in the order its seats are tried. */
    helperTokens: string[];
    clientId: string;
    guildId?: string | undefined;
    apiBaseUrl?: string | undefined;
    /** Discord's CDN (DISCORD_CDN_BASE_URL): server icons and avatars on the dashboard; default Discord's own. */
    cdnBaseUrl?: string | undefined;
  };
  /** Absent when neither VOICE_API_BASE_URL nor VOICE_API_KEY is set: the bot then runs an in-process sandbox. */
  voiceApi?: { baseUrl: string; apiKey: string };
  plan: ApiPlan;
  planCharacterLimit: number;
  voiceApiTimeoutMs: number;
  maxCharsPerRequest: number;
  /** Where /clone may download reference clips from, how much, and for how long. */
  clipDownload: { allowedHosts: string[]; maxBytes: number; timeoutMs: number };
  voiceIdleTimeoutMs: number;
  /** The SQLite file (or :memory:); empty when `database` is PostgreSQL. */
  databasePath: string;
  metricsPort?: number | undefined;
  /** Which store backend: the embedded SQLite file (default) or a PostgreSQL server (DATABASE_URL=postgres://…). */
  database: DatabaseTarget;
  /** How long a request waits on the store, and PostgreSQL's timeouts and keepalive (milliseconds). */
  storeTimeouts: StoreTimeouts;
  budgets: OperatorBudgets;
  botMonthlyChars: number;
  allowedGuilds?: readonly string[] | undefined;
  /** ALLOWED_GUILDS_LEAVE=1: leave the servers at start-up the list lacks (src/app/allowed-guilds.ts). */
  allowedGuildsLeave: boolean;
  ownerIds: readonly string[];
  queue: QueueBounds;
  freeRequestsPerMinute: number;
  voiceApiAudioLimits: AudioLimits;
  /** USER_INSTALL: who may use /say and /emote where SayBot is not in a server (src/features/speaking/user-install.ts). */
  userInstall: UserInstallSetting;
  freeVoice: { chosen: boolean; fallback: boolean };
  removedGuildGraceMs: number;
  cache: { dir: string; maxBytes: number };
  /** Preset voices the operator lists in VOICES_FILE, besides the six documented ones. */
  extraVoices: PresetVoice[];
  logLevel: (typeof LOG_LEVELS)[number];
  shards?: 'auto' | number | undefined;
  dashboard?: DashboardConfig | undefined;
  /** Set in a shard process started by the manager: which shard of how many (discord.js's SHARDS, SHARD_COUNT). */
  shard?: { id: number; count: number } | undefined;
  engines: EnginesConfig;
}

/** The shard a process was started as by discord.js's ShardingManager (its SHARDING_MANAGER, SHARDS, SHARD_COUNT). */
function shardOf(env: NodeJS.ProcessEnv): Config['shard'] {
  if (env['SHARDING_MANAGER'] === undefined) return undefined;
  const id = Number(env['SHARDS']);
  const count = Number(env['SHARD_COUNT']);
  return Number.isInteger(id) && Number.isInteger(count) && id >= 0 && id < count ? { id, count } : undefined;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    // Each said once: entries that share a problem (FREE_VOICES=, has two empty ones) would repeat its line.
    const once = [...new Set(problems)];
    super(once.join('\n'));
    this.name = 'ConfigError';
    this.problems = once;
  }
}

function describeValue(name: string, value: unknown): string {
  if (value === undefined || value === '') return 'it is not set';
  if (SECRET_VARIABLES.has(name)) return `got a value of ${String(value).length} characters (not shown)`;
  if (name === 'DATABASE_URL')
    return `got ${JSON.stringify(describeDatabaseUrl(String(value)))} (only its scheme and host shown)`;
  return `got ${JSON.stringify(value)}`;
}

/** Reads and validates the environment once; each problem is one line, secrets described by length only. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string | undefined> = variables(env, Object.keys(EnvSchema.shape));
  // In a shard process, discord.js's manager has put the shard's own ID in SHARDS: it is not the operator's value.
  const shard = shardOf(env);
  if (env['SHARDING_MANAGER'] !== undefined) raw['SHARDS'] = undefined;
  const parsed = EnvSchema.safeParse(raw);
  const problems: string[] = [];
  const engines = readEngineVariables(variables(env, ENGINE_VARIABLES));
  let extraVoices: PresetVoice[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      problems.push(`${name} ${issue.message}; ${describeValue(name, raw[name])}`);
    }
  } else {
    const e = parsed.data;
    if ((e.VOICE_API_BASE_URL === undefined) !== (e.VOICE_API_KEY === undefined)) {
      const [missing, other] =
        e.VOICE_API_KEY === undefined
          ? ['VOICE_API_KEY', 'VOICE_API_BASE_URL']
          : ['VOICE_API_BASE_URL', 'VOICE_API_KEY'];
      problems.push(
        `${missing} must be set together with ${other} ` +
          '(or leave both unset to try SayBot against the built-in sandbox); it is not set',
      );
    }
    if (e.VOICES_FILE !== undefined) {
      try {
        extraVoices = readVoicesFile(e.VOICES_FILE);
      } catch (error) {
        problems.push(`VOICES_FILE ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const databaseUrlProblem = POSTGRES_URL.test(e.DATABASE_URL) ? postgresUrlProblem(e.DATABASE_URL) : undefined;
    if (databaseUrlProblem !== undefined) problems.push(`DATABASE_URL ${databaseUrlProblem}`);
    if (e.USER_INSTALL === 'allowlist' && e.USER_INSTALL_ALLOWLIST === undefined)
      problems.push(
        'USER_INSTALL_ALLOWLIST must list the user IDs allowed when USER_INSTALL is allowlist; it is not set',
      );
    if (e.ALLOWED_GUILDS_LEAVE === '1' && e.ALLOWED_GUILDS === undefined)
      problems.push('ALLOWED_GUILDS_LEAVE=1 confirms leaving the servers off ALLOWED_GUILDS, which is not set');
    if (e.DASHBOARD_URL !== undefined && e.DISCORD_CLIENT_SECRET === undefined)
      problems.push(
        'DISCORD_CLIENT_SECRET must be set when DASHBOARD_URL is (the OAuth2 client secret, Developer Portal, OAuth2 page); it is not set',
      );
  }
  problems.push(...engines.problems);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems.map((p) => `Configuration: ${p}`));

  const e = parsed.data;
  const budgetDefaults = defaultBudgets(e.VOICE_API_PLAN);
  const database: DatabaseTarget = POSTGRES_URL.test(e.DATABASE_URL)
    ? { kind: 'postgres', url: e.DATABASE_URL }
    : { kind: 'sqlite', path: e.DATABASE_URL.replace(/^(sqlite:|file:)/, '') };
  return {
    discord: {
      token: e.DISCORD_TOKEN,
      helperTokens: [...new Set(helperTokens(e.HELPER_BOT_TOKENS))],
      clientId: e.DISCORD_CLIENT_ID,
      guildId: e.DISCORD_GUILD_ID,
      apiBaseUrl: e.DISCORD_API_BASE_URL,
      cdnBaseUrl: e.DISCORD_CDN_BASE_URL,
    },
    ...(e.VOICE_API_BASE_URL !== undefined && e.VOICE_API_KEY !== undefined
      ? { voiceApi: { baseUrl: e.VOICE_API_BASE_URL, apiKey: e.VOICE_API_KEY } }
      : {}),
    plan: e.VOICE_API_PLAN,
    planCharacterLimit: PLAN_CHARACTER_LIMITS[e.VOICE_API_PLAN],
    voiceApiTimeoutMs: e.VOICE_API_TIMEOUT_SECONDS * 1000,
    maxCharsPerRequest: e.TTS_MAX_CHARS_PER_REQUEST,
    clipDownload: {
      allowedHosts: e.ATTACHMENT_HOSTS.split(','),
      maxBytes: e.CLONE_MAX_MB * 1024 * 1024,
      timeoutMs: 15_000,
    },
    voiceIdleTimeoutMs: e.VOICE_IDLE_TIMEOUT_SECONDS * 1000,
    databasePath: database.kind === 'sqlite' ? database.path : '',
    database,
    storeTimeouts: {
      deadlineMs: e.STORE_DEADLINE_MS,
      connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      lockMs: e.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAliveMs: e.DATABASE_KEEPALIVE_MS,
    },
    budgets: {
      guildMonthlyChars: e.BUDGET_GUILD_MONTHLY_CHARS ?? budgetDefaults.guildMonthlyChars,
      memberDailyChars: e.BUDGET_MEMBER_DAILY_CHARS ?? budgetDefaults.memberDailyChars,
      memberCooldownSeconds: e.BUDGET_MEMBER_COOLDOWN_SECONDS ?? budgetDefaults.memberCooldownSeconds,
    },
    botMonthlyChars: e.BUDGET_BOT_MONTHLY_CHARS ?? defaultBotMonthlyChars(e.VOICE_API_PLAN),
    allowedGuilds: e.ALLOWED_GUILDS === undefined ? undefined : [...new Set(e.ALLOWED_GUILDS.split(','))],
    allowedGuildsLeave: e.ALLOWED_GUILDS_LEAVE === '1',
    ownerIds: e.OWNER_IDS === undefined ? [] : [...new Set(e.OWNER_IDS.split(','))],
    userInstall:
      e.USER_INSTALL === 'allowlist'
        ? { mode: 'allowlist', users: [...new Set((e.USER_INSTALL_ALLOWLIST ?? '').split(','))] }
        : { mode: e.USER_INSTALL },
    freeVoice: {
      chosen: e.FREE_VOICE === 'on' || e.FREE_VOICE === 'chosen',
      // Naming a free voice for when the paid one may not speak (FREE_VOICES) asks for it to speak then: only off says no.
      fallback:
        e.FREE_VOICE === 'on' ||
        e.FREE_VOICE === 'fallback' ||
        (e.FREE_VOICE !== 'off' && Object.keys(engines.engines.freeVoices).length > 0),
    },
    queue: { guildSeconds: e.QUEUE_MAX_SECONDS, guildClips: e.QUEUE_MAX_CLIPS, memberRequests: e.QUEUE_MAX_PER_MEMBER },
    freeRequestsPerMinute: e.BUDGET_MEMBER_FREE_PER_MINUTE,
    voiceApiAudioLimits: {
      ...DEFAULT_AUDIO_LIMITS,
      secondsPerCharacter: e.VOICE_API_MAX_SECONDS_PER_CHAR,
      maxBytes: e.VOICE_API_MAX_AUDIO_MB * 1024 * 1024,
    },
    removedGuildGraceMs: e.FORGET_REMOVED_GUILD_AFTER_DAYS * 86_400_000,
    cache: { dir: e.CACHE_DIR, maxBytes: e.CACHE_MAX_MB * 1024 * 1024 },
    extraVoices,
    logLevel: e.LOG_LEVEL,
    // Each shard serves its own /metrics: METRICS_PORT + its shard ID.
    metricsPort: e.METRICS_PORT === undefined ? undefined : e.METRICS_PORT + (shard?.id ?? 0),
    shards: e.SHARDS,
    shard,
    dashboard:
      e.DASHBOARD_URL === undefined || e.DISCORD_CLIENT_SECRET === undefined
        ? undefined
        : {
            url: new URL(e.DASHBOARD_URL).origin,
            port: e.DASHBOARD_PORT,
            host: e.DASHBOARD_HOST,
            trustedProxy: e.DASHBOARD_TRUSTED_PROXY,
            clientSecret: e.DISCORD_CLIENT_SECRET,
            loginsPerMinute: e.DASHBOARD_LOGINS_PER_MINUTE,
          },
    engines: engines.engines,
  };
}

/** The secrets in a config, for the logger's value-based redaction. */
export function configSecrets(config: Config): string[] {
  return [
    config.discord.token,
    ...config.discord.helperTokens,
    ...(config.voiceApi ? [config.voiceApi.apiKey] : []),
    ...(config.dashboard ? [config.dashboard.clientSecret] : []),
    ...(config.database.kind === 'postgres' ? databaseUrlSecrets(config.database.url) : []),
    ...(config.engines.speechServer?.key === undefined ? [] : [config.engines.speechServer.key]),
  ];
}
