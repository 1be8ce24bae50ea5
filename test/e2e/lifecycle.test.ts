import { freePort } from '@saybot/local-discord';
import { fileURLToPath } from 'node:url';
import { MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import type { AnyCommandModule } from '../../src/core/interactions/command.ts';
import { deployCommands } from '../../src/core/interactions/deploy.ts';
import {
  APP_ID,
  defaultGuilds,
  fakeToken,
  inTime,
  runCommand,
  startHarness,
  type Harness,
} from '../support/harness.ts';
import { closedPort } from '../core/api/helpers.ts';
import { ALICE } from '../support/world.ts';
import { useLocalServices } from '../support/local-services.ts';
import { SAYBOT_COMMAND_NAMES } from '../support/command-names.ts';
import { runChild, type ChildRun } from '../support/run-child.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const [seoul, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];

/** Runs `node <script>` as `npm start` would, with exactly this environment (no .env file is read). */
function runNode(
  script: string,
  env: Record<string, string>,
  until?: { stdout: RegExp; then: (kill: () => void) => void },
): Promise<ChildRun> {
  let fired = false;
  return runChild(process.execPath, [script], {
    cwd: ROOT,
    // An in-memory database, so no test run leaves a data/ directory behind.
    env: {
      PATH: process.env['PATH'] ?? '',
      DOTENV_CONFIG_PATH: '/nonexistent',
      DATABASE_URL: 'sqlite::memory:',
      ...env,
    },
    // Past this a start hangs; a Node process loading SayBot beside the rest of the suite on one core takes over 25 s.
    killAfterMs: 80_000,
    onStdout: (stdout, signal) => {
      if (until && !fired && until.stdout.test(stdout)) {
        fired = true;
        until.then(() => signal('SIGTERM'));
      }
    },
  });
}

describe('npm start', () => {
  it('names each configuration problem in one line and exits 1, printing no secret', async () => {
    const secretish = 'not-a-token but secret';
    const result = await runNode('src/bin/start.ts', {
      DISCORD_TOKEN: secretish,
      DISCORD_CLIENT_ID: '12',
      VOICE_API_PLAN: 'free',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Configuration: DISCORD_TOKEN must be a bot token/);
    expect(result.stderr).toContain('DISCORD_CLIENT_ID must be the application ID');
    expect(result.stderr).toContain('VOICE_API_PLAN must be one of creator, pro, business; got "free"');
    expect(result.stderr + result.stdout).not.toContain(secretish);
  });

  it('says in one line, without a stack, that Discord cannot be reached when its address refuses connections', async () => {
    const port = await closedPort();
    const token = fakeToken();
    const result = await runNode('src/bin/start.ts', {
      DISCORD_TOKEN: token,
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_BASE_URL: `http://127.0.0.1:${port}/api`,
      VOICE_API_BASE_URL: 'http://127.0.0.1:9/unused',
      VOICE_API_KEY: 'sandbox-key-unused',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      `Cannot reach Discord at http://127.0.0.1:${port}/api: the connection was refused (ECONNREFUSED). ` +
        "Check this machine's internet connection, DNS and firewall/proxy, and DISCORD_API_BASE_URL.",
    ]);
    expect(result.stderr + result.stdout).not.toContain(token);
  });

  describe('against a local Discord and Voice API', () => {
    const local = useLocalServices();

    // One start for both (each start is a Node process loading SayBot): ready, its health and metrics, then SIGTERM.
    it('starts, logs in, serves /healthz and /metrics on METRICS_PORT once ready, and on SIGTERM stops taking commands and exits 0 without logging a secret', async () => {
      const port = await freePort();
      let health: unknown;
      let metrics = '';
      const result = await runNode(
        'src/bin/start.ts',
        {
          DISCORD_TOKEN: local.token,
          DISCORD_CLIENT_ID: APP_ID,
          DISCORD_API_BASE_URL: local.discord.restUrl,
          VOICE_API_BASE_URL: local.sandbox.url,
          VOICE_API_KEY: local.sandbox.testKey,
          METRICS_PORT: String(port),
        },
        {
          stdout: /SayBot is ready/,
          then: (kill) => {
            void (async () => {
              try {
                health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
                metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
              } finally {
                kill();
              }
            })();
          },
        },
      );
      expect(result.code).toBe(0);
      expect(health).toEqual({ ok: true, gateway: 'ready', store: 'ok' });
      expect(metrics).toMatch(/^# HELP saybot_commands_total /m);
      expect(metrics).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      const messages = result.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect(messages).toEqual(
        expect.arrayContaining(['SayBot is ready', 'signal received', 'shutting down', 'stopped']),
      );
      expect(result.stdout).not.toContain(local.token);
      expect(result.stdout).not.toContain(local.sandbox.testKey);
    });

    it('runs against an in-process sandbox, and says so, when no Voice API is configured', async () => {
      const result = await runNode(
        'src/bin/start.ts',
        { DISCORD_TOKEN: local.token, DISCORD_CLIENT_ID: APP_ID, DISCORD_API_BASE_URL: local.discord.restUrl },
        { stdout: /SayBot is ready/, then: (kill) => kill() },
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('using the built-in sandbox');
    });

    it('npm run deploy-commands registers localised commands once, then finds nothing to do', async () => {
      const env = {
        DISCORD_TOKEN: local.token,
        DISCORD_CLIENT_ID: APP_ID,
        DISCORD_API_BASE_URL: local.discord.restUrl,
        DISCORD_GUILD_ID: london.id,
      };
      const first = await runNode('src/bin/deploy-commands.ts', env);
      expect(first.stderr).toBe('');
      expect(first.stdout).toMatch(/^Registered \d+ commands for server 200000000000000002\./);
      const registered = local.discord.registeredCommands(london.id) as Array<{
        name: string;
        name_localizations?: Record<string, string>;
      }>;
      expect(registered.map((c) => c.name).sort()).toEqual(SAYBOT_COMMAND_NAMES);
      expect(registered.find((c) => c.name === 'say')?.name_localizations).toMatchObject({ ko: '말하기', ja: '話す' });
      const puts = () => local.discord.restLog.filter((e) => e.method === 'PUT').length;
      const putsBefore = puts();
      const second = await runNode('src/bin/deploy-commands.ts', env);
      expect(second.stdout).toMatch(/already registered .* nothing to do/);
      expect(puts()).toBe(putsBefore);
    });

    it('deployCommands registers again when a definition changed', async () => {
      const commands = await loadCommandModules();
      // Seoul's commands: the test above owns London's, so neither depends on which runs first.
      const base = { token: local.token, clientId: APP_ID, apiBaseUrl: local.discord.restUrl, guildId: seoul.id };
      await deployCommands({ ...base, commands: commands.values() });
      const changed = [...commands.values()].filter((c) => c.data.name !== 'stop');
      expect((await deployCommands({ ...base, commands: changed })).changed).toBe(true);
      expect((await deployCommands({ ...base, commands: changed })).changed).toBe(false);
    });

    it('deployCommands builds each definition once a process, not once a start', async () => {
      let built = 0;
      const counted = [...(await loadCommandModules()).values()].map(
        (c) =>
          ({
            ...c,
            data: Object.create(c.data, { toJSON: { value: () => (built++, c.data.toJSON()) } }) as unknown,
          }) as AnyCommandModule,
      );
      const base = { token: local.token, clientId: APP_ID, apiBaseUrl: local.discord.restUrl, guildId: seoul.id };
      await deployCommands({ ...base, commands: counted });
      expect(built).toBe(counted.length);
      expect((await deployCommands({ ...base, commands: counted })).changed).toBe(false);
      expect(built).toBe(counted.length);
    });
  });
});

describe('the running bot', () => {
  let h: Harness;
  beforeAll(async () => {
    // Real Discord may offer only XChaCha20; the bot must then use its pure-JS cipher.
    h = await startHarness({ encryptionModes: ['aead_xchacha20_poly1305_rtpsize'] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('speaks over an XChaCha20-Poly1305 voice connection', async () => {
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'Cipher check.' },
    });
    await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'));
    const heard = await h.discord.waitForAudio(london.id);
    expect(heard.encryptionMode).toBe('aead_xchacha20_poly1305_rtpsize');
    expect(heard.decryptFailures).toBe(0);
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds('Cipher check.') - 0.1);
  });

  it('answers voice and language autocomplete, filtered and localised', async () => {
    const voices = await inTime(h, () =>
      h.discord.autocomplete({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        locale: 'ko',
        options: [
          { name: 'text', value: 'x' },
          { name: 'voice', value: '한국어', focused: true },
        ],
      }),
    );
    // The Korean presets, and the free voice's Korean voices (FREE_VOICE on, its package installed).
    expect(voices.map((v) => v.value).sort()).toEqual(['free-ko-f', 'free-ko-m', 'voice-b-ko-f-01', 'voice-b-ko-m-01']);
    const languages = await inTime(h, () =>
      h.discord.autocomplete({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        locale: 'ja',
        options: [
          { name: 'text', value: 'x' },
          { name: 'language', value: '韓国', focused: true },
        ],
      }),
    );
    expect(languages).toEqual([{ name: '韓国語 (ko)', value: 'ko' }]);
  });
});

describe('a bot that is stopping', () => {
  // Its own bot: stopping it must not take the one the other tests use away from them, whatever the order.
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ guilds: [london] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('on stop, leaves its voice channels and answers new commands with a notice, autocomplete with no choices', async () => {
    await runCommand(h, { guildId: london.id, userId: ALICE, name: 'join' });
    expect(h.discord.botVoiceChannel(london.id)).toBe('220000000000000003');
    // A /say whose audio the Voice API holds back keeps a handler running, so the stopping bot stays connected
    // (it drains running handlers before logging out) while the next command arrives.
    h.sandbox.setPacing({ startDelayMs: 3_000 });
    const requestsBefore = h.sandbox.requests.length;
    await h.discord.command({
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: [{ name: 'text', value: 'Held back.' }],
    });
    await vi.waitFor(() => expect(h.sandbox.requests.length).toBeGreaterThan(requestsBefore), { timeout: 10_000 });
    const stopping = h.bot.stop();
    const [late, choices] = await Promise.all([
      h.discord.command({ guildId: london.id, userId: ALICE, name: 'usage', locale: 'en-US' }),
      // Autocomplete cannot be told anything: an empty list, rather than Discord's "loading options failed".
      h.discord.autocomplete({
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: [
          { name: 'text', value: 'x' },
          { name: 'voice', value: 'voice', focused: true },
        ],
      }),
    ]);
    expect(choices).toEqual([]);
    const notice = await late.waitFor((r) => r.content !== undefined, 10_000);
    expect(notice.content).toBe(t('en-US', 'error.shuttingDown'));
    expect((notice.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    await stopping;
    await vi.waitFor(() => expect(h.discord.botVoiceChannel(london.id)).toBeNull(), { timeout: 30_000 });
  });
});

describe('npm start registers the slash commands', () => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
  });

  it('puts them on Discord at the first start, and makes no PUT at a start with the same commands', async () => {
    h = await startHarness({ guilds: [london] });
    const puts = () =>
      h.discord.restLog.filter((e) => e.method === 'PUT' && e.path.endsWith(`/applications/${APP_ID}/commands`));
    expect(puts()).toHaveLength(1);
    const registered = h.discord.registeredCommands() as Array<{ name: string }>;
    expect(registered.map((c) => c.name)).toContain('say');
    expect(h.logs()).toContain('slash commands registered');

    await h.restart();
    expect(puts()).toHaveLength(1);
    expect(h.logs()).toContain('slash commands already up to date');
    // The commands Discord holds are the ones the second start found: it still answers them.
    const { content } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(content).not.toBe('');
  });
});
