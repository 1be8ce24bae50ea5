// SHARDS=2: `npm start` as a real process (the shard manager and two shard processes) against the local Discord
// with two shards, the sandbox and one real PostgreSQL. What must hold across processes: the used-up month, its
// one-request-at-a-time probe, /usage, a shard that dies, and each shard's /metrics.
import { fileURLToPath } from 'node:url';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import type { Store } from '../../src/core/store/types.ts';
import { postgresBackend, postgresUnavailable, type Backend } from '../core/store/backends.ts';
import { FakeDiscord, freePortRun, startBotProcess, type BotProcess, type LogLine } from '@saybot/local-discord';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { APP_ID, fakeToken, pitchOf, runCommand, type Harness } from '../support/harness.ts';
import { watchLogs } from '../support/live-logs.ts';
import { sample } from '../support/prometheus.ts';
import { CLIENT_SECRET, DashboardClient } from '../support/dashboard.ts';

// (id >> 22) % 2 puts the first on shard 0 and the second on shard 1.
const guild = (id: string, n: number): FakeGuildSpec => ({
  id,
  name: `Shard ${n}`,
  preferredLocale: 'en-US',
  textChannelId: `21000000000000000${n}`,
  voiceChannels: [{ id: `22000000000000000${n}`, name: 'general' }],
  // Manage Server: /usage shows them the whole bot's figures, which plain members do not see.
  members: [
    {
      id: `30000000000000000${n}`,
      username: `member${n}`,
      voiceChannelId: `22000000000000000${n}`,
      locale: 'en-US',
      permissions: PermissionFlagsBits.ManageGuild,
    },
  ],
});
const G0 = guild('200000000000000002', 0);
const G1 = guild('200000000004194306', 1);
const member = (g: FakeGuildSpec) => g.members[0]!.id;

const SAYBOT_ENTRY = fileURLToPath(new URL('../../src/bin/start.ts', import.meta.url));
const skipped = postgresUnavailable();

describe.skipIf(skipped !== undefined)('two shards on one PostgreSQL', () => {
  let pg: Backend;
  let store: Store;
  let discord: FakeDiscord;
  let sandbox: Sandbox;
  let bot: BotProcess;
  let metricsPort: number;
  let forgetLogs: (() => void) | undefined;
  let dashboardUrl: string;
  let token: string;
  // runCommand drives the local Discord alone; the bot runs elsewhere.
  const h = () => ({ discord }) as unknown as Harness;
  /** A /say and its outcome: spoken, or refused (not the progress replies "Speaking in…" and "Queued…"). */
  const say = async (g: FakeGuildSpec, text: string, voice = 'voice-b-en-f-01') => {
    const handle = await discord.command({
      guildId: g.id,
      userId: member(g),
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: voice },
      ],
    });
    const final = await handle.waitFor(
      (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking in|Queued)/.test(r.content),
      30_000,
    );
    return final.content ?? '';
  };
  const shardLine = (message: string, shard: number) => (l: LogLine) =>
    l['msg'] === message && l['shard'] === shard && l['role'] === 'shard-manager';

  // Two shard processes and PostgreSQL started: past 60 s on one core beside the rest of the suite.
  beforeAll(async () => {
    pg = postgresBackend();
    store = await pg.open();
    token = fakeToken();
    discord = await FakeDiscord.start({
      token,
      applicationId: APP_ID,
      guilds: [G0, G1],
      shards: 2,
      oauth2: { clientSecret: CLIENT_SECRET, redirectUris: [] },
      log: () => undefined,
    });
    sandbox = await startSandbox({ pacing: { realtimeFactor: 0 } });
    metricsPort = await freePortRun(2);
    const dashboardPort = await freePortRun(1);
    dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
    discord.oauth2.registerRedirectUri(`${dashboardUrl}/callback`);
    bot = startBotProcess({
      entry: SAYBOT_ENTRY,
      caCertificatePem: discord.caCertificatePem,
      env: {
        SHARDS: 'auto',
        DISCORD_TOKEN: token,
        DISCORD_CLIENT_ID: APP_ID,
        DISCORD_API_BASE_URL: discord.restUrl,
        VOICE_API_BASE_URL: sandbox.url,
        VOICE_API_KEY: sandbox.testKey,
        DATABASE_URL: pg.url(),
        CACHE_DIR: 'cache',
        METRICS_PORT: String(metricsPort),
        DASHBOARD_URL: dashboardUrl,
        DASHBOARD_PORT: String(dashboardPort),
        DISCORD_CLIENT_SECRET: CLIENT_SECRET,
        LOG_LEVEL: 'info',
        // One member speaks again and again in each guild: this operator sets no budgets (SayBot's defaults have them).
        BUDGET_GUILD_MONTHLY_CHARS: '0',
        BUDGET_MEMBER_DAILY_CHARS: '0',
        BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
      },
    });
    // A failed test prints the shards' last log lines (test/support/failure-logs.ts).
    forgetLogs = watchLogs(() => bot.lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    await bot.waitForLine((l) => l['msg'] === 'every shard ready', 120_000);
  }, 150_000);

  afterAll(async () => {
    forgetLogs?.();
    await bot?.stop();
    await sandbox?.close();
    await discord?.close();
    await store?.close();
    await pg?.stop();
  }, 30_000);

  it('starts one process per shard, Discord-recommended count, each ready after falling back without Message Content', () => {
    expect(bot.lines.find((l) => l['msg'] === 'starting shard processes')).toMatchObject({ shards: 2, recommended: 2 });
    const pids = [0, 1].map((s) => bot.lines.find(shardLine('shard process started', s))?.['pid']);
    expect(new Set(pids).size).toBe(2);
    expect(pids.every((p) => typeof p === 'number' && p !== bot.child.pid)).toBe(true);
    // This local Discord refuses Message Content (4014): each start of a shard logged in a second client, and the
    // manager still heard it was ready (src/app/shard/ready.ts). A shard respawned by another test started twice.
    for (const shard of [0, 1]) {
      const starts = bot.lines.filter(shardLine('shard process started', shard)).length;
      expect(bot.lines.filter((l) => l['code'] === 'autoread-intent-missing' && l['shard'] === shard)).toHaveLength(
        starts,
      );
      expect(bot.lines.filter(shardLine('shard ready', shard))).toHaveLength(starts);
    }
    // The secrets went through the environment: nothing printed them.
    expect(bot.output()).not.toContain(token);
    expect(bot.output()).not.toContain(sandbox.testKey);
  });

  it('serves the dashboard from shard 0, for a server of shard 1 too: its member and Manage Server asked of Discord, the entry in the shared store', async () => {
    expect(bot.lines.filter((l) => l['msg'] === 'dashboard served').map((l) => l['shard'])).toEqual([0]);
    const browser = new DashboardClient(h(), dashboardUrl);
    const loggedIn = await browser.login(member(G1));
    expect(loggedIn.status).toBe(303);
    const home = await browser.get('/');
    expect(home.body).toContain(`/servers/${G1.id}`);
    expect(home.body).toContain('Shard 1');
    // Its first page: the month's figures from the shared store; SayBot's voice there is shard 1's, not known here.
    const overview = await browser.get(`/servers/${G1.id}`);
    expect(overview.status).toBe(200);
    expect(overview.body).toMatch(
      /id="glance-server-month-item">[\s\S]*?<span class="glance-value">[\d,]+ characters</,
    );
    expect(overview.body).toMatch(/id="glance-in-voice-item">[\s\S]*?<span class="glance-value">Not known here</);
    await browser.get(`/servers/${G1.id}/dictionary`);
    const added = await browser.post(`/servers/${G1.id}/dictionary/add`, {
      word: 'acrossshards',
      reading: 'across shards',
    });
    expect(added.status).toBe(200);
    const listed = await runCommand(h(), {
      guildId: G1.id,
      userId: member(G1),
      name: 'dictionary',
      subcommand: 'list',
    });
    expect(listed.content).toContain('acrossshards → across shards');
    // Shard 0's own member does not see shard 1's server.
    const other = new DashboardClient(h(), dashboardUrl);
    await other.login(member(G0));
    expect((await other.get(`/servers/${G1.id}/dictionary`)).status).toBe(404);
  });

  it('/usage says the same about the whole bot from either shard', async () => {
    expect(await say(G0, 'Counted once on shard zero.')).toMatch(/^Spoke/);
    const lines = await Promise.all(
      [G0, G1].map(async (g) => {
        const { content } = await runCommand(h(), { guildId: g.id, userId: member(g), name: 'usage' });
        return content.split('\n').find((l) => l.startsWith('Whole bot:'));
      }),
    );
    expect(lines[0]).toMatch(/SayBot sent [1-9]/);
    expect(lines[1]).toBe(lines[0]);
  });

  it("two /say at once against a server budget with room for one: exactly one is spoken, one paid call, the other refused in the member's words", async () => {
    const texts = ['Budget race, first one.', 'Budget race, other one.'];
    const spent = (await store.spends.monthTotals(new Date().toISOString().slice(0, 7), G0.id)).spent;
    await store.budgets.set(G0.id, { guildMonthlyChars: spent + texts[0]!.length + 5 }, 'test');
    try {
      const from = sandbox.requests.length;
      const replies = await Promise.all(texts.map((text) => say(G0, text)));
      expect(replies.filter((r) => r.startsWith('Spoke'))).toHaveLength(1);
      expect(replies.filter((r) => r.startsWith("This server's monthly budget is"))).toHaveLength(1);
      expect(sandbox.requests.slice(from).filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    } finally {
      await store.budgets.set(G0.id, { guildMonthlyChars: null }, 'test');
    }
  });

  it("a shard counts another process's live hold on the store against the server's budget, and not once it is released", async () => {
    const text = 'Held elsewhere for a moment.';
    const spent = (await store.spends.monthTotals(new Date().toISOString().slice(0, 7), G0.id)).spent;
    const limit = spent + text.length + 5;
    await store.budgets.set(G0.id, { guildMonthlyChars: limit }, 'test');
    try {
      // This test process plays another shard with a request under way in the same guild.
      const held = await store.budgets.hold({
        guildId: G0.id,
        userId: member(G0),
        characters: 10,
        limits: { guildMonthlyChars: limit },
        ttlMs: 60_000,
      });
      if (held.status !== 'held') throw new Error('the other process could not hold its characters');
      expect(await say(G0, text)).toMatch(/^This server's monthly budget is/);
      await store.budgets.release(held.token);
      expect(await say(G0, text)).toMatch(/^Spoke/);
    } finally {
      await store.budgets.set(G0.id, { guildMonthlyChars: null }, 'test');
    }
  });

  it('a used-up month seen by one shard is honoured by the other: while one shard probes, the other sends nothing', async () => {
    try {
      await usedUpMonth();
    } finally {
      // Whatever happened, the next test starts with the month open.
      sandbox.clearFaults();
      sandbox.resumePaused();
      await store.quota.clearExhausted();
    }
  });

  async function usedUpMonth(): Promise<void> {
    sandbox.injectFault({
      kind: 'service-error',
      status: 429,
      endpoint: 'tts',
      body: JSON.stringify({ error: { message: 'Monthly character quota exceeded' } }),
      headers: { 'X-RateLimit-Limit': '300000', 'X-RateLimit-Remaining': '0' },
    });
    expect(await say(G0, 'This one meets the used-up quota.')).toMatch(/used up/);
    expect((await store.quota.get()).exhausted).toBeDefined();

    // Shard 0's next request is the probe; its answer is held back (until the test lets it go, once shard 1 has been
    // refused: an event, not a delay), so it holds the turn meanwhile.
    sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const probe = await discord.command({
      guildId: G0.id,
      userId: member(G0),
      name: 'say',
      options: [{ name: 'text', value: 'Is the quota back?' }],
    });
    await probe.waitFor((r) => r.kind === 'callback', 10_000); // deferred: its checks passed, it is the probe
    // Held at the service before it is let go: resumed earlier, it would be held with nothing left to resume it.
    await expect
      .poll(() => sandbox.requests.some((r) => r.text === 'Is the quota back?' && r.outcome === 'held'))
      .toBe(true);
    expect(await say(G1, 'Shard one waits its turn.', 'voice-b-en-m-01')).toMatch(/Another request is checking/);
    expect(sandbox.requests.filter((r) => r.voice === 'voice-b-en-m-01')).toEqual([]);
    sandbox.resumePaused();

    // The probe was accepted: the mark is gone for both shards.
    await probe.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect((await store.quota.get()).exhausted).toBeUndefined();
    expect(await say(G1, 'Shard one speaks again.')).toMatch(/^Spoke/);
  }

  it('a shard that is killed is started again, and its guild speaks again', async () => {
    const pid = [...bot.lines].reverse().find(shardLine('shard process started', 1))?.['pid'];
    expect(typeof pid).toBe('number');
    const from = bot.lines.length;
    process.kill(pid as number, 'SIGKILL');
    await bot.waitForLine((l) => l['code'] === 'shard-died' && l['shard'] === 1, 10_000, from);
    await bot.waitForLine(shardLine('shard ready', 1), 30_000, from);

    discord.clearAudio(G1.id);
    expect(await say(G1, 'Back after a restart.')).toMatch(/^Spoke/);
    const heard = await discord.waitForAudio(G1.id, { minSeconds: 0.5 });
    expect(Math.abs((pitchOf(heard) ?? 0) - (sandbox.voicePitchHz('voice-b-en-f-01') ?? 0))).toBeLessThan(4);
    // Shard 0 was not touched.
    expect(bot.lines.slice(from).some((l) => l['code'] === 'shard-died' && l['shard'] === 0)).toBe(false);
  }, 60_000);

  it("each shard serves its own /metrics (METRICS_PORT + shard), whose counters move with that shard's commands", async () => {
    const scrape = async (shard: number) => (await fetch(`http://127.0.0.1:${metricsPort + shard}/metrics`)).text();
    const ok = (text: string) => sample(text, 'saybot_commands_total', { command: 'say', result: 'ok' }) ?? 0;
    const [before0, before1] = await Promise.all([scrape(0), scrape(1)]);
    expect(await say(G1, 'Counted on shard one.')).toMatch(/^Spoke/);
    const [after0, after1] = await Promise.all([scrape(0), scrape(1)]);
    expect(ok(after1)).toBe(ok(before1) + 1);
    expect(ok(after0)).toBe(ok(before0));
  });
});
if (skipped !== undefined) it.skip(`two shards on one PostgreSQL: ${skipped}`, () => {});
