import { getCiphers } from 'node:crypto';
import { ApplicationFlags, DiscordAPIError, REST, Routes } from 'discord.js';
import {
  AuthenticationError,
  PermissionDeniedError,
  QuotaExceededError,
  VoiceApiError,
} from '../../core/api/errors.ts';
import { VoiceApiClient } from '../../core/api/client.ts';
import { ConfigError, loadConfig, type Config } from '../../core/config.ts';
import { Engines, type EngineStatus, type EnginesOptions } from '../../core/engines/engines.ts';
import { MESSAGE_CONTENT_WHERE } from '../../features/autoread/index.ts';
import { redactSecrets } from '../../core/log.ts';
import { publicBotProblem } from '../owner-application.ts';
import { botGuilds } from '../bot-guilds.ts';
import { DiscordLogin, type DoctorCheck } from '../../features/dashboard/index.ts';
import { checkFreeVoice } from './free-voice-check.ts';
import { checkHelpers } from './helper-check.ts';

const pass = (name: string, detail: string): DoctorCheck => ({ name, ok: true, detail });
const warn = (name: string, detail: string): DoctorCheck => ({ name, ok: true, warn: true, detail });
const fail = (name: string, detail: string): DoctorCheck => ({ name, ok: false, detail });
/** What went wrong, `secret` redacted. */
const said = (error: unknown, secret: string): string =>
  redactSecrets(error instanceof Error ? error.message : String(error), [secret]);
/** A check Discord could not answer: a warning saying why. */
const unchecked = (name: string, error: unknown, secret: string): DoctorCheck =>
  warn(name, `could not be checked: ${said(error, secret)}`);

const MIN_NODE = [22, 12] as const;

export function checkNode(version = process.versions.node): DoctorCheck {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    name: 'Node.js',
    ok,
    detail: ok
      ? `${version}${major < 24 ? ' (works; Node 24 LTS is the supported version)' : ''}`
      : `${version} is too old: install Node.js 24 LTS (voice needs 22.12 or newer)`,
    ...(ok && major < 24 ? { warn: true } : {}),
  };
}

export async function checkOpus(): Promise<DoctorCheck> {
  try {
    // A CommonJS addon: under Node its exports sit on `default`.
    const { default: opus } = await import('@discordjs/opus');
    new opus.OpusEncoder(48_000, 2).encode(Buffer.alloc(3840));
    return pass('Opus encoder', '@discordjs/opus (native)');
  } catch {
    try {
      await import('opusscript');
      return warn(
        'Opus encoder',
        'opusscript (pure JS fallback: works, uses more CPU). Reinstall with build tools (python3, make, g++) for @discordjs/opus',
      );
    } catch {
      return fail('Opus encoder', 'none found: run `npm ci` again');
    }
  }
}

export async function checkEncryption(): Promise<DoctorCheck> {
  const aes = getCiphers().includes('aes-256-gcm');
  const xchacha = await import('@noble/ciphers/chacha.js').then(
    () => true,
    () => false,
  );
  const modes = [
    aes ? 'aead_aes256_gcm_rtpsize' : undefined,
    xchacha ? 'aead_xchacha20_poly1305_rtpsize' : undefined,
  ].filter(Boolean);
  return {
    name: 'Voice encryption',
    ok: xchacha,
    detail: xchacha ? modes.join(', ') : 'no XChaCha20 cipher: run `npm ci` again (@noble/ciphers)',
  };
}

const CONFIG_VALID = pass('Configuration', 'every variable is valid');

export function checkConfig(env: NodeJS.ProcessEnv): { result: DoctorCheck; config?: Config } {
  try {
    const config = loadConfig(env);
    return { result: CONFIG_VALID, config };
  } catch (error) {
    const detail =
      error instanceof ConfigError
        ? error.problems.map((p) => p.replace(/^Configuration: /, '')).join('\n  ')
        : String(error);
    return { result: fail('Configuration', detail) };
  }
}

/** Discord's REST API as the bot reaches it, answering at once or not at all (no retries). */
function discordRest(config: Config): REST {
  return new REST({
    timeout: 10_000,
    retries: 0,
    ...(config.discord.apiBaseUrl ? { api: config.discord.apiBaseUrl } : {}),
  }).setToken(config.discord.token);
}

export async function checkDiscordToken(config: Config): Promise<DoctorCheck> {
  const rest = discordRest(config);
  try {
    const me = (await rest.get(Routes.user())) as { username?: string; id?: string };
    return pass('Discord token', `logged in as ${me.username ?? '?'} (${me.id ?? '?'})`);
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401)
      return fail(
        'Discord token',
        'Discord refused DISCORD_TOKEN: reset the token on the Bot page of the Developer Portal and update it',
      );
    return fail('Discord token', `could not reach Discord: ${said(error, config.discord.token)}`);
  }
}

/** Whether the application may use Message Content (its flags); without it SayBot runs without auto-read. */
export async function checkMessageContentIntent(config: Config): Promise<DoctorCheck> {
  const name = 'Message Content intent';
  const rest = discordRest(config);
  try {
    const app = (await rest.get(Routes.currentApplication())) as { flags?: number };
    const flags = app.flags ?? 0;
    if ((flags & (ApplicationFlags.GatewayMessageContent | ApplicationFlags.GatewayMessageContentLimited)) !== 0)
      return pass(name, 'enabled: auto-read (/autoread) can read chat');
    return warn(
      name,
      `not enabled: SayBot runs without auto-read. To read chat aloud, enable it in the ${MESSAGE_CONTENT_WHERE} (a verified bot in 100+ servers must apply for it)`,
    );
  } catch (error) {
    return unchecked(name, error, config.discord.token);
  }
}

/** A Public Bot with no ALLOWED_GUILDS fails: each server added gets budgets out of the owner's month. */
export async function checkPublicBot(config: Config): Promise<DoctorCheck> {
  const name = 'Public Bot';
  try {
    const app = (await discordRest(config).get(Routes.currentApplication())) as { bot_public?: boolean };
    const problem = publicBotProblem(app.bot_public, config.allowedGuilds !== undefined);
    if (problem !== undefined) return fail(name, problem);
    if (config.allowedGuilds !== undefined)
      return pass(name, `SayBot serves only the ${config.allowedGuilds.length} server(s) in ALLOWED_GUILDS`);
    return pass(name, 'off: only you can add SayBot to a server');
  } catch (error) {
    return unchecked(name, error, config.discord.token);
  }
}

/** The most servers the check names in each of its lists (the count says how many there are). */
const GUILDS_NAMED = 25;

const named = (items: readonly string[]): string =>
  items.slice(0, GUILDS_NAMED).join(', ') +
  (items.length > GUILDS_NAMED ? ` and ${items.length - GUILDS_NAMED} more` : '');

/** With ALLOWED_GUILDS: servers SayBot is in that it lacks, and listed IDs of no server SayBot is in (typos). */
export async function checkServers(config: Config): Promise<DoctorCheck | undefined> {
  const list = config.allowedGuilds;
  if (list === undefined) return undefined;
  const name = 'Servers';
  try {
    const { guilds, complete } = await botGuilds(discordRest(config));
    const listed = new Set(list);
    const unlisted = guilds.filter((g) => !listed.has(g.id)).map((g) => `${g.name} (${g.id})`);
    const present = new Set(guilds.map((g) => g.id));
    const absent = complete ? list.filter((id) => !present.has(id)) : [];
    const read = complete ? '' : ` (read the first ${guilds.length} only)`;
    const notIn = absent.length === 0 ? '' : `. Listed, but SayBot is in no such server: ${named(absent)}`;
    if (unlisted.length === 0)
      return {
        name,
        ok: true,
        ...(absent.length > 0 ? { warn: true } : {}),
        detail: `SayBot is in ${guilds.length} server(s)${read}, every one of them in ALLOWED_GUILDS${notIn}`,
      };
    if (config.allowedGuildsLeave)
      return fail(
        name,
        `With ALLOWED_GUILDS_LEAVE=1, SayBot will leave at its next start the ${unlisted.length} server(s) it is in that ALLOWED_GUILDS lacks: ${named(unlisted)}. Their data is deleted FORGET_REMOVED_GUILD_AFTER_DAYS later: add any that is yours to ALLOWED_GUILDS first${notIn}`,
      );
    return warn(
      name,
      `${unlisted.length} server(s) SayBot is in are not in ALLOWED_GUILDS: ${named(unlisted)}. SayBot serves none of them and leaves none of them: add any that is yours to ALLOWED_GUILDS; set ALLOWED_GUILDS_LEAVE=1 to leave the others${notIn}`,
    );
  } catch (error) {
    return unchecked(name, error, config.discord.token);
  }
}

/** Reaches the Voice API with a request it must refuse (no text), so that no character is spent. */
export async function checkVoiceApi(config: Config): Promise<DoctorCheck> {
  const name = 'Voice API';
  if (!config.voiceApi)
    return warn(name, 'not configured: SayBot will use its built-in sandbox (test tones, not real speech)');
  const client = new VoiceApiClient({ ...config.voiceApi, maxRetries: 0, timeouts: { totalMs: 15_000 } });
  try {
    const access = await client.checkAccess();
    const usage =
      access.usage?.remaining === undefined
        ? ''
        : `; ${access.usage.remaining.toLocaleString('en-US')} characters left this month`;
    return pass(name, `reachable at ${config.voiceApi.baseUrl}, key accepted${usage}`);
  } catch (error) {
    if (error instanceof AuthenticationError)
      return fail(
        name,
        'the service rejected VOICE_API_KEY (invalid or deactivated): issue a new key in the dashboard under API keys',
      );
    if (error instanceof PermissionDeniedError)
      return fail(name, 'the key works but its plan has no API access: a Creator plan or higher is needed');
    if (error instanceof QuotaExceededError) return fail(name, "the key works but this month's characters are used up");
    const what = error instanceof VoiceApiError ? error.message : String(error);
    return fail(name, `could not use ${config.voiceApi.baseUrl}: ${redactSecrets(what, [config.voiceApi.apiKey])}`);
  } finally {
    await client.close();
  }
}

const ENGINE_CHECKS = {
  voicevox: { name: 'VOICEVOX engine', variable: 'VOICEVOX_URL' },
  speech: { name: 'Speech server', variable: 'SPEECH_SERVER_URL' },
} as const;

/** One engine's line: whether it answers, how many voices it offers, and what to do when it fails. */
function engineResult(status: EngineStatus): DoctorCheck {
  const { name, variable } = ENGINE_CHECKS[status.engine];
  if (!status.answers)
    return fail(
      name,
      `could not use ${status.url}: ${status.lastFailure ?? 'no answer'}. Start the engine (docs/guide-owners.md, ` +
        `"Speech engines") or correct ${variable}; until it answers, its voices are not offered`,
    );
  if (status.voices === 0)
    return warn(
      name,
      status.engine === 'speech'
        ? `answers at ${status.url} but offers no voice: it lists none at /audio/voices, so name them in SPEECH_SERVER_VOICES (af_heart:en,...)`
        : `answers at ${status.url} but offers no voice that reads text: install a voice model in the engine`,
    );
  return pass(
    name,
    `answers at ${status.url}, ${status.voices} voice(s) offered${status.down ? ' (marked down by a recent failure)' : ''}`,
  );
}

/** The owner's engines, one line each, and the FREE_VOICES voices an engine that answers does not offer (`unoffered`:
 * eSpeak NG speaks their languages); such a voice makes its engine's line a warning. */
export async function checkEngines(
  config: Config,
  options: EnginesOptions = {},
): Promise<{ lines: DoctorCheck[]; unoffered: Set<string> }> {
  const engines = new Engines(config.engines, {
    deadlines: { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, stallMs: 10_000 },
    ...options,
  });
  try {
    const statuses = await engines.status();
    const unoffered = new Set<string>();
    const lines = statuses.map((status) => {
      const result = engineResult(status);
      if (!status.answers) return result;
      const wanted = Object.entries(config.engines.freeVoices).flatMap(([language, choice]) =>
        choice.kind === 'engine' && choice.engine === status.engine && engines.voice(choice.voice) === undefined
          ? [{ language, voice: choice.voice }]
          : [],
      );
      if (wanted.length === 0) return result;
      for (const { voice } of wanted) unoffered.add(voice);
      return {
        ...result,
        warn: true,
        detail: `${result.detail}; FREE_VOICES names what it does not offer (${wanted.map((w) => `${w.language}=${w.voice}`).join(', ')}): those languages fall to eSpeak NG`,
      };
    });
    return { lines, unoffered };
  } finally {
    await engines.close();
  }
}

/** The dashboard: whether Discord accepts DISCORD_CLIENT_SECRET (a doomed code exchange tells), and the redirect. */
export async function checkDashboard(config: Config): Promise<DoctorCheck> {
  const name = 'Dashboard';
  const dashboard = config.dashboard;
  if (dashboard === undefined) return pass(name, 'off (set DASHBOARD_URL to serve it)');
  const redirect = `${dashboard.url}/callback`;
  const login = new DiscordLogin(
    config.discord.clientId,
    dashboard.clientSecret,
    redirect,
    config.discord.apiBaseUrl ?? 'https://discord.com/api',
  );
  try {
    if (!(await login.clientAccepted()))
      return fail(
        name,
        'Discord refused DISCORD_CLIENT_SECRET with DISCORD_CLIENT_ID: copy the client secret from the OAuth2 page of the Developer Portal (reset it if unsure)',
      );
  } catch (error) {
    return warn(name, `the client secret could not be checked: ${said(error, dashboard.clientSecret)}`);
  }
  return pass(
    name,
    `${dashboard.url}, listening on ${dashboard.host}:${dashboard.port}; add ${redirect} to OAuth2 > Redirects in the Developer Portal`,
  );
}

/** Every check, in the order a newcomer would fix them. */
export async function runChecks(env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  const { result, config } = checkConfig(env);
  return [...(await machineChecks()), result, ...(config ? await configuredChecks(config) : [])];
}

/** `npm run doctor`'s checks of a running bot's configuration (the owner console runs these). */
export async function runConfiguredChecks(config: Config): Promise<DoctorCheck[]> {
  return [...(await machineChecks()), CONFIG_VALID, ...(await configuredChecks(config))];
}

/** What this machine gives SayBot: Node.js, Opus, voice encryption. */
async function machineChecks(): Promise<DoctorCheck[]> {
  return [checkNode(), await checkOpus(), await checkEncryption()];
}

/** What a valid configuration reaches: Discord, the Voice API, the owner's speech engines, the dashboard. */
async function configuredChecks(config: Config): Promise<DoctorCheck[]> {
  const results: DoctorCheck[] = [];
  const token = await checkDiscordToken(config);
  results.push(token);
  // The application's flags need a token Discord accepts; a refused one is reported once, above.
  if (token.ok) {
    results.push(await checkMessageContentIntent(config), await checkPublicBot(config));
    const servers = await checkServers(config);
    if (servers !== undefined) results.push(servers);
    results.push(...(await checkHelpers(config)));
  }
  results.push(await checkVoiceApi(config));
  const engines = await checkEngines(config);
  results.push(...engines.lines);
  results.push(checkFreeVoice(config, undefined, engines.unoffered));
  results.push(await checkDashboard(config));
  return results;
}

export function formatResults(results: readonly DoctorCheck[]): string {
  const lines = results.map((r) => `${r.ok ? (r.warn ? '!' : '✓') : '✗'} ${r.name}: ${r.detail}`);
  const failed = results.filter((r) => !r.ok).length;
  lines.push(
    failed === 0 ? 'All checks passed.' : `${failed} check(s) failed: fix them and run \`npm run doctor\` again.`,
  );
  return lines.join('\n');
}
