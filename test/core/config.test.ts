import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, configSecrets, describeDatabase, environmentSecrets, loadConfig } from '../../src/core/config.ts';
import { checkConfig } from '../../src/app/doctor/checks.ts';

// Built at run time so no token-shaped literal sits in the repository.
const token = ['TEST', 'bot', 'token-value-do-not-use'].join('.');
const apiKey = 'sk_test_' + 'x'.repeat(24);

const base = { DISCORD_TOKEN: token, DISCORD_CLIENT_ID: '123456789012345678' };

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(base);
    expect(config.plan).toBe('creator');
    expect(config.planCharacterLimit).toBe(300_000);
    expect(config.databasePath).toBe('./data/saybot.sqlite');
    expect(config.logLevel).toBe('info');
    expect(config.voiceApi).toBeUndefined();
    expect(config.maxCharsPerRequest).toBe(1000);
  });

  it('reads every variable and strips trailing slashes from URLs', () => {
    const config = loadConfig({
      ...base,
      DISCORD_GUILD_ID: '876543210987654321',
      DISCORD_API_BASE_URL: 'http://127.0.0.1:9999/api/',
      VOICE_API_BASE_URL: 'https://voice.example/',
      VOICE_API_KEY: apiKey,
      VOICE_API_PLAN: 'business',
      DATABASE_URL: 'sqlite:/var/lib/saybot/db.sqlite',
      LOG_LEVEL: 'debug',
    });
    expect(config.discord).toEqual({
      token,
      helperTokens: [],
      clientId: '123456789012345678',
      guildId: '876543210987654321',
      apiBaseUrl: 'http://127.0.0.1:9999/api',
    });
    expect(config.voiceApi).toEqual({ baseUrl: 'https://voice.example', apiKey });
    expect(config.planCharacterLimit).toBe(4_000_000);
    expect(config.databasePath).toBe('/var/lib/saybot/db.sqlite');
  });

  it('names each missing or malformed variable in one line', () => {
    const problems = problemsOf({ DISCORD_CLIENT_ID: 'abc', VOICE_API_PLAN: 'free', LOG_LEVEL: 'loud' });
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.includes('DISCORD_TOKEN'))).toMatch(/is required.*not set/);
    expect(problems.find((p) => p.includes('DISCORD_CLIENT_ID'))).toMatch(/17 to 20 digits.*got "abc"/);
    expect(problems.find((p) => p.includes('VOICE_API_PLAN'))).toMatch(/creator, pro, business.*got "free"/);
    expect(problems.find((p) => p.includes('LOG_LEVEL'))).toMatch(/got "loud"/);
    for (const p of problems) expect(p).not.toContain('\n');
  });

  it('never prints a secret value, even a malformed one', () => {
    const badToken = 'not a token but secret-ish words';
    const badKey = 'short k';
    const problems = problemsOf({
      ...base,
      DISCORD_TOKEN: badToken,
      VOICE_API_BASE_URL: 'http://x.test',
      VOICE_API_KEY: badKey,
    });
    const text = problems.join('\n');
    expect(text).toContain('DISCORD_TOKEN');
    expect(text).toContain('VOICE_API_KEY');
    expect(text).not.toContain(badToken);
    expect(text).not.toContain(badKey);
    expect(text).toMatch(/\d+ characters \(not shown\)/);
  });

  it('reads USER_INSTALL (default off) and its allow-list, and names a wrong value in one line', () => {
    expect(loadConfig(base).userInstall).toEqual({ mode: 'off' });
    expect(loadConfig({ ...base, USER_INSTALL: 'everyone' }).userInstall).toEqual({ mode: 'everyone' });
    expect(
      loadConfig({
        ...base,
        USER_INSTALL: 'allowlist',
        USER_INSTALL_ALLOWLIST: '123456789012345678,223456789012345678',
      }).userInstall,
    ).toEqual({ mode: 'allowlist', users: ['123456789012345678', '223456789012345678'] });
    expect(problemsOf({ ...base, USER_INSTALL: 'some' })).toEqual([
      expect.stringMatching(/^Configuration: USER_INSTALL must be one of off, allowlist, everyone; got "some"$/),
    ]);
    expect(problemsOf({ ...base, USER_INSTALL: 'allowlist' })).toEqual([
      expect.stringMatching(/USER_INSTALL_ALLOWLIST must list the user IDs/),
    ]);
    expect(problemsOf({ ...base, USER_INSTALL: 'allowlist', USER_INSTALL_ALLOWLIST: 'alice' })).toEqual([
      expect.stringMatching(/^Configuration: USER_INSTALL_ALLOWLIST must be a comma-separated list of user IDs/),
    ]);
  });

  it('reads ALLOWED_GUILDS (unset: any server) and BUDGET_BOT_MONTHLY_CHARS (unset: nine tenths of the plan), naming a wrong value in one line', () => {
    expect(loadConfig(base).allowedGuilds).toBeUndefined();
    expect(
      loadConfig({ ...base, ALLOWED_GUILDS: '123456789012345678,223456789012345678,123456789012345678' }).allowedGuilds,
    ).toEqual(['123456789012345678', '223456789012345678']);
    expect(problemsOf({ ...base, ALLOWED_GUILDS: '123456789012345678;my server' })).toEqual([
      'Configuration: ALLOWED_GUILDS must be a comma-separated list of server IDs (17 to 20 digits each); got "123456789012345678;my server"',
    ]);
    expect(loadConfig(base).botMonthlyChars).toBe(270_000);
    expect(loadConfig({ ...base, VOICE_API_PLAN: 'pro' }).botMonthlyChars).toBe(630_000);
    expect(loadConfig({ ...base, BUDGET_BOT_MONTHLY_CHARS: '0' }).botMonthlyChars).toBe(0);
    expect(loadConfig({ ...base, BUDGET_BOT_MONTHLY_CHARS: '250000' }).botMonthlyChars).toBe(250_000);
    expect(problemsOf({ ...base, BUDGET_BOT_MONTHLY_CHARS: 'lots' })).toEqual([
      expect.stringMatching(
        /^Configuration: BUDGET_BOT_MONTHLY_CHARS must be a whole number from 0 to 100000000; got "lots"$/,
      ),
    ]);
  });

  it("reads OWNER_IDS, the owners besides the application's (unset: none)", () => {
    expect(loadConfig(base).ownerIds).toEqual([]);
    expect(
      loadConfig({ ...base, OWNER_IDS: '123456789012345678,223456789012345678,123456789012345678' }).ownerIds,
    ).toEqual(['123456789012345678', '223456789012345678']);
    expect(problemsOf({ ...base, OWNER_IDS: 'me' })).toEqual([
      'Configuration: OWNER_IDS must be a comma-separated list of user IDs (17 to 20 digits each); got "me"',
    ]);
  });

  it('reads ALLOWED_GUILDS_LEAVE, the confirmation that SayBot may leave the servers off the list (unset: it leaves none)', () => {
    const list = { ...base, ALLOWED_GUILDS: '123456789012345678' };
    expect(loadConfig(list).allowedGuildsLeave).toBe(false);
    expect(loadConfig({ ...list, ALLOWED_GUILDS_LEAVE: '' }).allowedGuildsLeave).toBe(false);
    expect(loadConfig({ ...list, ALLOWED_GUILDS_LEAVE: '0' }).allowedGuildsLeave).toBe(false);
    expect(loadConfig({ ...list, ALLOWED_GUILDS_LEAVE: '1' }).allowedGuildsLeave).toBe(true);
    expect(problemsOf({ ...list, ALLOWED_GUILDS_LEAVE: 'yes' })).toEqual([
      expect.stringMatching(/^Configuration: ALLOWED_GUILDS_LEAVE must be 1 .* or 0 .*; got "yes"$/),
    ]);
    // Nothing to leave by: a confirmation without a list is a mistake worth naming.
    expect(problemsOf({ ...base, ALLOWED_GUILDS_LEAVE: '1' })).toEqual([
      'Configuration: ALLOWED_GUILDS_LEAVE=1 confirms leaving the servers off ALLOWED_GUILDS, which is not set',
    ]);
  });

  it('reads the dashboard (off unless DASHBOARD_URL is set), one line per problem, never the client secret', () => {
    expect(loadConfig(base).dashboard).toBeUndefined();
    const secret = 'dashboard-secret-0123456789';
    expect(
      loadConfig({ ...base, DASHBOARD_URL: 'https://saybot.example.org/', DISCORD_CLIENT_SECRET: secret }).dashboard,
    ).toEqual({
      url: 'https://saybot.example.org',
      port: 8080,
      host: '127.0.0.1',
      clientSecret: secret,
    });
    expect(
      loadConfig({ ...base, DASHBOARD_URL: 'http://localhost:3000', DISCORD_CLIENT_SECRET: secret }).dashboard?.url,
    ).toBe('http://localhost:3000');
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ DASHBOARD_URL: 'http://saybot.example.org', DISCORD_CLIENT_SECRET: secret })).toEqual([
      'Configuration: DASHBOARD_URL must use https:// outside localhost (put SayBot behind an https proxy; docs/guide-owners.md, "Dashboard"); got "http://saybot.example.org"',
    ]);
    expect(problems({ DASHBOARD_URL: 'https://example.org/saybot', DISCORD_CLIENT_SECRET: secret })[0]).toMatch(
      /^Configuration: DASHBOARD_URL must be an origin only/,
    );
    expect(problems({ DASHBOARD_URL: 'https://saybot.example.org' })).toEqual([
      'Configuration: DISCORD_CLIENT_SECRET must be set when DASHBOARD_URL is (the OAuth2 client secret, Developer Portal, OAuth2 page); it is not set',
    ]);
    const short = problems({ DASHBOARD_URL: 'https://saybot.example.org', DISCORD_CLIENT_SECRET: 'tiny secret!' });
    expect(short).toEqual([
      'Configuration: DISCORD_CLIENT_SECRET must be the OAuth2 client secret from the Developer Portal (OAuth2 page); got a value of 12 characters (not shown)',
    ]);
    expect(problems({ DASHBOARD_PORT: '70000' })[0]).toMatch(/^Configuration: DASHBOARD_PORT must be a whole number/);
    expect(
      loadConfig({
        ...base,
        DASHBOARD_URL: 'https://a.example',
        DISCORD_CLIENT_SECRET: secret,
        DASHBOARD_TRUSTED_PROXY: '127.0.0.1',
      }).dashboard?.trustedProxy,
    ).toBe('127.0.0.1');
    const dashboardOn = { ...base, DASHBOARD_URL: 'https://a.example', DISCORD_CLIENT_SECRET: secret };
    expect(loadConfig(dashboardOn).dashboard?.loginsPerMinute).toBeUndefined();
    expect(loadConfig({ ...dashboardOn, DASHBOARD_LOGINS_PER_MINUTE: '200' }).dashboard?.loginsPerMinute).toBe(200);
    expect(problems({ DASHBOARD_LOGINS_PER_MINUTE: '0' })[0]).toMatch(
      /^Configuration: DASHBOARD_LOGINS_PER_MINUTE must be a whole number/,
    );
    expect(problems({ DASHBOARD_TRUSTED_PROXY: 'proxy.local' })[0]).toMatch(
      /^Configuration: DASHBOARD_TRUSTED_PROXY must be the IP address/,
    );
    expect(
      configSecrets(loadConfig({ ...base, DASHBOARD_URL: 'https://a.example', DISCORD_CLIENT_SECRET: secret })),
    ).toContain(secret);
  });

  it('requires the Voice API URL and key together', () => {
    expect(problemsOf({ ...base, VOICE_API_KEY: apiKey })[0]).toMatch(/VOICE_API_BASE_URL must be set together/);
    expect(problemsOf({ ...base, VOICE_API_BASE_URL: 'http://127.0.0.1:1' })[0]).toMatch(/VOICE_API_KEY must be set/);
  });

  it('rejects a non-http URL and an out-of-range number', () => {
    const problems = problemsOf({ ...base, DISCORD_API_BASE_URL: 'ftp://x', TTS_MAX_CHARS_PER_REQUEST: '3' });
    expect(problems.join('\n')).toMatch(/DISCORD_API_BASE_URL must be an http/);
    expect(problems.join('\n')).toMatch(/TTS_MAX_CHARS_PER_REQUEST must be a whole number from 50 to 10000; got "3"/);
  });

  it('reads budgets and the cache (0: no limit; unset: sized from the plan; 500 MB under ./data/cache by default)', () => {
    const defaults = loadConfig(base);
    // Creator (the default plan, 300,000 a month): a third a server, 1/150 a member a day, 3 s between paid requests.
    expect(defaults.budgets).toEqual({ guildMonthlyChars: 100_000, memberDailyChars: 2000, memberCooldownSeconds: 3 });
    expect(loadConfig({ ...base, VOICE_API_PLAN: 'pro' }).budgets).toEqual({
      guildMonthlyChars: 233_300,
      memberDailyChars: 4600,
      memberCooldownSeconds: 3,
    });
    expect(loadConfig({ ...base, VOICE_API_PLAN: 'business' }).budgets).toEqual({
      guildMonthlyChars: 1_333_300,
      memberDailyChars: 26_600,
      memberCooldownSeconds: 3,
    });
    const none = loadConfig({
      ...base,
      BUDGET_GUILD_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_DAILY_CHARS: '0',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
    });
    expect(none.budgets).toEqual({ guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 });
    // An empty value in .env is unset: the default applies.
    expect(loadConfig({ ...base, BUDGET_MEMBER_DAILY_CHARS: '' }).budgets.memberDailyChars).toBe(2000);
    expect(defaults.cache).toEqual({ dir: './data/cache', maxBytes: 500 * 1024 * 1024 });
    const set = loadConfig({
      ...base,
      BUDGET_GUILD_MONTHLY_CHARS: '50000',
      BUDGET_MEMBER_DAILY_CHARS: '2000',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '10',
      CACHE_DIR: '/var/cache/saybot',
      CACHE_MAX_MB: '64',
    });
    expect(set.budgets).toEqual({ guildMonthlyChars: 50_000, memberDailyChars: 2000, memberCooldownSeconds: 10 });
    expect(set.cache).toEqual({ dir: '/var/cache/saybot', maxBytes: 64 * 1024 * 1024 });
  });

  it('reads the queue bounds (0: no limit; 180 s and 20 clips a server, 3 requests a member by default) and names a bad one', () => {
    expect(loadConfig(base).queue).toEqual({ guildSeconds: 180, guildClips: 20, memberRequests: 3 });
    expect(
      loadConfig({ ...base, QUEUE_MAX_SECONDS: '0', QUEUE_MAX_CLIPS: '5', QUEUE_MAX_PER_MEMBER: '0' }).queue,
    ).toEqual({ guildSeconds: 0, guildClips: 5, memberRequests: 0 });
    const problems = problemsOf({ ...base, QUEUE_MAX_PER_MEMBER: 'many' });
    expect(problems).toEqual([
      expect.stringMatching(/^Configuration: QUEUE_MAX_PER_MEMBER must be a whole number from 0 to 1000; got "many"$/),
    ]);
  });

  it('reads the free-request rate (10 a minute by default, 0: no limit) and the audio bounds (1 s a character, 64 MB), naming a bad one', () => {
    expect(loadConfig(base).freeRequestsPerMinute).toBe(10);
    expect(loadConfig(base).voiceApiAudioLimits).toEqual({
      secondsPerCharacter: 1,
      minSeconds: 30,
      maxBytes: 64 * 1024 * 1024,
    });
    const set = loadConfig({
      ...base,
      BUDGET_MEMBER_FREE_PER_MINUTE: '0',
      VOICE_API_MAX_SECONDS_PER_CHAR: '3',
      VOICE_API_MAX_AUDIO_MB: '8',
    });
    expect(set.freeRequestsPerMinute).toBe(0);
    expect(set.voiceApiAudioLimits).toEqual({ secondsPerCharacter: 3, minSeconds: 30, maxBytes: 8 * 1024 * 1024 });
    expect(problemsOf({ ...base, VOICE_API_MAX_SECONDS_PER_CHAR: '0.5' })).toEqual([
      expect.stringMatching(
        /^Configuration: VOICE_API_MAX_SECONDS_PER_CHAR must be a whole number from 1 to 60; got "0.5"$/,
      ),
    ]);
  });

  it("reads how long a removed server's data stays (30 days by default, 1 to 3650) and names a bad value", () => {
    expect(loadConfig(base).removedGuildGraceMs).toBe(30 * 86_400_000);
    expect(loadConfig({ ...base, FORGET_REMOVED_GUILD_AFTER_DAYS: '7' }).removedGuildGraceMs).toBe(7 * 86_400_000);
    expect(problemsOf({ ...base, FORGET_REMOVED_GUILD_AFTER_DAYS: '0' })).toEqual([
      expect.stringMatching(
        /^Configuration: FORGET_REMOVED_GUILD_AFTER_DAYS must be a whole number from 1 to 3650; got "0"$/,
      ),
    ]);
  });

  it('names each malformed budget or cache setting in its own line', () => {
    const problems = problemsOf({
      ...base,
      BUDGET_MEMBER_DAILY_CHARS: '-5',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '1.5',
      CACHE_MAX_MB: 'lots',
    });
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.includes('BUDGET_MEMBER_DAILY_CHARS'))).toMatch(
      /whole number from 0 to 100000000; got "-5"/,
    );
    expect(problems.find((p) => p.includes('BUDGET_MEMBER_COOLDOWN_SECONDS'))).toMatch(
      /whole number from 0 to 86400; got "1.5"/,
    );
    expect(problems.find((p) => p.includes('CACHE_MAX_MB'))).toMatch(/got "lots"/);
  });

  it('reads the store deadline and PostgreSQL timeouts (defaults, values), and names a wrong one', () => {
    expect(loadConfig(base).storeTimeouts).toEqual({
      deadlineMs: 5000,
      connectMs: 5000,
      statementMs: 15_000,
      lockMs: 4000,
      idleInTransactionMs: 15_000,
      keepAliveMs: 10_000,
    });
    expect(
      loadConfig({ ...base, STORE_DEADLINE_MS: '2500', DATABASE_LOCK_TIMEOUT_MS: '800' }).storeTimeouts,
    ).toMatchObject({ deadlineMs: 2500, lockMs: 800 });
    const problems = problemsOf({ ...base, STORE_DEADLINE_MS: 'soon', DATABASE_KEEPALIVE_MS: '5' });
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.includes('STORE_DEADLINE_MS'))).toMatch(/got "soon"/);
    expect(problems.find((p) => p.includes('DATABASE_KEEPALIVE_MS'))).toMatch(/whole number from 1000/);
  });

  it('reads SHARDS (auto or a count), and in a shard process the shard the manager started instead', () => {
    expect(loadConfig(base).shards).toBeUndefined();
    expect(loadConfig({ ...base, SHARDS: 'auto' }).shards).toBe('auto');
    expect(loadConfig({ ...base, SHARDS: '4' }).shards).toBe(4);
    expect(() => loadConfig({ ...base, SHARDS: 'many' })).toThrow(
      /^Configuration: SHARDS must be auto or a whole number from 1 to 1000; got "many"$/,
    );
    // discord.js's ShardingManager puts the shard's ID in SHARDS: not a request for more shards.
    const shard = loadConfig({
      ...base,
      SHARDING_MANAGER: 'true',
      SHARDS: '1',
      SHARD_COUNT: '2',
      METRICS_PORT: '9464',
    });
    expect(shard).toMatchObject({ shard: { id: 1, count: 2 }, metricsPort: 9465 });
    expect(shard.shards).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    const config = loadConfig({ ...base, DISCORD_GUILD_ID: '', VOICE_API_PLAN: '' });
    expect(config.discord.guildId).toBeUndefined();
    expect(config.plan).toBe('creator');
  });
});

describe('VOICES_FILE', () => {
  // The folders made here go with the file's last test: left behind, the suite's temporary folder (memory, where the
  // host has it: test/support/memory-tmpdir.ts) would keep them.
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const withFile = (content: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'saybot-voices-'));
    dirs.push(dir);
    const file = path.join(dir, 'voices.json');
    writeFileSync(file, content);
    return file;
  };

  it('adds the listed voices, with language and gender read from the ID', () => {
    const file = withFile(JSON.stringify([{ id: 'voice-b-de-m-01', character: 'deep male newsreader' }]));
    expect(loadConfig({ ...base, VOICES_FILE: file }).extraVoices).toEqual([
      { id: 'voice-b-de-m-01', language: 'de', gender: 'm', character: 'deep male newsreader' },
    ]);
    expect(loadConfig(base).extraVoices).toEqual([]);
  });

  it('names the entry that is wrong, and a file that is not JSON', () => {
    const bad = withFile(
      JSON.stringify([
        { id: 'voice-b-de-m-01', character: 'ok' },
        { id: 'clone_1', character: 'x' },
      ]),
    );
    expect(problemsOf({ ...base, VOICES_FILE: bad })).toEqual([
      expect.stringMatching(/^Configuration: VOICES_FILE entry 1\.id must be a preset voice ID/),
    ]);
    expect(problemsOf({ ...base, VOICES_FILE: withFile('[{') })).toEqual([
      expect.stringMatching(/VOICES_FILE is not valid JSON/),
    ]);
  });

  it('accepts :memory: as the database (for tests)', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'sqlite::memory:' }).databasePath).toBe(':memory:');
  });

  it('selects PostgreSQL for a postgres:// URL, SQLite otherwise, and describes it without the password', () => {
    const url = 'postgres://saybot:s3cret-pw@db.internal:5432/saybot';
    const config = loadConfig({ ...base, DATABASE_URL: url });
    expect(config.database).toEqual({ kind: 'postgres', url });
    expect(describeDatabase(config.database)).toBe('postgres://db.internal:5432');
    expect(configSecrets(config)).toEqual(expect.arrayContaining([url, 's3cret-pw']));
    expect(loadConfig({ ...base, DATABASE_URL: 'postgresql://h/db' }).database.kind).toBe('postgres');
    expect(loadConfig(base).database).toEqual({ kind: 'sqlite', path: './data/saybot.sqlite' });
    expect(problemsOf({ ...base, DATABASE_URL: 'mysql://h/db' })).toHaveLength(1);
  });

  describe('DATABASE_URL is a secret in every message: scheme and host only', () => {
    const password = 's3cret-pw-Zq9';
    const malformed = [
      `postgres://saybot:${password} x@db.internal:5432/saybot`,
      `postgres:/saybot:${password}@db.internal/saybot`,
      `mysql://saybot:${password}@db.internal/saybot`,
      `postgres://saybot:${password}@db.internal:5432/saybot with space`,
    ];
    it.each(malformed)('a malformed URL is named by scheme and host, never with its password (%#)', (url) => {
      const problems = problemsOf({ ...base, DATABASE_URL: url });
      expect(problems).toHaveLength(1);
      const line = problems[0] ?? '';
      expect(line).toMatch(/^Configuration: DATABASE_URL /);
      expect(line).not.toContain(password);
      expect(line).not.toContain('saybot:');
      expect(line).toContain('db.internal');
      const doctor = checkConfig({ ...base, DATABASE_URL: url }).result;
      expect(doctor.ok).toBe(false);
      expect(doctor.detail).not.toContain(password);
    });

    it('a URL with no readable host shows the scheme alone', () => {
      const line = problemsOf({ ...base, DATABASE_URL: `postgres://saybot:${password} nohost` })[0] ?? '';
      expect(line).not.toContain(password);
      expect(line).toContain('postgres://');
    });

    it('the start-up failure path redacts the password of any DATABASE_URL, valid or not', () => {
      expect(environmentSecrets({ DATABASE_URL: `postgres://saybot:${password}@db.internal/saybot` })).toContain(
        password,
      );
      expect(environmentSecrets({ DATABASE_URL: `postgres://saybot:${password} x@db/saybot` })).toEqual(
        expect.arrayContaining([`${password} x`]),
      );
      expect(environmentSecrets({ DATABASE_URL: `postgres://saybot:${password}%zz@db/saybot` })).toEqual(
        expect.arrayContaining([`${password}%zz`]),
      );
      expect(environmentSecrets({ DISCORD_TOKEN: token, VOICE_API_KEY: apiKey })).toEqual(
        expect.arrayContaining([token, apiKey]),
      );
    });
  });
});

describe("the owner's speech engines", () => {
  const speechKey = ['local', 'speech', 'token', 'do-not-show-42'].join('-');

  it('are off when unset: no engine, no free voice per language', () => {
    expect(loadConfig(base).engines).toEqual({ voicevoxUrl: undefined, speechServer: undefined, freeVoices: {} });
  });

  it('reads VOICEVOX_URL and SPEECH_SERVER_URL (trailing slashes off), the key, the model (default tts-1) and the voices', () => {
    const config = loadConfig({
      ...base,
      VOICEVOX_URL: 'http://127.0.0.1:50021/',
      SPEECH_SERVER_URL: 'https://tts.example.org/v1/',
      SPEECH_SERVER_KEY: speechKey,
      SPEECH_SERVER_VOICES: 'af_heart, alloy:en , jf_alpha:ja-JP,af_heart',
    });
    expect(config.engines.voicevoxUrl).toBe('http://127.0.0.1:50021');
    expect(config.engines.speechServer).toEqual({
      url: 'https://tts.example.org/v1',
      key: speechKey,
      model: 'tts-1',
      voices: [{ name: 'af_heart' }, { name: 'alloy', language: 'en' }, { name: 'jf_alpha', language: 'ja' }],
    });
    expect(
      loadConfig({ ...base, SPEECH_SERVER_URL: 'http://h/v1', SPEECH_SERVER_MODEL: 'kokoro' }).engines.speechServer,
    ).toEqual({
      url: 'http://h/v1',
      key: undefined,
      model: 'kokoro',
      voices: undefined,
    });
  });

  it('reads FREE_VOICES: per language eSpeak NG, a free voice or an engine voice whose engine is set', () => {
    const config = loadConfig({
      ...base,
      VOICEVOX_URL: 'http://127.0.0.1:50021',
      SPEECH_SERVER_URL: 'http://127.0.0.1:8880/v1',
      FREE_VOICES: 'ja=voicevox:3, en=speech:af_heart, ko=free-ko-m, *=espeak',
    });
    expect(config.engines.freeVoices).toEqual({
      ja: { kind: 'engine', engine: 'voicevox', voice: 'voicevox:3' },
      en: { kind: 'engine', engine: 'speech', voice: 'speech:af_heart' },
      ko: { kind: 'free', voice: 'free-ko-m' },
      '*': { kind: 'espeak' },
    });
  });

  it.each<[{ FREE_VOICE?: string }, { chosen: boolean; fallback: boolean }]>([
    [{}, { chosen: true, fallback: true }],
    [{ FREE_VOICE: 'chosen' }, { chosen: true, fallback: true }],
    [{ FREE_VOICE: 'fallback' }, { chosen: false, fallback: true }],
    [{ FREE_VOICE: 'off' }, { chosen: false, fallback: false }],
  ])('FREE_VOICES speaks for refusals by itself, unless FREE_VOICE is off: %o', (variables, freeVoice) => {
    const config = loadConfig({
      ...base,
      VOICEVOX_URL: 'http://127.0.0.1:50021',
      FREE_VOICES: 'ja=voicevox:3',
      ...variables,
    });
    expect(config.freeVoice).toEqual(freeVoice);
    expect(loadConfig({ ...base, ...variables }).freeVoice.fallback).toBe(variables.FREE_VOICE === 'fallback');
  });

  it.each([
    [{ VOICEVOX_URL: 'ftp://x' }, /^Configuration: VOICEVOX_URL must be an http:\/\/ or https:\/\/ URL$/],
    [{ VOICEVOX_URL: 'not a url' }, /^Configuration: VOICEVOX_URL must be an http/],
    [{ SPEECH_SERVER_URL: 'http://h/v1?x=1' }, /SPEECH_SERVER_URL must be a base address/],
    [{ SPEECH_SERVER_KEY: 'k'.repeat(12) }, /SPEECH_SERVER_KEY is set, but SPEECH_SERVER_URL .* is not/],
    [{ SPEECH_SERVER_MODEL: 'kokoro' }, /SPEECH_SERVER_MODEL is set, but SPEECH_SERVER_URL/],
    [{ SPEECH_SERVER_VOICES: 'alloy' }, /SPEECH_SERVER_VOICES is set, but SPEECH_SERVER_URL/],
    [
      { SPEECH_SERVER_URL: 'http://h/v1', SPEECH_SERVER_MODEL: 'a model' },
      /SPEECH_SERVER_MODEL must be a model name.*got "a model"/,
    ],
    [
      { SPEECH_SERVER_URL: 'http://h/v1', SPEECH_SERVER_VOICES: 'alloy,bad name' },
      /SPEECH_SERVER_VOICES must be .*got "bad name"/,
    ],
    [{ SPEECH_SERVER_URL: 'http://h/v1', SPEECH_SERVER_VOICES: 'alloy:english' }, /SPEECH_SERVER_VOICES must be/],
    [{ FREE_VOICES: 'ja' }, /FREE_VOICES must be a comma-separated list of language=voice.*got "ja"/],
    [{ FREE_VOICES: 'ja=voicevox:3' }, /FREE_VOICES names voicevox:3, a VOICEVOX voice, but VOICEVOX_URL is not set/],
    [{ FREE_VOICES: 'en=speech:af_heart' }, /FREE_VOICES names speech:af_heart, .* but SPEECH_SERVER_URL is not set/],
    [{ FREE_VOICES: 'en=voice-b-en-f-01' }, /FREE_VOICES names "voice-b-en-f-01", which is not espeak, a free voice/],
    [{ FREE_VOICES: 'en=espeak,EN=free-en-m' }, /FREE_VOICES names the language en twice/],
  ])('names a wrong engine variable in one line: %o', (variables, line) => {
    const problems = problemsOf({ ...base, ...variables });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(line);
    expect(problems[0]).not.toContain('\n');
  });

  it('refuses a URL with a user and password, pointing at SPEECH_SERVER_KEY, and never shows them', () => {
    const password = 'hunter2-engine-password';
    const problems = problemsOf({
      ...base,
      VOICEVOX_URL: `http://owner:${password}@127.0.0.1:50021`,
      SPEECH_SERVER_URL: `https://owner:${password}@tts.example.org/v1`,
    });
    expect(problems).toHaveLength(2);
    for (const line of problems) {
      expect(line).toMatch(/must not hold a user name or password .*SPEECH_SERVER_KEY/);
      expect(line).not.toContain(password);
    }
    expect(environmentSecrets({ VOICEVOX_URL: `http://owner:${password}@h:50021` })).toContain(password);
  });

  it('treats SPEECH_SERVER_KEY as a secret: never shown, in configSecrets and environmentSecrets', () => {
    const problems = problemsOf({ ...base, SPEECH_SERVER_URL: 'http://h/v1', SPEECH_SERVER_KEY: 'has a space' });
    expect(problems[0]).toMatch(/SPEECH_SERVER_KEY must be a token .* 11 characters \(not shown\)/);
    expect(problems[0]).not.toContain('has a space');
    const env = { ...base, SPEECH_SERVER_URL: 'http://h/v1', SPEECH_SERVER_KEY: speechKey };
    expect(configSecrets(loadConfig(env))).toContain(speechKey);
    expect(environmentSecrets(env)).toContain(speechKey);
    // The doctor's configuration line for a bad config does not show it either.
    expect(checkConfig({ ...env, VOICEVOX_URL: 'nope' }).result.detail).not.toContain(speechKey);
  });
});

describe('HELPER_BOT_TOKENS', () => {
  const helper = (n: number) => ['HELPER', `bot${n}`, 'token-value-do-not-use'].join('.');

  it('reads the helpers in order, each once, and treats every token as a secret', () => {
    const env = { ...base, HELPER_BOT_TOKENS: `${helper(1)}, ${helper(2)},${helper(1)}` };
    expect(loadConfig(env).discord.helperTokens).toEqual([helper(1), helper(2)]);
    expect(loadConfig(base).discord.helperTokens).toEqual([]);
    expect(configSecrets(loadConfig(env))).toEqual(expect.arrayContaining([helper(1), helper(2)]));
    expect(environmentSecrets(env)).toEqual(expect.arrayContaining([helper(1), helper(2)]));
  });

  it('refuses a malformed token or more than ten, never showing a token', () => {
    const bad = problemsOf({ ...base, HELPER_BOT_TOKENS: `${helper(1)},not a token but secret-ish` });
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/HELPER_BOT_TOKENS must be bot tokens .*characters \(not shown\)/);
    expect(bad[0]).not.toContain(helper(1));
    expect(bad[0]).not.toContain('secret-ish');
    const eleven = Array.from({ length: 11 }, (_, n) => helper(n)).join(',');
    const many = problemsOf({ ...base, HELPER_BOT_TOKENS: eleven });
    expect(many[0]).toMatch(/HELPER_BOT_TOKENS must list at most 10 tokens/);
    expect(many[0]).not.toContain(helper(0));
  });
});
