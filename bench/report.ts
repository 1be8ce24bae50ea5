// The results as Markdown: printed at the end of every run, and written to docs/benchmarks.md with --write.
import type { ConcurrencyStep } from './concurrency.ts';
import { LATE_GAP_MS } from './concurrency.ts';
import type { Machine } from './machine.ts';
import type { MemoryResult, MemorySnapshot } from './memory.ts';
import type { Plan } from './plan.ts';
import type { SharedCacheResult } from './shared-cache.ts';
import { fileURLToPath } from 'node:url';
import { mib, ms, pct, percentile } from './stats.ts';

/** This checkout's root, with a trailing slash: stripped from logged stack traces so the report names no machine's paths. */
const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A problem line with this checkout's absolute paths made relative to the repository. */
export function withoutRepoRoot(line: string): string {
  return line.split(REPO_ROOT).join('');
}

export interface TtfaSamples {
  inChannel: number[];
  firstJoin: number[];
}

export interface Results {
  plan: Plan;
  machine: Machine;
  command: string;
  date: string;
  readyRss?: MemorySnapshot;
  ttfa?: { streaming: TtfaSamples; buffered: TtfaSamples };
  /** Figure 2: time to first audio of a cached reply (nothing subtracted), and the requests the sandbox saw meanwhile. */
  cacheHit?: { totalMs: number[]; apiRequests: number };
  concurrency?: ConcurrencyStep[];
  /** Figure 5: time to first heard audio (overhead, start delay subtracted) per DAVE mode. */
  dave?: { off: TtfaSamples; required: TtfaSamples };
  memory?: MemoryResult;
  /** Figure 6: the shared audio cache and the /usage chart. */
  sharedCache?: SharedCacheResult;
  /** Protocol problems the fake Discord saw, and warnings the bot logged. */
  problems: string[];
  seconds: number;
}

const verdict = (met: boolean): string => (met ? 'met' : '**missed**');
const times = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(1)}x` : 'n/a');

function ttfaSection(r: Results): string[] {
  const t = r.ttfa;
  if (!t) return [];
  const p = r.plan.ttfa;
  const row = (name: string, samples: number[], goal: string): string =>
    `| ${name} | ${samples.length} | ${ms(percentile(samples, 50))} | ${ms(percentile(samples, 95))} | ${ms(Math.max(...samples))} | ` +
    `${ms(percentile(samples, 50) + p.startDelayMs, 0)} | ${goal} |`;
  const s50 = percentile(t.streaming.inChannel, 50);
  const s95 = percentile(t.streaming.inChannel, 95);
  const b50 = percentile(t.buffered.inChannel, 50);
  const total = (b50 + p.startDelayMs) / (s50 + p.startDelayMs);
  const totalJoin = (percentile(t.buffered.firstJoin, 50) + p.startDelayMs) / (percentile(t.streaming.firstJoin, 50) + p.startDelayMs);
  return [
    '## 1. Time to first audio',
    '',
    `From INTERACTION_CREATE leaving the fake Discord to the first Opus packet reaching its voice server (both stamped in ` +
      `the servers process), for a ${p.clipSeconds} s reply that the sandbox starts after ${p.startDelayMs} ms and sends at ` +
      `${1 / p.realtimeFactor}x real time (WAV, 24 kHz). **Overhead** = that time - ${p.startDelayMs} ms: what the bot adds ` +
      `(interaction, defer reply, request, decode, resample, encode, voice send). Each run is stopped once its first packet ` +
      `is heard. Warm-up runs (${p.warmup} in channel, ${p.firstJoinWarmup} first join) are not counted.`,
    '',
    '| case | runs | overhead p50 | overhead p95 | overhead max | time to first audio p50 | goal |',
    '|---|---|---|---|---|---|---|',
    row('streaming, bot in channel', t.streaming.inChannel, `p50 < 40 ms, p95 < 80 ms: ${verdict(s50 < 40 && s95 < 80)}`),
    row('baseline: download whole response, then decode; bot in channel', t.buffered.inChannel, 'baseline'),
    row('streaming, first join (bot left before each run)', t.streaming.firstJoin, 'reported'),
    row('baseline, first join', t.buffered.firstJoin, 'baseline'),
    '',
    `Streaming against the baseline, bot in channel: time to first audio ${times(total)} shorter at p50 ` +
      `(overhead alone ${times(b50 / s50)}); goal at least 5x: ${verdict(total >= 5)}. First join: ${times(totalJoin)}.`,
    '',
  ];
}

function cacheSection(r: Results): string[] {
  const c = r.cacheHit;
  if (!c) return [];
  const p50 = percentile(c.totalMs, 50);
  return [
    '## 2. Cache hit time to first audio',
    '',
    `The same ${r.plan.ttfa.clipSeconds} s reply as figure 1, asked again once a first /say (stopped after its first packet; ` +
      `its part is still read to the end and cached) had put it in the audio cache; bot in channel; same measure, ` +
      `nothing subtracted. Voice API requests during the counted and warm-up runs: ${c.apiRequests}${c.apiRequests === 0 ? ' (every run a hit)' : ' (**not all hits**)'}.`,
    '',
    '| case | runs | p50 | p95 | max | goal |',
    '|---|---|---|---|---|---|',
    `| cache hit, bot in channel | ${c.totalMs.length} | ${ms(p50)} | ${ms(percentile(c.totalMs, 95))} | ${ms(Math.max(...c.totalMs))} | ` +
      `p50 < 30 ms: ${verdict(p50 < 30 && c.apiRequests === 0)} |`,
    '',
  ];
}

function concurrencySection(r: Results): string[] {
  const steps = r.concurrency;
  if (!steps) return [];
  const goal = steps.find((s) => s.n === 100);
  const rows = steps.map((s) =>
    `| ${s.n}${s.n === 1 ? ' (baseline)' : ''} | ${s.played}/${s.n} | ${s.packets} / ${s.expectedPackets} | ${s.udpDrops ?? 'n/a'} | ${ms(s.gapP50Ms)} | ${ms(s.gapP99Ms)} | ${ms(s.gapMaxMs)} | ` +
    `${s.late} (${pct((s.late / Math.max(1, s.packets - s.n)) * 100, 2)}) | ${ms(s.behindP99Ms, 0)} / ${ms(s.behindMaxMs, 0)} | ${pct(s.cpuPerStreamPct, 2)} | ${pct(s.botCpuPct, 0)} | ` +
    `${ms(s.bot.eventLoopP99Ms)} / ${ms(s.bot.eventLoopMaxMs, 0)} | ${pct(s.serversCpuPct, 0)} | ${ms(s.servers.eventLoopP99Ms)} | ${mib(s.rssPerStreamBytes)} |`);
  const failures = steps.flatMap((s) => s.failures.slice(0, 3).map((f) => `- N=${s.n}: ${f}`));
  return [
    '## 3. Concurrent voices',
    '',
    `N guilds, each with a listener in a voice channel the bot already joined, all sent /say at once (one turn of ` +
      `the fake's event loop); ${r.plan.concurrency.clipSeconds} s clips, same sandbox pacing as figure 1. **Gap**: time between ` +
      `consecutive audio packets of one guild at the voice server (20 ms when all is well), pooled over all guilds. ` +
      `**Late**: gaps > ${LATE_GAP_MS} ms (a whole 20 ms slot missed: audible). **Behind schedule**: how far packets ` +
      `fall behind a steady 20 ms stream from the guild's first packet (a stall caught up by a burst shows here, not in ` +
      `the gaps' p99). **CPU/stream**: bot process CPU time / audio ` +
      `seconds played / N, as % of one core. Event-loop delay: monitorEventLoopDelay at 1 ms resolution over the run. The ` +
      `fake Discord and the sandbox run in a separate process (\`bench/servers.ts\`); their CPU is shown apart ("servers"), ` +
      `but they share the machine's ${r.machine.cores} cores with the bot. **UDP drops**: datagrams the kernel dropped for a ` +
      `full receive buffer during the step (/proc/net/snmp RcvbufErrors): packets the bot sent that the fake never saw. ` +
      `Baseline: N = 1 in the same run.`,
    '',
    '| N | played | packets heard / expected | UDP drops | gap p50 | gap p99 | gap max | late | behind schedule p99 / max | bot CPU/stream | bot CPU | bot loop delay p99 / max | servers CPU | servers loop p99 | RSS/stream |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    goal ? `Goal, 100 streams with p99 gap < 25 ms: ${verdict(goal.gapP99Ms < 25 && goal.played === goal.n)} (${ms(goal.gapP99Ms)}).` : 'N = 100 not run.',
    ...(failures.length > 0 ? ['', 'Failures:', ...failures] : []),
    '',
  ];
}

function memorySection(r: Results): string[] {
  const m = r.memory;
  if (!m && !r.readyRss) return [];
  const lines = ['## 4. Memory', ''];
  if (r.readyRss) {
    lines.push(`RSS of the bot process when ready (logged in, ${r.plan.guilds} guilds, nothing played yet, after GC): ` +
      `${mib(r.readyRss.rssBytes)} (heap used ${mib(r.readyRss.heapUsedBytes)}). RSS per active stream: see figure 3.`, '');
  }
  if (m) {
    const growth = (a: number, b: number): number => ((b - a) / a) * 100;
    const rssGrowth = growth(m.warm.rssBytes, m.after.rssBytes);
    lines.push(
      `${m.says} voice /say of "${r.plan.memory.textShown}" (a text each, so each is a Voice API request and a new cache ` +
        `entry; 0.5 s clips; sandbox without delay or pacing) after ${m.warmupSays} ` +
        `warm-up /say, spread over ${r.plan.memory.guilds} guilds (each guild's one after another, the guilds side by side), ` +
        `in ${m.seconds.toFixed(0)} s; ${m.failures.length} did not end in "Spoke". ` +
        `${m.gcExposed ? 'Snapshots after global.gc() (node --expose-gc).' : 'Without --expose-gc: snapshots include uncollected garbage.'}`,
      '',
      '| | RSS | heap used | external |',
      '|---|---|---|---|',
      `| after warm-up (${m.warmupSays} /say) | ${mib(m.warm.rssBytes)} | ${mib(m.warm.heapUsedBytes)} | ${mib(m.warm.externalBytes)} |`,
      `| after ${m.says} more /say | ${mib(m.after.rssBytes)} | ${mib(m.after.heapUsedBytes)} | ${mib(m.after.externalBytes)} |`,
      `| growth | ${pct(rssGrowth)} | ${pct(growth(m.warm.heapUsedBytes, m.after.heapUsedBytes))} | ${pct(growth(m.warm.externalBytes, m.after.externalBytes))} |`,
      '',
      `Goal, no RSS growth beyond 10 %: ${verdict(rssGrowth <= 10)}.`,
      '',
    );
  }
  return lines;
}

function daveSection(r: Results): string[] {
  const d = r.dave;
  if (!d) return [];
  const p = r.plan;
  const p50 = (s: number[]) => percentile(s, 50);
  const addedIn = p50(d.required.inChannel) - p50(d.off.inChannel);
  const addedJoin = p50(d.required.firstJoin) - p50(d.off.firstJoin);
  // The bot commits: key package up, proposals down, commit up, announce down = two round trips of the delay.
  const handshake = 4 * p.dave.handshakeDelayMs;
  const row = (name: string, s: number[]) =>
    `| ${name} | ${s.length} | ${ms(p50(s))} | ${ms(percentile(s, 95))} | ${ms(Math.max(...s))} |`;
  return [
    '## 5. What DAVE adds to time to first audio',
    '',
    `Time to first audio a listener can play (with DAVE: the first frame a listening member decrypted) minus the ` +
      `sandbox's ${p.ttfa.startDelayMs} ms start delay, same reply as figure 1, each mode on its own fake Discord in the ` +
      `same run; DAVE messages delayed ${p.dave.handshakeDelayMs} ms each way. Warm-up runs (${p.dave.warmup}) not counted.`,
    '',
    '| case | runs | overhead p50 | overhead p95 | overhead max |',
    '|---|---|---|---|---|',
    row('DAVE off, bot in channel', d.off.inChannel),
    row('DAVE required, bot in channel', d.required.inChannel),
    row('DAVE off, first join', d.off.firstJoin),
    row('DAVE required, first join', d.required.firstJoin),
    '',
    `DAVE adds ${ms(addedIn)} at p50 in channel (goal: nothing, within noise of 5 ms: ${verdict(addedIn < 5)}) and ` +
      `${ms(addedJoin)} on a first join (goal: at most the handshake's own round trips, ${ms(handshake, 0)}: ` +
      `${verdict(addedJoin <= handshake)}).`,
    '',
  ];
}

function sharedCacheSection(r: Results): string[] {
  const s = r.sharedCache;
  if (!s) return [];
  const us = (x: number) => `${x.toFixed(1)} µs`;
  return [
    '## 6. The audio cache shared between processes, and the /usage chart',
    '',
    'A cache directory filled with small entries, then opened again (opening scans the directory: the same work as the ' +
      'scan a process does when its count passes the cap or its last scan is 30 s old). A miss looks on disk, because ' +
      'another process may have written the entry; its baseline is a hit found in memory, same run. The chart: the ' +
      '/usage SVG (30 days, 5 members, Japanese labels), rendered to PNG off the main thread (renderAsync, libuv pool) ' +
      'with the event loop\'s longest stall meanwhile, against the same render on the main thread.',
    '',
    '| directory | scan | has(): a miss (looks on disk) | has(): a hit (baseline) |',
    '|---|---|---|---|',
    ...s.cache.map((c) => `| ${c.entries} entries in ${c.voices} voice folder(s) | ${ms(c.scanMs, 0)} | ${us(c.missUs)} | ${us(c.hitUs)} |`),
    '',
    '| /usage chart | time | event loop stalled (max) |',
    '|---|---|---|',
    `| SVG | ${ms(s.chart.svgMs)} | — |`,
    `| PNG off the main thread | ${ms(s.chart.asyncMs, 0)} | ${ms(s.chart.asyncStallMs, 0)} |`,
    `| PNG on the main thread (baseline) | ${ms(s.chart.syncMs, 0)} | ${ms(s.chart.syncStallMs, 0)} |`,
    '',
  ];
}

export function render(r: Results): string {
  const { machine } = r;
  return [
    '# SayBot benchmarks',
    '',
    `- Date: ${r.date}`,
    `- Command: \`${r.command}\` (${r.plan.mode} run, ${r.seconds.toFixed(0)} s)`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB; ${machine.os}; Node ${machine.node}`,
    '- Setup: the real bot (SayBot, discord.js, @discordjs/voice) in the benchmark process; the fake Discord (REST, gateway, ' +
      'voice gateway, UDP voice server that decrypts and decodes every packet) and the sandbox Voice API in a child process, ' +
      'all on 127.0.0.1. Bot log level: warn.',
    '',
    ...ttfaSection(r),
    ...cacheSection(r),
    ...concurrencySection(r),
    ...memorySection(r),
    ...daveSection(r),
    ...sharedCacheSection(r),
    ...(r.problems.length > 0 ? ['## Problems seen during the run', '', ...r.problems.slice(0, 20).map((p) => `- ${withoutRepoRoot(p)}`), ''] : []),
  ].join('\n');
}
