// Shards on this machine: /say throughput and p99 time to first audio with SHARDS=1 and SHARDS=2, each run as
// `npm start` would (a shard manager and its shard processes) against the local Discord with that many shards,
// the sandbox and one real PostgreSQL. Run alone with `node bench/shards.ts [--quick]`; a full `npm run bench`
// (no --only) appends it to its report.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandbox } from '@saybot/voice-sandbox';
import { postgresBackend, postgresUnavailable, sqliteBackend } from '../fixtures/store-backends.ts';
import { APP_ID, FakeDiscord, fakeToken, startBotProcess } from '@saybot/local-discord';
import { heapFlags } from '../src/app/shard/heap-flags.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { percentile } from './stats.ts';

export interface ShardsPlan {
  guilds: number;
  rounds: number;
  /** Characters per /say (the sandbox speaks 0.06 s a character). */
  text: (guild: number, round: number) => string;
}

export const SHARDS_PLAN = {
  quick: { guilds: 12, rounds: 3, text: (g, r) => `Quick shard bench, guild ${g}, round ${r}.` },
  full: { guilds: 32, rounds: 6, text: (g, r) => `Shard benchmark line for guild ${g}, round ${r}.` },
} satisfies Record<string, ShardsPlan>;

export interface ShardsResult {
  shards: number;
  says: number;
  seconds: number;
  /** /say completed per second, every guild speaking at once. */
  throughput: number;
  ttfaP50Ms: number;
  ttfaP99Ms: number;
  failed: number;
}

/** Guild IDs a (1 << 22) apart: (id >> 22) % shards spreads them evenly over the shards. */
function guildSpecs(count: number): FakeGuildSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(4, '0');
    return {
      id: String(200_000_000_000_000_000n + BigInt(i) * (1n << 22n)),
      name: `shard-bench-${i}`,
      preferredLocale: 'en-US',
      textChannelId: `21000000000000${n}`,
      voiceChannels: [{ id: `22000000000000${n}`, name: 'voice' }],
      members: [
        { id: `30000000000000${n}`, username: `listener-${i}`, voiceChannelId: `22000000000000${n}`, locale: 'en-US' },
      ],
    };
  });
}

const SANDBOX_FIRST_BYTE_MS = 150;
const NEW_BURST_GAP_MS = 100;

/** One /say: when Discord sent it, when its first audio frame was heard, and whether it was spoken. */
async function say(discord: FakeDiscord, guild: FakeGuildSpec, text: string): Promise<{ ttfaMs: number; ok: boolean }> {
  const handle = await discord.command({
    guildId: guild.id,
    userId: guild.members[0]!.id,
    name: 'say',
    options: [{ name: 'text', value: text }],
  });
  // The clip's first frame starts a new burst: the last frames of the one before may still arrive after the
  // dispatch, 20 ms apart, whereas a new clip follows a gap of at least the sandbox's first-byte delay.
  let previous = Number.NEGATIVE_INFINITY;
  const heard = discord.waitForPacket(
    guild.id,
    (p) => {
      if (p.silence) return false;
      const starts = p.receivedAtMs > handle.dispatchedAtMs && p.receivedAtMs - previous > NEW_BURST_GAP_MS;
      previous = p.receivedAtMs;
      return starts;
    },
    60_000,
  );
  const final = await handle.waitFor(
    (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking in|Queued)/.test(r.content),
    60_000,
  );
  const ok = (final.content ?? '').startsWith('Spoke');
  const packet = ok ? await heard : undefined;
  heard.catch(() => undefined);
  return { ttfaMs: packet === undefined ? Number.NaN : packet.receivedAtMs - handle.dispatchedAtMs, ok };
}

export async function measureShards(
  shards: number,
  plan: ShardsPlan,
  log: (line: string) => void,
): Promise<ShardsResult> {
  const guilds = guildSpecs(plan.guilds);
  const token = fakeToken();
  const backend = postgresUnavailable() === undefined ? postgresBackend() : sqliteBackend();
  const store = await backend.open();
  const discord = await FakeDiscord.start({ token, applicationId: APP_ID, guilds, shards, log: () => undefined });
  const sandbox = await startSandbox({ pacing: { startDelayMs: SANDBOX_FIRST_BYTE_MS, realtimeFactor: 0 } });
  const bot = startBotProcess({
    entry: fileURLToPath(new URL('../src/bin/start.ts', import.meta.url)),
    // As `npm start` runs it (the heap flags npm run bench was given: the young generation's cap).
    nodeArgs: heapFlags(process.execArgv),
    caCertificatePem: discord.caCertificatePem,
    env: {
      SHARDS: String(shards),
      DISCORD_TOKEN: token,
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_BASE_URL: discord.restUrl,
      VOICE_API_BASE_URL: sandbox.url,
      VOICE_API_KEY: sandbox.testKey,
      DATABASE_URL: backend.url(),
      CACHE_DIR: 'cache',
      LOG_LEVEL: 'info',
      // The speech path is measured, not the limits: no budgets, no queue bounds (SayBot's defaults have both).
      BUDGET_GUILD_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_DAILY_CHARS: '0',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
      QUEUE_MAX_SECONDS: '0',
      QUEUE_MAX_CLIPS: '0',
      QUEUE_MAX_PER_MEMBER: '0',
    },
  });
  try {
    await bot.waitForLine((l) => l['msg'] === 'every shard ready', 90_000);
    log(`${shards} shard(s): ready; every guild joins its voice channel`);
    await Promise.all(guilds.map((g, i) => say(discord, g, `Warm up ${i}.`)));
    const samples: number[] = [];
    let failed = 0;
    const started = performance.now();
    // Every guild speaks at once, round after round; a guild's next /say waits for its last.
    await Promise.all(
      guilds.map(async (g, i) => {
        for (let r = 0; r < plan.rounds; r++) {
          const result = await say(discord, g, plan.text(i, r));
          if (result.ok) samples.push(result.ttfaMs);
          else failed++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const says = plan.guilds * plan.rounds;
    return {
      shards,
      says,
      seconds,
      throughput: (says - failed) / seconds,
      ttfaP50Ms: percentile(samples, 50),
      ttfaP99Ms: percentile(samples, 99),
      failed,
    };
  } finally {
    await bot.stop();
    await sandbox.close();
    await discord.close();
    await store.close();
    await backend.stop();
  }
}

export function renderShards(results: readonly ShardsResult[], plan: ShardsPlan): string {
  const rows = results.map(
    (r) =>
      `| ${r.shards} | ${r.says} | ${r.seconds.toFixed(1)} | ${r.throughput.toFixed(2)} | ${r.ttfaP50Ms.toFixed(0)} | ${r.ttfaP99Ms.toFixed(0)} | ${r.failed} |`,
  );
  return [
    `### Shards: ${plan.guilds} guilds speaking at once, ${plan.rounds} rounds (SHARDS=1 is the baseline)`,
    '',
    '| shards | /say | seconds | /say per s | TTFA p50 ms | TTFA p99 ms | failed |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'TTFA: from the interaction leaving Discord to its first audio frame heard in the channel. Sandbox: first byte after 150 ms, then as fast as it can.',
  ].join('\n');
}

/** Both shard counts, as a report section. */
export async function shardsReport(
  mode: 'quick' | 'full',
  log: (line: string) => void = (l) => console.error(`[bench shards] ${l}`),
): Promise<string> {
  const plan = SHARDS_PLAN[mode];
  const results: ShardsResult[] = [];
  for (const shards of [1, 2]) results.push(await measureShards(shards, plan, log));
  return renderShards(results, plan);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  console.log(await shardsReport(values.quick ? 'quick' : 'full'));
}
