// Figure 12 of npm run bench: a /scene (issue 39) mixed as one file. A 20-line scene cut from the speech fixtures
// (English WAV at 24 kHz, some lines brought to 22.05 kHz as the free voice sends them, Korean MP3 at 44.1 kHz), each
// line at its own level (-32 to -6 dBFS), mixed in the audio worker thread as the bot does (mixSceneOffThread): the
// loudness spread between lines before and after, and the time, for WAV and MP3 output, also per minute of audio.
// Then the longest scene there may be (600 s of 48 kHz MP3 lines to a 48 kHz MP3): the figure the scene job's time
// limit (SCENE_JOB_TIMEOUT_MS) rests on. Needs neither the bot nor the servers.
import { readFile } from 'node:fs/promises';
import { decodeAudio } from '../src/core/audio/effects/effects.ts';
import {
  MAX_LINE_GAIN_DB,
  MAX_SCENE_SECONDS,
  type SceneMixInput,
  type SceneMixLine,
  type SceneMixResult,
} from '../src/core/audio/effects/scene-mix.ts';
import { StereoResampler } from '../src/core/audio/codecs/resample.ts';
import { encodeWav16, toInt16 } from '../src/core/audio/codecs/wav-file.ts';
import { encodeMp3 } from '../src/core/audio/codecs/mp3-encode.ts';
import { mixSceneOffThread } from '../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { percentile } from './stats.ts';

const LINES = 20;
const GUILD = 'bench-scene';

async function fixtureSamples(name: string): Promise<{ rate: number; samples: Float32Array }> {
  const bytes = await readFile(new URL(`../fixtures/audio/${name}`, import.meta.url));
  const decoded = await decodeAudio(bytes);
  const left = decoded.channels[0] as Float32Array;
  const right = decoded.channels[1];
  const samples = right ? Float32Array.from(left, (v, i) => (v + (right[i] as number)) / 2) : left;
  return { rate: decoded.sampleRate, samples };
}

function resampled(samples: Float32Array, from: number, to: number): Float32Array {
  const resampler = new StereoResampler(from, to, 1);
  const head = resampler.process(samples, undefined, samples.length).slice();
  const tail = resampler.flush();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

function atLevel(samples: Float32Array, gain: number): Float32Array {
  return Float32Array.from(samples, (v) => Math.max(-1, Math.min(1, v * gain)));
}

const mp3 = (samples: Float32Array, rate: number, kbps: number) =>
  encodeMp3(Int16Array.from(samples, toInt16), rate, kbps);

/** The 20 lines: 2-4 s slices of speech, every third an MP3 at 44.1 kHz, every fourth WAV at 22.05 kHz. */
async function scene(): Promise<{ lines: SceneMixLine[]; seconds: number }> {
  const en = await fixtureSamples('speech-en-24k-mono.wav');
  const ko = await fixtureSamples('speech-ko-44k-stereo.mp3');
  const lines: SceneMixLine[] = [];
  let seconds = 0;
  for (let i = 0; i < LINES; i++) {
    const db = -32 + ((i * 7) % 27); // -32..-6 dB under each fixture's own level, in a shuffled order
    const gain = 10 ** (db / 20) * 4; // the fixtures sit near -15 dBFS: their lines land near -38..-12 dBFS
    const length = 2 + (i % 3);
    const source = i % 3 === 2 ? ko : en;
    const start = Math.round(((i * 1.3) % 4) * source.rate);
    const slice = atLevel(source.samples.subarray(start, start + length * source.rate), gain);
    const part =
      source === ko
        ? await mp3(slice, ko.rate, 128)
        : i % 4 === 3
          ? encodeWav16([resampled(slice, en.rate, 22_050)], 22_050)
          : encodeWav16([slice], en.rate);
    lines.push({ parts: [part], gapBefore: i === 0 ? 0 : 0.25 });
    seconds += slice.length / source.rate + (i === 0 ? 0 : 0.25);
  }
  return { lines, seconds };
}

/** A fresh copy of the scene's parts: mixSceneOffThread moves them to the worker. */
const copied = (lines: readonly SceneMixLine[], format: SceneMixInput['format']): SceneMixInput => ({
  lines: lines.map((line) => ({ ...line, parts: line.parts.map((p) => Uint8Array.from(p)) })),
  format,
});

const median = (values: readonly number[]) => percentile(values, 50);

/** Lines further than MAX_LINE_GAIN_DB from the median line: brought only that far, what remains of the spread. */
function clamped(result: SceneMixResult): number {
  const known = result.loudness.before.filter((db): db is number => db !== null).sort((a, b) => a - b);
  const mid = known.length >> 1;
  const target = known.length % 2 ? known[mid]! : (known[mid - 1]! + known[mid]!) / 2;
  return known.filter((db) => Math.abs(db - target) > MAX_LINE_GAIN_DB).length;
}

export async function measureSceneMix(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const runs = mode === 'quick' ? 3 : 10;
  const { lines, seconds } = await scene();
  log(`scene mix: ${LINES} lines, ${seconds.toFixed(1)} s, ${runs} runs per format`);
  const rows: string[] = [];
  for (const format of ['wav', 'mp3'] as const) {
    await mixSceneOffThread(copied(lines, format), { guild: GUILD }); // the worker started, its code compiled
    const times: number[] = [];
    let result = await mixSceneOffThread(copied(lines, format), { guild: GUILD });
    for (let r = 0; r < runs; r++) {
      const input = copied(lines, format);
      const start = performance.now();
      result = await mixSceneOffThread(input, { guild: GUILD });
      times.push(performance.now() - start);
    }
    const ms = median(times);
    const { spreadBefore, spreadAfter } = result.loudness;
    rows.push(
      `| ${LINES} lines, ${result.seconds.toFixed(1)} s → ${format.toUpperCase()} ${result.sampleRate / 1000} kHz | ` +
        `${spreadBefore.toFixed(1)} dB | ${spreadAfter.toFixed(2)} dB | ${clamped(result)} | ${ms.toFixed(0)} ms | ` +
        `${((ms * 60) / result.seconds).toFixed(0)} ms |`,
    );
  }

  log(`scene mix: the longest scene, ${MAX_SCENE_SECONDS} s of 48 kHz MP3 lines to MP3`);
  const lineSeconds = MAX_SCENE_SECONDS / 60 - 0.1;
  const en = await fixtureSamples('speech-en-24k-mono.wav');
  const speech = resampled(en.samples, en.rate, 48_000);
  const long = await Promise.all(
    Array.from({ length: 60 }, async (_, i) => {
      const line = new Float32Array(Math.round(lineSeconds * 48_000));
      for (let at = 0; at < line.length; at += speech.length) line.set(speech.subarray(0, line.length - at), at);
      return { parts: [await mp3(atLevel(line, 10 ** (-(i % 20) / 20) * 2), 48_000, 64)], gapBefore: 0.1 };
    }),
  );
  const longRows: string[] = [];
  for (const format of ['wav', 'mp3'] as const) {
    const start = performance.now();
    const result = await mixSceneOffThread(copied(long, format), { guild: GUILD });
    const ms = performance.now() - start;
    longRows.push(
      `| 60 lines, ${result.seconds.toFixed(0)} s (the longest) → ${format.toUpperCase()} ${result.sampleRate / 1000} kHz | ` +
        `${result.loudness.spreadBefore.toFixed(1)} dB | ${result.loudness.spreadAfter.toFixed(2)} dB | ${clamped(result)} | ` +
        `${ms.toFixed(0)} ms | ` +
        `${((ms * 60) / result.seconds).toFixed(0)} ms |`,
    );
  }
  return [
    '### Figure 12: a scene mixed as one file (bench/scene-mix.ts)',
    '',
    `In the audio worker thread (mixSceneOffThread), median of ${runs} runs for the 20-line scene, one run for the longest. ` +
      'Loudness: gated RMS per line, spread = loudest line − quietest; lines more than ' +
      `${MAX_LINE_GAIN_DB} dB from the median line are moved only ${MAX_LINE_GAIN_DB} dB ("clamped"): what spread remains is theirs.`,
    '',
    '| scene | spread before | spread after | lines clamped | mix time | per minute of audio |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    ...longRows,
  ].join('\n');
}
