// Figure 6 of npm run bench: what sharing CACHE_DIR between processes costs, and what the /usage chart costs,
// each beside its baseline measured in the same run (speed goals live here, never in tests).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Resvg } from '@resvg/resvg-js';
import { AudioCache } from '../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../src/core/sourcing/part-request.ts';
import { silentLogger } from '../src/core/log.ts';
import { usageChartSvg } from '../src/features/usage/chart.ts';
import { chartFontFiles } from '../src/features/usage/chart-fonts.ts';
import { chartFontFamily, renderPng } from '../src/features/usage/render-png.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

export interface SharedCachePlan {
  /** Directories to fill and scan: voice folders and entries in all. */
  layouts: ReadonlyArray<{ voices: number; entries: number }>;
  /** has() calls timed per kind (hit, miss). */
  lookups: number;
  /** PNG renders timed per way (libuv pool, main thread). */
  renders: number;
}

export interface SharedCacheResult {
  cache: Array<{ voices: number; entries: number; scanMs: number; hitUs: number; missUs: number }>;
  chart: { svgMs: number; asyncMs: number; asyncStallMs: number; syncMs: number; syncStallMs: number };
}

const entry = {
  format: 'wav' as const,
  audio: [
    Buffer.from(encodeWav(toneSamples({ pitchHz: 300, seconds: 0.05, amplitude: 0.5, sampleRate: 8_000 }), 8_000)),
  ],
  packets: Array.from({ length: 50 }, () => Buffer.alloc(80)),
};
const keyOf = (text: string, voice: string) => partCacheKey({ kind: 'tts', text, voice, format: 'wav' }, text);
const perCall = async (n: number, work: (i: number) => unknown): Promise<number> => {
  const start = performance.now();
  for (let i = 0; i < n; i++) await work(i);
  return ((performance.now() - start) * 1000) / n;
};

async function cacheFigures(p: SharedCachePlan): Promise<SharedCacheResult['cache']> {
  const rows: SharedCacheResult['cache'] = [];
  for (const { voices, entries } of p.layouts) {
    const dir = mkdtempSync(path.join(tmpdir(), 'saybot-bench-cache-'));
    try {
      const writer = await AudioCache.open({ dir, maxBytes: 1e12, logger: silentLogger });
      for (let i = 0; i < entries; i++)
        await writer.put(keyOf(`t${i}`, `voice-${i % voices}`), `voice-${i % voices}`, entry, 0);
      await writer.close();
      // Opening scans the directory: the same work as the scan a write over the cap (or 30 s after the last scan) does.
      const scanStart = performance.now();
      const cache = await AudioCache.open({ dir, maxBytes: 1e12, logger: silentLogger });
      const scanMs = performance.now() - scanStart;
      const hitUs = await perCall(p.lookups, (i) =>
        cache.has(keyOf(`t${i % entries}`, `voice-${(i % entries) % voices}`), `voice-${(i % entries) % voices}`),
      );
      const missUs = await perCall(p.lookups, (i) => cache.has(keyOf(`absent${i}`, 'voice-0'), 'voice-0'));
      rows.push({ voices, entries, scanMs, hitUs, missUs });
      await cache.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** The chart: SVG, then PNG off the main thread and the event loop's longest stall meanwhile, against the same render on the main thread. */
async function chartFigures(p: SharedCachePlan): Promise<SharedCacheResult['chart']> {
  const days = Array.from({ length: 30 }, (_, i) => ({
    day: `2025-04-${String(i + 1).padStart(2, '0')}`,
    spent: 1_000 + i * 37,
    saved: 400 + i * 11,
  }));
  const members = Array.from({ length: 5 }, (_, i) => ({
    name: `メンバー ${i} 멤버`,
    spent: 5_000 - i * 700,
    saved: 900,
  }));
  const labels = {
    title: '2025-04 の文字数 (UTC)',
    perDay: '日別',
    monthToDate: '今月の累計使用',
    spent: '使用',
    saved: 'キャッシュで節約',
    budget: '月間予算',
    topMembers: '上位メンバー',
    noData: 'まだありません',
    number: (n: number) => n.toLocaleString('ja'),
    fontFamily: chartFontFamily('ja'),
  };
  const svgStart = performance.now();
  const svg = usageChartSvg({ month: '2025-04', days, budget: 60_000, members }, labels);
  const svgMs = performance.now() - svgStart;
  await renderPng(svg); // fonts into the page cache
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let asyncMs = 0;
  for (let i = 0; i < p.renders; i++) {
    const start = performance.now();
    await renderPng(svg);
    asyncMs += (performance.now() - start) / p.renders;
  }
  const asyncStallMs = loop.max / 1e6;
  loop.reset();
  let syncMs = 0;
  for (let i = 0; i < p.renders; i++) {
    const start = performance.now();
    new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: chartFontFiles() } }).render().asPng();
    syncMs += (performance.now() - start) / p.renders;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const syncStallMs = loop.max / 1e6;
  loop.disable();
  return { svgMs, asyncMs, asyncStallMs, syncMs, syncStallMs };
}

export async function measureSharedCache(p: SharedCachePlan): Promise<SharedCacheResult> {
  return { cache: await cacheFigures(p), chart: await chartFigures(p) };
}
