// Figure 17 of npm run bench (issue 56): server B's short work while server A runs each of its biggest free jobs, on
// a quiet host and on a host kept busy by two other processes (CPU burners this bench spawns, each bounded in time),
// each beside an idle baseline of the same host in the same run. Server B, again and again until A's job is done: a
// /say output:file's audio (the sandbox Voice API over HTTP with SayBot's client, joined in the audio thread), then a
// two-line free scene (two free lines, mixed as MP3), 200 ms apart, with a 20 ms timer on the main thread standing for
// its voice clock. Server A: an 8-minute free scene mixed as MP3, as WAV, and as a voice message (the WAV mix's Opus
// packets written as Ogg, as SayBot posts one); 20 dictionary patterns RE2 refuses as too complex (measured before
// compiling, in the dictionary's thread); a free flood through four front-ends at once (four members of A, each
// saying short free lines one after another, as /say, Speak, auto-read and the buttons do). In one process with the
// sandbox; neither the bot nor Discord. Goals: B's file and scene within 1.5x of the same host's idle median, B's
// longest gap under 60 ms and within 1.5x of the same host's idle longest gap.
import { Buffer } from 'node:buffer';
import { loadavg } from 'node:os';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RE2JS } from 're2js';
import { VoiceApiClient } from '../src/core/api/client.ts';
import { AudioBusyError } from '../src/core/audio/errors.ts';
import { joinPartsOffThread, mixSceneOffThread } from '../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { OPUS_ENCODER_SETTINGS } from '../src/core/cache/audio-fill.ts';
import { freeVoiceInstalled, speakFree } from '../src/core/free-voice/free-voice-engine.ts';
import { fileAsVoiceMessage } from '../src/core/order/clips.ts';
import { validateEntryOffThread } from '../src/features/autoread/dictionary/dictionary-thread.ts';
import { startSandbox } from '@saybot/voice-sandbox';
import { percentile, sameLengthLongest } from './stats.ts';
import { FILE_TEXT, minuteLine, ticker } from './long-jobs.ts';
import { burners } from './burners.ts';

const PAUSE_MS = 200;
/**
 * B's rounds (a file and a scene each) a row needs: A's job is run again while B has fewer, so that a job quicker
 * than a few of B's rounds (the WAV mix) is not judged from one or two (a busy WAV row once read 3.52x from two).
 */
const LEAST_ROUNDS = 6;
/**
 * The idle row runs this long in a full run, as long as the longest job on a busy host: a longest gap is the worst of
 * as many ticks as the row ran, so a row is held against the idle host's longest gap over the same number of ticks
 * (sameLengthLongest), never against the worst of a shorter run.
 */
const IDLE_FULL_MS = 60_000;
/**
 * The busy host's burners end by themselves after this: the whole busy phase, whose long rows take minutes each when
 * the host is shared (a 10-minute bound ended them before the last rows on a host at load 20).
 */
const BUSY_PHASE_LIMIT_MS = 45 * 60_000;
/**
 * BENCH_HOLDS_ONLY=busy-mp3: the busy host's idle and MP3 rows alone (a change to long work measured against its
 * baseline in a few alternated runs, without the other twelve rows' minutes).
 */
const BUSY_MP3_ONLY = process.env['BENCH_HOLDS_ONLY'] === 'busy-mp3';
/**
 * BENCH_HOLDS_MP3_PROCESS=<niceness>: the MP3 row's mix in a process of its own session, its autogroup that much
 * nicer (./holds-mix-process.ts), instead of SayBot's long-work thread: a design measured, not SayBot's path.
 */
const MP3_PROCESS_NICENESS = process.env['BENCH_HOLDS_MP3_PROCESS'];

interface Row {
  host: 'quiet' | 'busy';
  job: string;
  seconds: number;
  /** Times A's job ran (again while B had fewer than LEAST_ROUNDS rounds). */
  runs: number;
  files: number[];
  scenes: number[];
  gaps: number[];
  load: number;
  /** B's rounds that failed (a job past its time limit). */
  failed: number;
  /** A's job failed (past long work's wall-clock ceiling on a starved host): its message; the bench goes on. */
  aFailed?: string;
}

/** B's work, one after another until `done` settles (at least `least` rounds): each file's and scene's time. */
async function serverB(client: VoiceApiClient, done: Promise<unknown>, least = 2, progress = { rounds: 0 }) {
  let over = false;
  const end = () => void (over = true);
  done.then(end, end);
  const files: number[] = [];
  const scenes: number[] = [];
  let failed = 0;
  for (let round = 0; !over || files.length < least; round++) {
    try {
      await roundOfB(client, round, files, scenes);
      progress.rounds += 1;
    } catch (error) {
      // A job past its time limit on a starved host: counted, not fatal to the figure.
      if (!(error instanceof Error) || (failed += 1) > 20) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  return { files, scenes, failed };
}

async function roundOfB(client: VoiceApiClient, round: number, files: number[], scenes: number[]): Promise<void> {
  {
    let start = performance.now();
    const response = await client.tts({ text: FILE_TEXT, voice_id: 'voice-b-en-f-01', output_format: 'wav' });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
    await joinPartsOffThread([Buffer.concat(chunks)], 'wav', { guild: 'B', member: 'b' });
    files.push(performance.now() - start);
    start = performance.now();
    const lines = await Promise.all([
      speakFree(`Ana: The second server's scene, take ${round}.`, 'free-en-f', 'B', 'b'),
      speakFree(`Ben: Two short lines, heard at once.`, 'free-en-m', 'B', 'b'),
    ]);
    await mixSceneOffThread(
      { lines: lines.map((part, i) => ({ parts: [part], gapBefore: i === 0 ? 0 : 0.35 })), format: 'mp3' },
      { guild: 'B', member: 'b' },
    );
    scenes.push(performance.now() - start);
  }
}

/** The scene's parts mixed as MP3 by ./holds-mix-process.ts, detached (an autogroup of its own), in `dir`. */
function mixInProcess(dir: string, parts: Buffer[], niceness: string): Promise<void> {
  const files = parts.map((part, i) => {
    const file = path.join(dir, `part-${i}.wav`);
    writeFileSync(file, part);
    return file;
  });
  const mixer = new URL('./holds-mix-process.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [mixer, niceness, path.join(dir, 'mix.mp3'), ...files], {
    stdio: 'inherit',
    detached: true,
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the mix's process ended with ${code}`))));
  });
}

const median = (values: number[]) => percentile(values, 50);

const ms = (value: number) => `${value.toFixed(0)} ms`;

export async function measureHolds(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title = "## 17. Server B's short work while server A runs its biggest free jobs, quiet and busy (issue 56)";
  if (!freeVoiceInstalled()) {
    log('holds: eSpeak NG is not installed: figure 17 skipped');
    return `${title}\n\nSkipped: eSpeak NG (the optional \`espeak-ng\`) is not installed.`;
  }
  const sandbox = await startSandbox();
  const rows: Row[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'saybot-bench-holds-'));
  try {
    const client = new VoiceApiClient({ baseUrl: sandbox.url, apiKey: sandbox.testKey });
    log("holds: warming up and making the 8-minute scene's free lines (untimed)");
    await serverB(client, Promise.resolve(), 1);
    const count = mode === 'quick' ? 2 : 9;
    const parts: Buffer[] = [];
    for (let i = 0; i < count; i++) parts.push(await speakFree(minuteLine(i + 1), 'free-en-f', 'A', `maker${i}`));
    const scene = () => ({ lines: parts.map((part) => ({ parts: [part], gapBefore: 0.4 })) });
    const owner = { guild: 'A', member: 'a' };
    let sceneSeconds = 0;
    // A's jobs run again while B has had too few rounds beside them, but the patterns: 20 refused in the dictionary's
    // thread take a millisecond once it has started, so run again they would be thousands a second, not the 20 the
    // figure is about (and the main-thread baseline is a before figure, run once).
    const again = new Set([
      'the free scene mixed as MP3',
      'the free scene mixed as WAV',
      'the free scene as a voice message (WAV mix, Opus, Ogg)',
      'a free flood through four front-ends (4 members, 12 lines each)',
    ]);
    const jobs: Array<[string, () => Promise<unknown>]> = [
      ['idle (baseline)', () => new Promise((resolve) => setTimeout(resolve, mode === 'quick' ? 3000 : IDLE_FULL_MS))],
      [
        'the free scene mixed as MP3',
        MP3_PROCESS_NICENESS !== undefined
          ? () => mixInProcess(dir, parts, MP3_PROCESS_NICENESS)
          : async () => (sceneSeconds = (await mixSceneOffThread({ ...scene(), format: 'mp3' }, owner)).seconds),
      ],
      ['the free scene mixed as WAV', () => mixSceneOffThread({ ...scene(), format: 'wav' }, owner)],
      [
        'the free scene as a voice message (WAV mix, Opus, Ogg)',
        async () => {
          const mixed = await mixSceneOffThread({ ...scene(), format: 'wav' }, owner);
          const data = Buffer.from(mixed.data.buffer, mixed.data.byteOffset, mixed.data.byteLength);
          await fileAsVoiceMessage({ data, format: 'wav' }, OPUS_ENCODER_SETTINGS, owner);
        },
      ],
      [
        '20 refused patterns (`(a*){1000}` written 20 times), each added',
        async () => {
          for (let i = 0; i < 20; i++) {
            const pattern = `${'(a*){1000}'.repeat(19)}(b${i}*){1000}`;
            const valid = await validateEntryOffThread({ pattern }, 'x', 'A');
            if (valid.ok) throw new Error('a pattern RE2 refuses was accepted');
          }
        },
      ],
      [
        'baseline: the same 20 patterns compiled on the main thread (as before issue 56)',
        async () => {
          for (let i = 0; i < 20; i++) {
            RE2JS.compile(`${'(a*){1000}'.repeat(19)}(b${i}*){1000}`);
            await new Promise((resolve) => setImmediate(resolve));
          }
        },
      ],
      [
        'a free flood through four front-ends (4 members, 12 lines each)',
        () =>
          Promise.all(
            ['say', 'speak', 'autoread', 'button'].map(async (frontEnd) => {
              for (let i = 0; i < 12; i++)
                await speakFree(`${frontEnd} line ${i}, in the free voice.`, 'free-en-m', 'A', frontEnd).catch(
                  (error: unknown) => {
                    if (!(error instanceof AudioBusyError)) throw error;
                  },
                );
            }),
          ),
      ],
    ];
    if (BUSY_MP3_ONLY) jobs.splice(2);
    for (const host of BUSY_MP3_ONLY ? (['busy'] as const) : (['quiet', 'busy'] as const)) {
      const stopBurning = host === 'busy' ? burners(BUSY_PHASE_LIMIT_MS) : () => {};
      try {
        if (host === 'busy') await new Promise((resolve) => setTimeout(resolve, 1000));
        for (const [job, work] of jobs) {
          log(`holds: ${host} host: ${job}`);
          const stop = ticker();
          const start = performance.now();
          const progress = { rounds: 0 };
          let runs = 0;
          const done = (async () => {
            do {
              runs += 1;
              await work();
            } while (progress.rounds < LEAST_ROUNDS && again.has(job));
          })();
          const { files, scenes, failed } = await serverB(client, done, 2, progress);
          const aFailed = await done.then(
            () => undefined,
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          );
          const gaps = stop();
          const seconds = (performance.now() - start) / 1000;
          const load = loadavg()[0] ?? 0;
          const row: Row = {
            host,
            job,
            seconds,
            runs,
            files,
            scenes,
            gaps,
            load,
            failed,
            ...(aFailed ? { aFailed } : {}),
          };
          rows.push(row);
          log(
            `holds: ${host}: ${job}: took ${seconds.toFixed(1)} s (${runs} run${runs === 1 ? '' : 's'}), B file ${ms(median(files))}, B longest gap ${ms(Math.max(...gaps))} of ${gaps.length} ticks, B scene ${ms(median(scenes))}, load ${row.load.toFixed(1)}, ${failed} failed${aFailed ? `; A's job failed: ${aFailed}` : ''}`,
          );
        }
      } finally {
        stopBurning();
      }
    }
    for (const row of rows) row.job = row.job.replace('the free scene', `the ${sceneSeconds.toFixed(0)} s free scene`);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const idleOf = (host: Row['host']) => rows.find((r) => r.host === host && r.job.startsWith('idle')) as Row;
  const cell = (value: number, idle: number, goalMs?: number) => {
    const ratio = value / idle;
    const met = ratio <= 1.5 && (goalMs === undefined || value < goalMs);
    return `${ms(value)} (${ratio.toFixed(2)}x${met ? '' : ', **missed**'})`;
  };
  const jobsSeen = [...new Set(rows.map((r) => r.job))];
  const table = jobsSeen.map((job) => {
    const cells = (['quiet', 'busy'] as const).map((host) => {
      const row = rows.find((r) => r.host === host && r.job === job);
      if (!row) return ['', '', '', '', ''];
      const idle = idleOf(host);
      return [
        `${(row.seconds / row.runs).toFixed(1)} s${row.runs === 1 ? '' : ` (${row.runs} runs)`}${row.aFailed === undefined ? '' : ` (**failed**: ${row.aFailed})`}`,
        cell(median(row.files), median(idle.files)),
        cell(Math.max(...row.gaps), sameLengthLongest(idle.gaps, row.gaps.length), 60),
        cell(median(row.scenes), median(idle.scenes)),
        `${row.load.toFixed(1)}${row.failed > 0 ? ` (${row.failed} of B's rounds failed)` : ''}`,
      ];
    });
    return `| ${job} | ${cells.flat().join(' | ')} |`;
  });
  return [
    title,
    '',
    `Server A runs each job once (a scene's job and the flood again, one run after another, while B has had fewer than ${LEAST_ROUNDS} rounds: took is per run); meanwhile server B, again and again until it is done, asks for a /say output:file's audio (the sandbox over HTTP, joined in the audio thread) and then makes a two-line free scene (two free lines, mixed as MP3), 200 ms apart, and keeps a 20 ms timer on the main thread (its voice clock's stand-in: a gap is the time between two ticks). Each cell: B's median (the longest gap) and, in brackets, against the same host's idle row of the same run (goal: within 1.5x; the gap also under 60 ms); a longest gap against the idle row's longest over as many ticks (the median over its runs of that length; the idle row runs ${IDLE_FULL_MS / 1000} s). Quiet: nothing else from the bench; busy: two processes this bench spawns, each burning a core (bounded at 45 minutes). Load: the 1-minute load average when the row ended (the machine is shared with other developers' work, which counts in it).`,
    '',
    '| Server A | took (quiet) | B file (quiet) | B longest gap (quiet) | B scene (quiet) | load (quiet) | took (busy) | B file (busy) | B longest gap (busy) | B scene (busy) | load (busy) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...table,
  ].join('\n');
}
