// What checking a /clone clip of hours costs: a 20 MB MP3 at 8 kb/s (5.6 hours) checked the
// old way (the whole file decoded on the main thread: analyseClip without a limit, as checkReferenceClip did)
// against checkReferenceClip now (headers first, refused without decoding), and a 60 s clip that fits (decoded
// in the worker thread). Each case runs in a fresh process of its own, so its peak RSS is its own.
// Usage: node bench/clip-check.ts
import { spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { analyseClip } from '../src/core/audio/analysis/clip.ts';
import { checkReferenceClip } from '../src/features/voices/reference-clip.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { longMp3 } from '../fixtures/long-mp3.ts';

type Case = 'old-huge' | 'new-huge' | 'new-60s';
interface Figures {
  case: Case;
  ms: number;
  stallMs: number;
  rssAddedMb: number;
  answer: string;
}

async function run(which: Case): Promise<Figures> {
  const clip =
    which === 'new-60s'
      ? encodeWav(toneSamples({ pitchHz: 220, seconds: 60, amplitude: 0.5, sampleRate: 24_000 }), 24_000)
      : longMp3(20_000_000);
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const start = performance.now();
  let answer: string;
  try {
    if (which === 'old-huge') answer = `${(await analyseClip(clip)).durationSeconds.toFixed(2)} s decoded`;
    else answer = `accepted, ${(await checkReferenceClip(clip)).durationSeconds.toFixed(2)} s`;
  } catch (error) {
    answer = `refused: ${(error as { userMessage?: { key: string; params: { seconds?: string } } }).userMessage?.params.seconds ?? '?'} s`;
  }
  const ms = performance.now() - start;
  loop.disable();
  // Peak RSS of the whole process (maxRSS is in KiB), less what it held before the check.
  const rssAddedMb = (process.resourceUsage().maxRSS * 1024 - rssBefore) / 1e6;
  // The old decode and the header probe run without yielding: the loop monitor sees no turn, so their whole time is the stall.
  return { case: which, ms, stallMs: Math.max(loop.max / 1e6, which === 'new-60s' ? 0 : ms), rssAddedMb, answer };
}

const which = process.argv[2] as Case | undefined;
if (which !== undefined) {
  process.stdout.write(`${JSON.stringify(await run(which))}\n`);
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const rows: Figures[] = [];
for (const c of ['old-huge', 'new-huge', 'new-60s'] as const) {
  const child = spawnSync(process.execPath, ['--expose-gc', self, c], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`${c}: ${child.stderr}`);
  rows.push(JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Figures);
}
const label: Record<Case, string> = {
  'old-huge': '20 MB MP3, 8 kb/s (5.6 h), before: whole decode on the main thread',
  'new-huge': '20 MB MP3, 8 kb/s (5.6 h), now: headers, refused',
  'new-60s': '60 s WAV that fits, now: decoded in the worker',
};
console.log(
  [
    '| clip check | answer | time | longest main-thread stall | RSS added (peak) |',
    '|---|---|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${label[r.case]} | ${r.answer} | ${r.ms.toFixed(1)} ms | ${r.stallMs.toFixed(1)} ms | ${r.rssAddedMb.toFixed(1)} MB |`,
    ),
  ].join('\n'),
);
