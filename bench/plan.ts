// What a run measures: the full run (the figures in docs/benchmarks.md) or a quick one (a sanity check in under
// two minutes, with fewer samples and the smaller concurrency steps).

import type { SharedCachePlan } from './shared-cache.ts';

export type Figure = 'ttfa' | 'cache' | 'concurrency' | 'memory' | 'dave' | 'shared-cache';
export const FIGURES: readonly Figure[] = ['ttfa', 'cache', 'concurrency', 'memory', 'dave', 'shared-cache'];
/** Figures measured without the bot, the fake Discord or the sandbox. */
export const STANDALONE: readonly Figure[] = ['shared-cache'];

export interface Plan {
  mode: 'quick' | 'full';
  figures: Figure[];
  ttfa: { runs: number; warmup: number; firstJoinRuns: number; firstJoinWarmup: number; clipSeconds: number; startDelayMs: number; realtimeFactor: number };
  concurrency: { counts: number[]; clipSeconds: number };
  /** Figure 5: time to first heard audio with DAVE required against DAVE off, each on its own fake Discord. */
  dave: { runs: number; firstJoinRuns: number; warmup: number; handshakeDelayMs: number };
  memory: { says: number; warmupSays: number; guilds: number; text: (k: number) => string; textShown: string };
  /** Figure 6: the audio cache shared on one CACHE_DIR (lookups, directory scans) and the /usage chart's rendering. */
  sharedCache: SharedCachePlan;
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
    // 60 ms each way: a listener on another continent; the DAVE handshake's round trips are what a first join pays.
    dave: { runs: quick ? 4 : 20, firstJoinRuns: quick ? 3 : 12, warmup: 1, handshakeDelayMs: 60 },
    // The sandbox's shortest clip (0.5 s): the voice path (join, decode, encode, play, finish) a thousand times
    // in minutes, which is where a leak would be.
    memory: { says: quick ? 200 : 1000, warmupSays: quick ? 50 : 100, guilds: 10, text: (k) => `Hi ${k}.`, textShown: 'Hi <k>.' },
    sharedCache: {
      layouts: quick ? [{ voices: 1, entries: 2_000 }, { voices: 20, entries: 2_000 }] : [{ voices: 1, entries: 2_000 }, { voices: 20, entries: 2_000 }, { voices: 20, entries: 20_000 }],
      lookups: 2_000,
      renders: quick ? 3 : 5,
    },
    guilds: Math.max(10, ...concurrencyCounts, 2),
  };
}
