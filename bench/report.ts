// The results as Markdown: printed at the end of every run, and written to docs/benchmarks.md with --write.
import type { ConcurrencyStep } from './concurrency.ts';
import { LATE_GAP_MS } from './concurrency.ts';
import type { Machine } from './machine.ts';
import type { EncoderFloor } from './opus-floor.ts';
import type { MemoryResult, MemorySnapshot } from './memory.ts';
import type { Plan } from './plan.ts';
import type { SendCost } from './send-cost.ts';
import type { SharedCacheResult } from './shared-cache.ts';
import { HEARD_IN_FULL_EVERY } from './guilds.ts';
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

/** Figure 5: whole times (nothing subtracted) to first heard audio, and join times at the fake. */
export interface LatencySamples extends TtfaSamples {
  joinMs: number[];
}

export interface Results {
  plan: Plan;
  machine: Machine;
  command: string;
  date: string;
  /** RSS when ready, in a fresh process (bench/ready-rss.ts), with plan.readyGuilds guilds. */
  readyRss?: MemorySnapshot;
  /** The same in the benchmark's own process after the figures before it, as figure 4 measured it before issue 25. */
  readyRssInBench?: MemorySnapshot;
  /** Figure 9: cached replies at once, and the requests the sandbox saw meanwhile (0: every one a hit). */
  cachedVoices?: { steps: ConcurrencyStep[]; apiRequests: number };
  /** Figure 8: the main thread's allocations per packet, per sender. */
  sendCost?: SendCost[];
  ttfa?: { streaming: TtfaSamples; buffered: TtfaSamples };
  /** Figure 2: time to first audio of a cached reply (nothing subtracted), and the requests the sandbox saw meanwhile. */
  cacheHit?: { totalMs: number[]; apiRequests: number };
  concurrency?: ConcurrencyStep[];
  /** The Opus encoder alone per voice, at the player's settings and the previous ones (bench/opus-floor.ts). */
  encoderFloor?: { speech: EncoderFloor; legacy: EncoderFloor };
  /** Figure 5: time to first heard audio with network delays, per DAVE mode. */
  latency?: { off: LatencySamples; required: LatencySamples; libraryRequired?: LatencySamples };
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
  const totalJoin =
    (percentile(t.buffered.firstJoin, 50) + p.startDelayMs) / (percentile(t.streaming.firstJoin, 50) + p.startDelayMs);
  return [
    '## 1. Time to first audio',
    '',
    `From INTERACTION_CREATE leaving the fake Discord to the first Opus packet reaching its voice server (both stamped in ` +
      `the servers process), for a ${p.clipSeconds} s reply that the sandbox starts after ${p.startDelayMs} ms and sends at ` +
      `${1 / p.realtimeFactor}x real time (WAV, 24 kHz). **Overhead** = that time - ${p.startDelayMs} ms: what the bot adds ` +
      `(interaction, request, decode, resample, encode, voice send; the deferred reply goes out side by side with the ` +
      `request, not before it). Each run is stopped once its first packet ` +
      `is heard. Warm-up runs (${p.warmup} in channel, ${p.firstJoinWarmup} first join) are not counted.`,
    '',
    '| case | runs | overhead p50 | overhead p95 | overhead max | time to first audio p50 | goal |',
    '|---|---|---|---|---|---|---|',
    row(
      'streaming, bot in channel',
      t.streaming.inChannel,
      `p50 < 40 ms, p95 < 80 ms: ${verdict(s50 < 40 && s95 < 80)}`,
    ),
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

/** Late gaps as a share of all gaps. */
const lateShare = (s: ConcurrencyStep): number => (s.late / Math.max(1, s.packets - s.n)) * 100;

/** Failures counted by cause (the message without ids and numbers), most frequent first. */
export function failuresByCause(failures: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const f of failures) {
    const cause = withoutRepoRoot(f)
      .split('\n')[0]!
      .replace(/\d{6,}/g, '<id>')
      .replace(/\d+(\.\d+)?/g, '<n>')
      .slice(0, 160);
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([cause, n]) => `${n} x ${cause}`);
}

const senderName = (s: ConcurrencyStep): string => (s.sender === 'library' ? ' (library cycle, baseline)' : '');

/** The table both voice figures (3, encoded; 7, cached) print: one row per step. */
function voicesTable(steps: ConcurrencyStep[]): string[] {
  return [
    '| N | played | packets heard / expected | UDP drops | gap p50 | gap p99 | gap max | late | behind schedule p99 / max | first audio p50 / max | bot CPU/stream | bot CPU | main thread µs/packet | send path µs/datagram | bot loop delay p99 / max | servers CPU | servers loop p99 | RSS/stream | faults in heard guilds |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...steps.map(
      (s) =>
        `| ${s.n}${senderName(s)} | ${s.played}/${s.n} | ${s.packets} / ${s.expectedPackets} | ${s.udpDrops ?? 'n/a'} | ${ms(s.gapP50Ms)} | ${ms(s.gapP99Ms)} | ${ms(s.gapMaxMs)} | ` +
        `${s.late} (${pct(lateShare(s), 2)}) | ${ms(s.behindP99Ms, 0)} / ${ms(s.behindMaxMs, 0)} | ${ms(s.firstAudioP50Ms, 0)} / ${ms(s.firstAudioMaxMs, 0)} | ${pct(s.cpuPerStreamPct, 2)} | ${pct(s.botCpuPct, 0)} | ` +
        `${s.mainUsPerPacket.toFixed(1)} | ${Number.isFinite(s.sendUsPerPacket) ? s.sendUsPerPacket.toFixed(1) : 'n/a (sender thread)'} | ${ms(s.bot.eventLoopP99Ms)} / ${ms(s.bot.eventLoopMaxMs, 0)} | ${pct(s.serversCpuPct, 0)} | ` +
        `${ms(s.servers.eventLoopP99Ms)} | ${mib(s.rssPerStreamBytes)} | ${s.audioFaults} in ${s.heardInFull} |`,
    ),
  ];
}

const knee = (list: ConcurrencyStep[]) => list.find((s) => lateShare(s) > 1)?.n;
const kneeText = (list: ConcurrencyStep[]) => {
  const k = knee(list);
  return k === undefined ? `not reached up to N = ${Math.max(...list.map((s) => s.n))}` : `N = ${k}`;
};
const at = (list: ConcurrencyStep[], n: number) => list.find((s) => s.n === n);
const baseText = (b: ConcurrencyStep | undefined) =>
  b
    ? ` (library cycle, baseline: ${pct(lateShare(b), 2)} late, behind max ${ms(b.behindMaxMs, 0)}, ${b.udpDrops ?? 'n/a'} UDP drops)`
    : '';

const STEP_TERMS =
  '**Gap**: time between consecutive audio packets of one guild at the voice server (20 ms when all is well), pooled over ' +
  `all guilds. **Late**: gaps > ${LATE_GAP_MS} ms (a whole 20 ms slot missed: audible). **Behind schedule**: how far packets ` +
  "fall behind a steady 20 ms stream from the guild's first packet (a stall caught up by a burst shows here, not in " +
  "the gaps' p99). **First audio**: from the commands sent to each guild's first packet at the voice server. **CPU/stream**: bot process CPU time (all its threads, the encoder pool's included) / audio " +
  "seconds played / N, as % of one core. **Main thread µs/packet**: the main thread's CPU time (process.threadCpuUsage) " +
  "over the step / audio packets heard. **Send path µs/datagram**: main-thread time inside the sender (SayBot's clock " +
  "wakeups; the baseline's AudioPlayer cycle steps) / datagrams it sent (audio and silence). Event-loop delay: " +
  'monitorEventLoopDelay at 1 ms resolution over the run. The fake Discord and the sandbox run in a separate process ' +
  '(`bench/servers.ts`); their CPU is shown apart ("servers"), but they share the machine\'s cores with the bot. The fake ' +
  `decrypts (transport and DAVE, by every listener) and decodes the audio of one guild in ${HEARD_IN_FULL_EVERY} (and of ` +
  'the first two) and times the datagrams of all of them; **faults in heard guilds**: transport or DAVE decrypt failures, ' +
  'frames sent without end-to-end encryption and Opus decode failures there (0 expected), "in" how many guilds. ' +
  '**UDP drops**: datagrams the kernel dropped for a full receive buffer during the step (/proc/net/snmp RcvbufErrors). ' +
  "**Library cycle, baseline**: the same steps in the same run with @discordjs/voice's AudioPlayer and its shared 20 ms " +
  'cycle and WAV/MP3 decoded and resampled on the main thread (encoded in the same encoder pool), as SayBot played ' +
  "audio before issue 25; SayBot's clock steps decode, resample and encode in the transcoding pool's threads.";

function concurrencySection(r: Results): string[] {
  const steps = r.concurrency;
  if (!steps) return [];
  const clock = steps.filter((s) => s.sender !== 'library');
  const library = steps.filter((s) => s.sender === 'library');
  const goals: string[] = [];
  const s100 = at(clock, 100);
  const s200 = at(clock, 200);
  if (s100) {
    goals.push(
      `- 100 voices at once: late < 0.5 % and behind schedule max < 100 ms: ${verdict(lateShare(s100) < 0.5 && s100.behindMaxMs < 100 && s100.played === s100.n)} ` +
        `(${pct(lateShare(s100), 2)} late, behind max ${ms(s100.behindMaxMs, 0)}, ${s100.played}/${s100.n} played)${baseText(at(library, 100))}.`,
    );
  }
  if (s200) {
    goals.push(
      `- 200 voices at once: late < 2 %, no UDP drop: ${verdict(lateShare(s200) < 2 && s200.udpDrops === 0 && s200.played === s200.n)} (${pct(lateShare(s200), 2)} late, ` +
        `${s200.udpDrops ?? 'n/a'} UDP drops, ${s200.played}/${s200.n} played, behind max ${ms(s200.behindMaxMs, 0)})${baseText(at(library, 200))}.`,
    );
  }
  const k = knee(clock);
  goals.push(
    `- Knee (late first above 1 %) at 150 or more: ${verdict(k === undefined ? Math.max(...clock.map((s) => s.n)) >= 150 : k >= 150)} ` +
      `(${kneeText(clock)}${library.length > 0 ? `; library cycle: ${kneeText(library)} of N = ${library.map((s) => s.n).join(', ')}` : ''}).`,
  );
  const busiest = clock.at(-1);
  const busiestBase = library.at(-1);
  const f = r.encoderFloor;
  if (busiest) {
    goals.push(
      `- CPU per voice at N = ${busiest.n}: ${pct(busiest.cpuPerStreamPct, 2)} of a core (bot process, all threads)` +
        `${busiestBase ? `; library cycle at N = ${busiestBase.n}: ${pct(busiestBase.cpuPerStreamPct, 2)}` : ''}` +
        `${f ? `. Floor, the encoder alone: ${pct(f.speech.corePctPerVoice, 2)} (settings before issue 17: ${pct(f.legacy.corePctPerVoice, 2)})` : ''}.`,
    );
  }
  const floorRows = f
    ? [
        '',
        "The encoder alone (`bench/opus-floor.ts`: the speech fixture, 24 kHz mono, through the player's decoding and resampling, " +
          "encoded on one thread with nothing else running; decoded with a stereo decoder as Discord's clients do):",
        '',
        '| settings | channels | CPU per 20 ms frame | share of a core per voice | bitrate | pitch decoded / source | level decoded / source |',
        '|---|---|---|---|---|---|---|',
        ...(
          [
            ['player (OPUS_ENCODER_SETTINGS: complexity 4, 64 kb/s, CELT, mono for mono sources)', f.speech],
            ['before issue 17 (stereo, libopus defaults: complexity 10, auto bitrate)', f.legacy],
          ] as const
        ).map(
          ([name, x]) =>
            `| ${name} | ${x.channels} | ${x.usPerFrame.toFixed(0)} µs | ${pct(x.corePctPerVoice, 2)} | ${x.kbps.toFixed(0)} kb/s | ` +
            `${x.pitchHz?.toFixed(1) ?? 'n/a'} / ${x.source.pitchHz?.toFixed(1) ?? 'n/a'} Hz | ${x.levelDb.toFixed(2)} / ${x.source.levelDb.toFixed(2)} dB |`,
        ),
      ]
    : [];
  return [
    '## 3. Concurrent voices (encoded)',
    '',
    `N guilds, each with a listener in a voice channel the bot already joined (DAVE group ready), all sent /say at once (one turn of ` +
      `the fake's event loop); ${r.plan.concurrency.clipSeconds} s clips, each its own text (a Voice API request, decoded, ` +
      `resampled and encoded), same sandbox pacing as figure 1. ${STEP_TERMS}`,
    '',
    ...voicesTable(steps),
    ...floorRows,
    '',
    ...goals,
    ...stepFailures(steps),
    '',
  ];
}

function stepFailures(steps: ConcurrencyStep[]): string[] {
  const failures = steps
    .filter((s) => s.failures.length > 0)
    .map((s) => `- N = ${s.n}${senderName(s)}: ${failuresByCause(s.failures).join('; ')}`);
  return failures.length > 0 ? ['', 'Failures, counted by cause:', ...failures] : [];
}

function cachedVoicesSection(r: Results): string[] {
  const c = r.cachedVoices;
  if (!c) return [];
  const clock = c.steps.filter((s) => s.sender !== 'library');
  const library = c.steps.filter((s) => s.sender === 'library');
  const s500 = at(clock, 500);
  const largest = clock.at(-1);
  const goals: string[] = [];
  if (s500) {
    goals.push(
      `- 500 cached voices at once: late < 1 %: ${verdict(lateShare(s500) < 1 && s500.played === s500.n)} (${pct(lateShare(s500), 2)} late, ` +
        `behind max ${ms(s500.behindMaxMs, 0)}, ${s500.played}/${s500.n} played, ${s500.udpDrops ?? 'n/a'} UDP drops)${baseText(at(library, 500))}.`,
    );
  }
  goals.push(
    `- Knee (late first above 1 %): ${kneeText(clock)}${library.length > 0 ? `; library cycle: ${kneeText(library)} of N = ${library.map((s) => s.n).join(', ')}` : ''}.`,
  );
  if (largest) {
    const base = library.at(-1);
    goals.push(
      `- CPU per voice at N = ${largest.n}: ${pct(largest.cpuPerStreamPct, 3)} of a core (bot process, all threads; ` +
        `main thread ${largest.mainUsPerPacket.toFixed(1)} µs per packet)${
          base
            ? `; library cycle at N = ${base.n}: ${pct(base.cpuPerStreamPct, 3)} ` +
              `(${base.mainUsPerPacket.toFixed(1)} µs per packet)`
            : ''
        }. Songbird (Rust, issue 25's anchor) reports up to 660 passthrough calls on one thread.`,
    );
  }
  return [
    '## 9. Concurrent voices from the cache (passthrough)',
    '',
    `As figure 3, but every reply is one of ${r.plan.cachedVoices.phrases} phrases (${r.plan.cachedVoices.clipSeconds} s each) said once ` +
      `before the steps: the players get the cache's stored Opus packets, nothing is decoded or encoded. Voice API requests ` +
      `during the steps: ${c.apiRequests}${c.apiRequests === 0 ? ' (every reply a hit)' : ' (**not all hits**)'}. ${STEP_TERMS}`,
    '',
    ...voicesTable(c.steps),
    '',
    ...goals,
    ...stepFailures(c.steps),
    '',
  ];
}

function sendCostSection(r: Results): string[] {
  const costs = r.sendCost;
  if (!costs || costs.length === 0) return [];
  const n = r.plan.concurrency.costN;
  const timed = (sender: string) => r.concurrency?.find((s) => s.sender === sender && s.n === n);
  const rows = costs.map((c) => {
    const t = timed(c.sender);
    return (
      `| ${c.sender === 'library' ? 'library cycle (baseline)' : c.sender === 'clock' ? "SayBot's clock" : "SayBot's sender thread (main-thread side)"} | ${t ? t.mainUsPerPacket.toFixed(1) : 'n/a'} | ` +
      `${t ? t.sendUsPerPacket.toFixed(1) : 'n/a'} | ${pct(c.sendShareOfBusy * 100, 0)} | ${c.allocatedBytesPerPacket.toFixed(0)} B | ${c.sendAllocatedBytesPerPacket.toFixed(0)} B |`
    );
  });
  const clock = costs.find((c) => c.sender !== 'library');
  const library = costs.find((c) => c.sender === 'library');
  return [
    '## 8. The main thread per packet',
    '',
    `At N = ${n} encoded voices (figure 3's step). Time, from figure 3's steps (no profiler running): the main thread's CPU ` +
      `per audio packet heard, and the send path's time per datagram. Allocations, in one more step per sender with V8's ` +
      `sampling heap profiler on the main thread (every 256 bytes on average; objects collected since included), per ` +
      `datagram sent: everything the main thread allocated (HTTP bodies, decoding, streams, Discord, sending), and what ` +
      `was allocated with the send path on the stack (SayBot: bench/senders/voice-clock.ts, clock-sender.ts, rtp-sender.ts ` +
      `and what they call, the DAVE session's encrypt, node:crypto and node:dgram included; the baseline: the ` +
      `library's audioCycleStep/prepareNextAudioFrame and what they call). The send path's share of the main thread's ` +
      `busy time comes from a CPU profile (100 µs samples) over the same step.`,
    '',
    '| sender | main thread µs per packet | send path µs per datagram | send path share of main-thread busy time | allocated per datagram (main thread, all) | allocated per datagram (send path) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `- No per-packet allocation on the main thread's send path: ${verdict((clock?.sendAllocatedBytesPerPacket ?? 1) < 1)} ` +
      `(${clock ? `${clock.sendAllocatedBytesPerPacket.toFixed(0)} B per datagram` : 'n/a'}${library ? `; baseline ${library.sendAllocatedBytesPerPacket.toFixed(0)} B` : ''}).`,
    '',
  ];
}

function memorySection(r: Results): string[] {
  const m = r.memory;
  if (!m && !r.readyRss) return [];
  const lines = ['## 4. Memory', ''];
  if (r.readyRss) {
    lines.push(
      `RSS of the bot when ready (logged in, ${r.plan.readyGuilds} guilds, nothing played yet, after GC), in a ` +
        `process of its own (bench/ready-rss.ts): ${mib(r.readyRss.rssBytes)} (heap used ${mib(r.readyRss.heapUsedBytes)}); ` +
        `goal under 200 MiB: ${verdict(r.readyRss.rssBytes < 200 * 1024 * 1024)}.` +
        `${
          r.readyRssInBench
            ? ` Measured as before issue 25, in the benchmark's own process after the figures before it ` +
              `(${r.plan.guilds} guilds): ${mib(r.readyRssInBench.rssBytes)} (heap used ${mib(r.readyRssInBench.heapUsedBytes)}).`
            : ''
        } ` +
        'RSS per active stream: see figures 3 and 9.',
      '',
    );
  }
  if (m) {
    const growth = (a: number, b: number): number => ((b - a) / a) * 100;
    const rssGrowth = growth(m.warm.rssBytes, m.after.rssBytes);
    // The second half of the run against the first: a plateau grows little there, a leak as much as before.
    const mid = m.timeline[Math.floor((m.timeline.length - 1) / 2)]?.snapshot;
    const lateGrowth = mid ? growth(mid.rssBytes, m.after.rssBytes) : Number.NaN;
    const row = (name: string, x: MemorySnapshot) =>
      `| ${name} | ${mib(x.rssBytes)} | ${pct(growth(m.warm.rssBytes, x.rssBytes))} | ${mib(x.heapUsedBytes)} | ${mib(x.externalBytes)} |`;
    lines.push(
      `${m.says} voice /say after ${m.warmupSays} warm-up /say, texts ${r.plan.memory.textShown}; 0.5 s clips; sandbox ` +
        `without delay or pacing; spread over ${r.plan.memory.guilds} guilds (each guild's one after another, the guilds side ` +
        `by side), in ${m.seconds.toFixed(0)} s; ${m.failures.length} did not end in "Spoke"` +
        `${m.failures.length > 0 ? ` (${failuresByCause(m.failures).slice(0, 3).join('; ')})` : ''}. ` +
        `${m.gcExposed ? 'Snapshots after global.gc() (node --expose-gc).' : 'Without --expose-gc: snapshots include uncollected garbage.'}`,
      '',
      '| after | RSS | RSS growth since warm-up | heap used | external |',
      '|---|---|---|---|---|',
      row(`warm-up (${m.warmupSays} /say)`, m.warm),
      ...m.timeline.map((t) => row(`${t.says} more /say (${t.seconds.toFixed(0)} s)`, t.snapshot)),
      '',
      `Goal, RSS growth below 5 % over ${m.says} /say after the warm-up: ${verdict(rssGrowth < 5)} (${pct(rssGrowth)}; ` +
        `second half of the run alone: ${pct(lateGrowth)}).`,
      '',
    );
  }
  return lines;
}

function latencySection(r: Results): string[] {
  const lat = r.latency;
  if (!lat) return [];
  const l = r.plan.latency;
  const { restRoundTripMs: rest, gatewayLatencyMs: g, voiceUdpLatencyMs: u } = l.delays;
  const p50 = (s: number[]) => percentile(s, 50);
  // The legs no bot can avoid: the interaction's way in (gateway) and the first packet's way out (voice UDP).
  const fixed = g + u;
  const botShare = (s: number[]) => s.map((x) => x - fixed);
  // Join as the bot lives it: op 4 leaves it one gateway leg before the fake sees it, and the DAVE transition
  // reaches it one leg after the fake sends it.
  const joins = (s: LatencySamples) => s.joinMs.map((x) => x + 2 * g);
  const req = lat.required;
  const inChannel = p50(botShare(req.inChannel));
  const firstJoin = p50(botShare(req.firstJoin));
  const joinP50 = p50(joins(req));
  const inChannelGoal = l.ttfbMs + 10;
  const firstJoinGoal = Math.max(l.ttfbMs, joinP50) + 20;
  const row = (name: string, s: LatencySamples, join: boolean) => {
    const share = botShare(join ? s.firstJoin : s.inChannel);
    const raw = join ? s.firstJoin : s.inChannel;
    return (
      `| ${name} | ${raw.length} | ${ms(p50(raw), 0)} | ${ms(p50(share), 0)} | ${ms(percentile(share, 95), 0)} | ${ms(Math.max(...share), 0)} | ` +
      `${join && s.joinMs.length > 0 && s !== lat.off ? ms(p50(joins(s)), 0) : 'n/a'} |`
    );
  };
  const daveIn = p50(req.inChannel) - p50(lat.off.inChannel);
  const daveJoin = p50(req.firstJoin) - p50(lat.off.firstJoin);
  const handshake = 4 * g;
  return [
    "## 5. Time to first audio with network delays, and DAVE's share",
    '',
    `The fake Discord adds what loopback hides: ${rest} ms to every REST request (a round trip), ${g} ms each way to ` +
      `every gateway and voice gateway message (DAVE's included), ${u} ms each way to every voice datagram; the Voice ` +
      `API answers its first byte after ${l.ttfbMs} ms and sends the ${r.plan.ttfa.clipSeconds} s reply at ` +
      `${1 / r.plan.ttfa.realtimeFactor}x real time. **Whole**: INTERACTION_CREATE leaving the fake to the first frame a ` +
      `listening member decrypted (DAVE off: the first packet). **Bot's part**: whole - ${g} ms (the interaction's way ` +
      `in) - ${u} ms (the first packet's way out), what no bot can avoid; the goals are on this. **Join**: the bot's ` +
      `voice state update (op 4) leaving it to its DAVE group being ready for it (measured at the fake, + 2 x ${g} ms). ` +
      `Warm-up runs (${l.warmup}) not counted.`,
    '',
    "| case | runs | whole p50 | bot's part p50 | p95 | max | join p50 |",
    '|---|---|---|---|---|---|---|',
    row('DAVE required, bot in channel', req, false),
    row('DAVE required, first join', req, true),
    row('DAVE off, bot in channel', lat.off, false),
    row('DAVE off, first join', lat.off, true),
    ...(lat.libraryRequired
      ? [
          row('DAVE required, bot in channel, library cycle (baseline)', lat.libraryRequired, false),
          row('DAVE required, first join, library cycle (baseline)', lat.libraryRequired, true),
        ]
      : []),
    '',
    `- In channel (DAVE required, bot's part): ${ms(inChannel, 0)} at p50; goal at most the Voice API's first byte + 10 ms = ${ms(inChannelGoal, 0)}: ` +
      `${verdict(inChannel <= inChannelGoal)} (${ms(inChannel - l.ttfbMs, 0)} after the first byte` +
      `${lat.libraryRequired ? `; library cycle: ${ms(p50(botShare(lat.libraryRequired.inChannel)) - l.ttfbMs, 0)}` : ''}).`,
    `- First join (DAVE required, bot's part; join as measured in this run): ${ms(firstJoin, 0)} at p50; goal at most max(first byte ${ms(l.ttfbMs, 0)}, join ${ms(joinP50, 0)}) + 20 ms = ` +
      `${ms(firstJoinGoal, 0)}: ${verdict(firstJoin <= firstJoinGoal)}${firstJoin > firstJoinGoal ? ` (${ms(firstJoin - firstJoinGoal, 0)} over)` : ''}.`,
    `- DAVE's share (required - off, p50 of whole times): ${ms(daveIn, 0)} in channel (goal: nothing, within 5 ms: ` +
      `${verdict(daveIn < 5)}), ${ms(daveJoin, 0)} on a first join (goal: at most its handshake's two round trips, ` +
      `${ms(handshake, 0)}: ${verdict(daveJoin <= handshake)}).`,
    '',
  ];
}

/** A JSON log line reduced to what tells causes apart: its source, level, code, message and error type/message. */
function causeOfLogLine(line: string): string {
  const at = line.indexOf('{');
  if (at < 0) return line;
  try {
    const entry = JSON.parse(line.slice(at)) as {
      level?: number;
      code?: string;
      msg?: string;
      err?: { type?: string; message?: string };
    };
    return `${line.slice(0, at)}level ${entry.level ?? '?'} ${entry.code ?? ''} "${entry.msg ?? ''}"${entry.err ? ` ${entry.err.type ?? ''}: ${entry.err.message ?? ''}` : ''}`;
  } catch {
    return line;
  }
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
      "with the event loop's longest stall meanwhile, against the same render on the main thread.",
    '',
    '| directory | scan | has(): a miss (looks on disk) | has(): a hit (baseline) |',
    '|---|---|---|---|',
    ...s.cache.map(
      (c) =>
        `| ${c.entries} entries in ${c.voices} voice folder(s) | ${ms(c.scanMs, 0)} | ${us(c.missUs)} | ${us(c.hitUs)} |`,
    ),
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
    // A section of docs/benchmarks.md (its history of runs) when written there with --write.
    '## A run of npm run bench',
    '',
    `- Date: ${r.date}`,
    `- Command: \`${r.command}\` (${r.plan.mode} run, ${r.seconds.toFixed(0)} s)`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB; ${machine.os}; Node ${machine.node}`,
    '- Setup: the real bot (SayBot, discord.js, @discordjs/voice) in the benchmark process; the fake Discord (REST, gateway, ' +
      `voice gateway, UDP voice server that decrypts and decodes the audio of one guild in ${HEARD_IN_FULL_EVERY} and times every packet) and the sandbox Voice API in a child process, ` +
      'all on 127.0.0.1. Bot log level: warn.',
    '',
    ...ttfaSection(r),
    ...cacheSection(r),
    ...concurrencySection(r),
    ...memorySection(r),
    ...latencySection(r),
    ...sharedCacheSection(r),
    ...cachedVoicesSection(r),
    ...sendCostSection(r),
    ...(r.problems.length > 0
      ? [
          '## Problems seen during the run (counted by cause)',
          '',
          ...failuresByCause(r.problems.map(causeOfLogLine))
            .slice(0, 20)
            .map((p) => `- ${p}`),
          '',
        ]
      : []),
  ].join('\n');
}
