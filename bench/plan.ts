// What a run measures: the full run (the figures in docs/benchmarks.md) or a quick one (a sanity check in under
// two minutes, with fewer samples and the smaller concurrency steps).

import type { NetworkDelays } from './protocol.ts';

export type Figure = 'ttfa' | 'cache' | 'concurrency' | 'memory' | 'latency';
export const FIGURES: readonly Figure[] = ['ttfa', 'cache', 'concurrency', 'memory', 'latency'];

export interface Plan {
  mode: 'quick' | 'full';
  figures: Figure[];
  ttfa: { runs: number; warmup: number; firstJoinRuns: number; firstJoinWarmup: number; clipSeconds: number; startDelayMs: number; realtimeFactor: number };
  concurrency: { counts: number[]; clipSeconds: number };
  /**
   * Figure 5: time to first heard audio with network delays, DAVE required against DAVE off, each on its own fake
   * Discord; the sandbox's start delay is the Voice API's time to first byte.
   */
  latency: { runs: number; firstJoinRuns: number; warmup: number; delays: NetworkDelays; ttfbMs: number };
  memory: { says: number; warmupSays: number; guilds: number; text: (k: number) => string; textShown: string };
  /** Guilds the fake Discord holds: enough for the largest concurrency step. */
  guilds: number;
}

export function plan(mode: 'quick' | 'full', figures: Figure[], counts?: number[]): Plan {
  const quick = mode === 'quick';
  const concurrencyCounts = counts ?? (quick ? [1, 10, 50] : [1, 10, 50, 100, 200]);
  return {
    mode,
    figures,
    ttfa: {
      runs: quick ? 8 : 30, warmup: quick ? 1 : 3, firstJoinRuns: quick ? 4 : 20, firstJoinWarmup: quick ? 1 : 2,
      clipSeconds: 10, startDelayMs: 300, realtimeFactor: 0.25,
    },
    // 5 s clips: long enough for a steady state of 250 packets per stream, short enough for 200 streams.
    concurrency: { counts: concurrencyCounts, clipSeconds: 5 },
    // What the issue names as typical: a REST round trip of 80 ms, 40 ms each way to the gateways, 30 ms each way
    // for voice datagrams, and 300 ms for the Voice API's first byte.
    latency: {
      runs: quick ? 5 : 20, firstJoinRuns: quick ? 4 : 12, warmup: 1, ttfbMs: 300,
      delays: { restRoundTripMs: 80, gatewayLatencyMs: 40, voiceUdpLatencyMs: 30 },
    },
    // The sandbox's shortest clip (0.5 s): the voice path (join, decode, encode, play, finish) a thousand times
    // in minutes, which is where a leak would be.
    memory: { says: quick ? 200 : 1000, warmupSays: quick ? 50 : 100, guilds: 10, text: (k) => `Hi ${k}.`, textShown: 'Hi <k>.' },
    guilds: Math.max(10, ...concurrencyCounts, 2),
  };
}
