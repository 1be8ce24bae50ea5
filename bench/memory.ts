// Figure 4: memory. RSS of the bot process after many /say, against RSS after a warm-up in the same run: a
// leak in the voice path (players, decoder chains, HTTP bodies) shows as growth between the two.
import { setTimeout as sleep } from 'node:timers/promises';
import { SAY_FINISHED, join, say } from './drive.ts';
import type { BenchGuild } from './guilds.ts';
import type { Servers } from './servers-client.ts';

export interface MemorySnapshot {
  rssBytes: number;
  heapUsedBytes: number;
  externalBytes: number;
}

export interface MemoryResult {
  warm: MemorySnapshot;
  after: MemorySnapshot;
  /** A snapshot after every `every` /say past the warm-up: a plateau or a slope. */
  timeline: { says: number; seconds: number; snapshot: MemorySnapshot }[];
  says: number;
  warmupSays: number;
  failures: string[];
  seconds: number;
  gcExposed: boolean;
}

export interface MemoryOptions {
  says: number;
  warmupSays: number;
  /** Snapshots every this many /say. */
  every: number;
  /** The text of the k-th /say (a new one reaches the Voice API, a repeated one is a cache hit). */
  text: (k: number) => string;
}

/** After a full collection when node runs with --expose-gc, so that garbage not yet collected is not read as growth. */
export async function snapshot(): Promise<MemorySnapshot> {
  const gc = globalThis.gc;
  if (gc) {
    // Twice, with a turn of the loop between: finalisers and weak callbacks release more on the second pass.
    gc();
    await sleep(50);
    gc();
  }
  const m = process.memoryUsage();
  return { rssBytes: m.rss, heapUsedBytes: m.heapUsed, externalBytes: m.external };
}

/** `count` /say spread over the guilds: each guild's one after another, the guilds side by side. */
export async function sayMany(
  servers: Servers,
  guilds: BenchGuild[],
  from: number,
  count: number,
  text: (k: number) => string,
  failures: string[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    guilds.map(async (guild) => {
      while (next < count) {
        const k = from + next++;
        const sent = await say(servers, guild, text(k));
        const final = await servers.call('waitResponse', {
          interactionId: sent.interactionId,
          pattern: SAY_FINISHED,
          timeoutMs: 30_000,
        });
        if (!final.startsWith('Spoke')) failures.push(final);
        // The fake keeps what each channel heard: drop it, or the servers process grows instead.
        await servers.call('clearAudio', { guildIds: [guild.guildId] });
      }
    }),
  );
}

export async function measureMemory(
  servers: Servers,
  guilds: BenchGuild[],
  options: MemoryOptions,
): Promise<MemoryResult> {
  for (const guild of guilds) await join(servers, guild);
  const failures: string[] = [];
  const started = performance.now();
  await sayMany(servers, guilds, 0, options.warmupSays, options.text, failures);
  const warm = await snapshot();
  const timeline: MemoryResult['timeline'] = [];
  for (let done = 0; done < options.says;) {
    const count = Math.min(options.every, options.says - done);
    await sayMany(servers, guilds, options.warmupSays + done, count, options.text, failures);
    done += count;
    timeline.push({ says: done, seconds: (performance.now() - started) / 1000, snapshot: await snapshot() });
  }
  const after = timeline.at(-1)?.snapshot ?? warm;
  return {
    warm,
    after,
    timeline,
    says: options.says,
    warmupSays: options.warmupSays,
    failures,
    seconds: (performance.now() - started) / 1000,
    gcExposed: globalThis.gc !== undefined,
  };
}
