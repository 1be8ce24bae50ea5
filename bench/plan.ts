// What a run measures: the full run (the figures in docs/benchmarks.md) or a quick one (a sanity check in under
// two minutes, with fewer samples and the smaller concurrency steps).

import type { NetworkDelays } from './protocol.ts';
import type { SharedCachePlan } from './shared-cache.ts';

export type Figure =
  | 'ttfa'
  | 'cache'
  | 'concurrency'
  | 'cached-voices'
  | 'memory'
  | 'latency'
  | 'shared-cache'
  | 'budget-hold'
  | 'text'
  | 'free-voice'
  | 'free-voice-reading'
  | 'scene-mix'
  | 'scene'
  | 'mute'
  | 'long-jobs'
  | 'holds'
  | 'pages'
  | 'path-files'
  | 'flood'
  | 'file-flood'
  | 'pauses'
  | 'start-lead'
  | 'pace'
  | 'engines'
  | 'scene-voice'
  | 'seats'
  | 'voice-move';
export const FIGURES: readonly Figure[] = [
  'ttfa',
  'cache',
  'concurrency',
  'cached-voices',
  'memory',
  'latency',
  'shared-cache',
  'budget-hold',
  'text',
  'free-voice',
  'free-voice-reading',
  'scene-mix',
  'scene',
  'mute',
  'long-jobs',
  'holds',
  'pages',
  'path-files',
  'flood',
  'file-flood',
  'pauses',
  'start-lead',
  'pace',
  'engines',
  'scene-voice',
  'seats',
  'voice-move',
];
/**
 * Figures measured apart from the shared bot and servers of the other figures: without the bot or the fake Discord
 * (and the sandbox only in their own process), or (scene) with a bot and servers process of their own.
 */
export const STANDALONE: readonly Figure[] = [
  'shared-cache',
  'budget-hold',
  'text',
  'free-voice',
  'free-voice-reading',
  'scene-mix',
  'scene',
  'mute',
  'long-jobs',
  'holds',
  'pages',
  'path-files',
  'flood',
  'file-flood',
  'pauses',
  'start-lead',
  'pace',
  'engines',
  'scene-voice',
  'seats',
  'voice-move',
];

export interface Plan {
  mode: 'quick' | 'full';
  figures: Figure[];
  ttfa: {
    runs: number;
    warmup: number;
    firstJoinRuns: number;
    firstJoinWarmup: number;
    clipSeconds: number;
    startDelayMs: number;
    realtimeFactor: number;
  };
  /**
   * `counts` with SayBot's voice clock (bench/senders/voice-clock.ts); `baselineCounts` again in the same run with
   * @discordjs/voice's shared 20 ms cycle (the sender before issue 25). `costN`: the step at which figure 8 profiles
   * the main thread's allocations, once per sender.
   */
  concurrency: { counts: number[]; baselineCounts: number[]; clipSeconds: number; costN: number };
  /**
   * Figure 9: N guilds speaking cached replies at once (stored Opus packets: nothing decoded or encoded), SayBot's
   * clock at `counts`, the library's cycle at `baselineCounts`; `phrases` distinct cached texts of `clipSeconds`.
   */
  cachedVoices: { counts: number[]; baselineCounts: number[]; clipSeconds: number; phrases: number };
  /** Figure 4's RSS when ready is taken in a fresh process whose fake Discord has this many guilds. */
  readyGuilds: number;
  /**
   * Figure 5: time to first heard audio with network delays, DAVE required against DAVE off, each on its own fake
   * Discord; the sandbox's start delay is the Voice API's time to first byte.
   */
  latency: { runs: number; firstJoinRuns: number; warmup: number; delays: NetworkDelays; ttfbMs: number };
  memory: {
    says: number;
    warmupSays: number;
    every: number;
    guilds: number;
    text: (k: number) => string;
    textShown: string;
  };
  /** Figure 6: the audio cache shared on one CACHE_DIR (lookups, directory scans) and the /usage chart's rendering. */
  sharedCache: SharedCachePlan;
  /** Guilds the fake Discord holds: enough for the largest concurrency step. */
  guilds: number;
}

export function plan(mode: 'quick' | 'full', figures: Figure[], counts?: number[]): Plan {
  const quick = mode === 'quick';
  // Steps close enough to find the knee (where late packets first pass 1 %).
  const concurrencyCounts = counts ?? (quick ? [1, 10, 50] : [1, 10, 25, 50, 75, 100, 150, 200]);
  const baselineCounts = counts ? counts.filter((n) => n >= 50) : quick ? [50] : [50, 100, 200];
  return {
    mode,
    figures,
    ttfa: {
      runs: quick ? 8 : 30,
      warmup: quick ? 1 : 3,
      firstJoinRuns: quick ? 4 : 20,
      firstJoinWarmup: quick ? 1 : 2,
      clipSeconds: 10,
      startDelayMs: 300,
      realtimeFactor: 0.25,
    },
    // 5 s clips: long enough for a steady state of 250 packets per stream, short enough for 200 streams.
    concurrency: { counts: concurrencyCounts, baselineCounts, clipSeconds: 5, costN: 50 },
    cachedVoices: {
      counts: quick ? [50, 100] : [100, 200, 300, 400, 500],
      baselineCounts: quick ? [100] : [100, 300, 500],
      clipSeconds: 5,
      phrases: 10,
    },
    readyGuilds: 200,
    // What the issue names as typical: a REST round trip of 80 ms, 40 ms each way to the gateways, 30 ms each way
    // for voice datagrams, and 300 ms for the Voice API's first byte.
    latency: {
      runs: quick ? 5 : 20,
      firstJoinRuns: quick ? 4 : 12,
      warmup: 1,
      ttfbMs: 300,
      delays: { restRoundTripMs: 80, gatewayLatencyMs: 40, voiceUdpLatencyMs: 30 },
    },
    // Short texts (the sandbox's shortest clip, 0.5 s), so that 10,000 take minutes: the voice path (decode, encode,
    // play, finish) ten thousand times, where a leak would show. One in ten is new (a Voice API request, decoded and
    // encoded); the others repeat one of 50 phrases, cache hits, as a server's common phrases are.
    memory: {
      says: quick ? 1000 : 10_000,
      warmupSays: quick ? 50 : 100,
      every: quick ? 250 : 1000,
      guilds: quick ? 20 : 50,
      text: (k) => (k % 10 === 0 ? `New ${k}.` : `Hello ${k % 50}.`),
      textShown: '"New <k>." for every tenth (a request), else "Hello <k mod 50>." (a cache hit once said)',
    },
    sharedCache: {
      layouts: quick
        ? [
            { voices: 1, entries: 2_000 },
            { voices: 20, entries: 2_000 },
          ]
        : [
            { voices: 1, entries: 2_000 },
            { voices: 20, entries: 2_000 },
            { voices: 20, entries: 20_000 },
          ],
      lookups: 2_000,
      renders: quick ? 3 : 5,
    },
    guilds: Math.max(10, ...concurrencyCounts, ...(figures.includes('cached-voices') ? [quick ? 100 : 500] : [])),
  };
}
