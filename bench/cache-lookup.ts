// Cache lookups at many voice folders: a miss before, which listed the cache directory and
// stat'ed every voice folder synchronously (the old algorithm, reproduced below as it was), against the lookup of
// one path now (AudioCache.has, asynchronous). Printed after figure 6 whenever the shared-cache figure runs.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AudioCache } from '../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../src/core/sourcing/part-request.ts';
import { encodeEntry } from '../src/core/cache/entry-file.ts';
import { silentLogger } from '../src/core/log.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

export interface CacheLookupRow {
  voices: number;
  /** The old miss: mean ms per lookup, all of it on the main thread. */
  oldMissMs: number;
  /** The new miss: mean ms per lookup (await), and the longest event-loop stall while they ran. */
  newMissMs: number;
  newStallMs: number;
  /** A hit in memory now, µs. */
  newHitUs: number;
}

const entry = {
  format: 'wav' as const,
  audio: [
    Buffer.from(encodeWav(toneSamples({ pitchHz: 300, seconds: 0.05, amplitude: 0.5, sampleRate: 8_000 }), 8_000)),
  ],
  packets: [Buffer.alloc(80)],
};
const keyOf = (text: string, voice: string) => partCacheKey({ kind: 'tts', text, voice, format: 'wav' }, text);

/** The lookup of a key another process may have written, as src/core/cache/audio-cache.ts did it before issue 23. */
function oldLocate(dir: string, key: string): number | undefined {
  let folders: string[];
  try {
    folders = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const voiceDir of folders) {
    try {
      const bytes = statSync(path.join(dir, voiceDir, `${key}.sbc`), { throwIfNoEntry: false })?.size;
      if (bytes !== undefined) return bytes;
    } catch {
      continue;
    }
  }
  return undefined;
}

export async function measureCacheLookup(voiceCounts: readonly number[], lookups: number): Promise<CacheLookupRow[]> {
  const rows: CacheLookupRow[] = [];
  for (const voices of voiceCounts) {
    const dir = mkdtempSync(path.join(tmpdir(), 'saybot-bench-lookup-'));
    try {
      for (let v = 0; v < voices; v++) {
        const voice = `voice-${v}`;
        mkdirSync(path.join(dir, voice));
        const key = keyOf('line', voice);
        writeFileSync(path.join(dir, voice, `${key}.sbc`), encodeEntry(key, voice, entry));
      }
      const cache = await AudioCache.open({ dir, maxBytes: 1e12, logger: silentLogger });
      let start = performance.now();
      for (let i = 0; i < lookups; i++) oldLocate(dir, keyOf(`absent ${i}`, 'voice-0'));
      const oldMissMs = (performance.now() - start) / lookups;

      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      start = performance.now();
      for (let i = 0; i < lookups; i++)
        await cache.has(keyOf(`absent ${i}`, `voice-${i % voices}`), `voice-${i % voices}`);
      const newMissMs = (performance.now() - start) / lookups;
      loop.disable();

      start = performance.now();
      for (let i = 0; i < lookups; i++) await cache.has(keyOf('line', `voice-${i % voices}`), `voice-${i % voices}`);
      const newHitUs = ((performance.now() - start) * 1000) / lookups;
      await cache.close();
      rows.push({ voices, oldMissMs, newMissMs, newStallMs: loop.max / 1e6, newHitUs });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** The section printed in the bench report. */
export async function cacheLookupReport(mode: 'quick' | 'full'): Promise<string> {
  const rows = await measureCacheLookup(
    mode === 'quick' ? [300, 3_000] : [300, 3_000, 10_000],
    mode === 'quick' ? 50 : 200,
  );
  const f = (n: number, digits: number) => n.toFixed(digits);
  return [
    '### Cache lookups at many voice folders',
    '',
    "A miss before: the cache directory listed and every voice folder stat'ed, synchronously (on the main thread, twice per new part).",
    'Now: the voice names the folder, so a lookup is one asynchronous stat of one path. One entry per voice folder.',
    '',
    '| voice folders | miss before (sync) | miss now (async) | longest loop stall now | hit now |',
    '|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.voices.toLocaleString('en')} | ${f(r.oldMissMs, 2)} ms | ${f(r.newMissMs, 3)} ms | ${f(r.newStallMs, 1)} ms | ${f(r.newHitUs, 1)} µs |`,
    ),
  ].join('\n');
}

if (import.meta.main) console.log(await cacheLookupReport(process.argv.includes('--quick') ? 'quick' : 'full'));
