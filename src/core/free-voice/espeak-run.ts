// eSpeak NG compiled to WebAssembly (the optional `espeak-ng` package, GPL, loaded only in the free voice's threads
// and only when present), run for one job at a time. The package is eSpeak NG's command line: each thread sets it up
// once and runs its main() for each run of text, its memory put back first as it was before the first (see Program),
// with the text written to its own file system rather than passed as an argument, so no text is ever read as an
// option; a line in several scripts is several runs, each spoken in its own voice and the WAVs joined. A trap or abort
// inside eSpeak is caught within its own job (Emscripten's `quit` and `onAbort` hooks; by default it is thrown later,
// out of the job, and fails the next line): that line fails naming it, and its reply retires the thread before
// another line. The WAV it writes comes back in shared memory, never copied on the main thread. Setting eSpeak NG up is
// the thread's setup, not the line's (../audio/workers/thread-setup.ts): it is outside the line's time limit.
import { Buffer } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { EspeakJob, EspeakReply } from './espeak-protocol.ts';
import type { SpokenRun } from './reading/read-line.ts';
import { joinWavFiles } from '../audio/codecs/wav-file.ts';
import { settingUp } from '../audio/workers/thread-setup.ts';
import { MOST_CHARACTERS_PER_SECOND } from '../characters.ts';

/** The part of the package's Emscripten module the worker uses. */
interface EspeakInstance {
  FS: {
    readFile(path: string): Uint8Array;
    writeFile(path: string, data: string): void;
    unlink(path: string): void;
  };
  /** The program's memory; a new view whenever the memory grows. */
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _main(argc: number, argv: number): number;
}
type EspeakFactory = (options: Record<string, unknown>) => Promise<EspeakInstance>;

/** WebAssembly as the worker uses it (TypeScript's lib here has no WebAssembly types: no DOM). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
}
type WasmModule = { readonly kind: 'module' };
type WasmInstance = { readonly exports: WasmExports };
/** The module's own exports the worker calls: its allocator and its stack pointer. */
interface WasmExports {
  malloc(bytes: number): number;
  stackSave(): number;
  stackRestore(pointer: number): void;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** eSpeak NG's WAV: 22,050 samples a second, 16-bit mono. */
const BYTES_PER_SECOND = 22_050 * 2;
const WAV_HEADER_BYTES = 44;

let loaded: Promise<{ factory: EspeakFactory; module: WasmModule }> | undefined;

async function load(): Promise<{ factory: EspeakFactory; module: WasmModule }> {
  const specifier = 'espeak-ng';
  const { default: factory } = (await import(specifier)) as { default: EspeakFactory };
  const wasm = await readFile(new URL('./espeak-ng.wasm', import.meta.resolve(specifier)));
  return { factory, module: await wasmApi.compile(wasm) };
}

/** eSpeak NG itself stopped (a WebAssembly trap, out of memory, an abort): the thread is not trusted again. */
class EspeakStopped extends Error {}

/** The line could only make audio far past the job's `maxSeconds`: a cap, not a failure of eSpeak NG. */
class TooLong extends Error {}

/** A line's WAV, and the cap it was cut at when eSpeak NG made more audio than `maxSeconds`. */
type Spoken = Pick<Extract<EspeakReply, { ok: true }>, 'wav' | 'cutAt'>;

async function speak(job: EspeakJob, runs: readonly SpokenRun[]): Promise<Spoken> {
  const most = Math.floor(job.maxSeconds * BYTES_PER_SECOND);
  // Refused before eSpeak NG spends the thread's time on it (a line of 4,000 kanji reads as some 10,000 kana).
  if (runs.reduce((sum, run) => sum + run.text.length, 0) > job.maxSeconds * MOST_CHARACTERS_PER_SECOND)
    throw new TooLong(`the free voice's audio is longer than ${job.maxSeconds} s`);
  const wavs: Uint8Array[] = [];
  let bytes = 0;
  for (const run of runs) {
    const wav = await speakRun(run.text, run.espeak, job.id);
    bytes += wav.byteLength - WAV_HEADER_BYTES;
    wavs.push(wav);
    // Past the cap, the runs after this one would be cut away whole: not spoken at all.
    if (bytes > most) break;
  }
  // A line whose audio proves longer than its estimate let through is kept, cut at the cap (here, in this
  // thread), rather than made and thrown away: the member hears 120 s of it and is told so.
  const cut = bytes > most;
  const wav = wavs.length === 1 && !cut ? wavs[0] : joinWavFiles(wavs, most);
  if (wav === undefined) throw new Error('eSpeak NG wrote audio in different forms');
  // Shared, not moved: the main thread then caches, plays and joins these very bytes (a join's worker reads them
  // too) without one copy of its own.
  const shared = new SharedArrayBuffer(wav.byteLength);
  new Uint8Array(shared).set(wav);
  return cut ? { wav: shared, cutAt: job.maxSeconds } : { wav: shared };
}

/**
 * One eSpeak NG program, set up once per thread and run again for each run of text. Setting it up (its 18 MB of
 * voices and dictionaries laid out in its memory) is most of a short line's cost, so its memory is kept as it was
 * before its first run and put back before each: every run starts from the state a fresh instance has (its options
 * parser, its voice, its random breath noise), and nothing of an earlier member's text is left in it.
 */
interface Program {
  instance: EspeakInstance;
  exports: WasmExports;
  /** The memory before any run, its zero tail left off. */
  memory: Uint8Array;
  stack: number;
  /** Whether it has run: its memory is then no longer as it was set up. */
  ran?: boolean;
  /** What the run under way printed to stderr, and how it stopped. */
  run: { errors: string[]; stopped?: unknown };
}

/** Past this much memory (a run that grew it a lot), the program is set up anew rather than kept so big. */
const MOST_KEPT_MEMORY_BYTES = 64 * 1024 * 1024;
const INPUT = '/in.txt';
const OUTPUT = '/out.wav';

let program: Promise<Program> | undefined;

async function setUp(): Promise<Program> {
  const { factory, module } = await (loaded ??= load());
  const made: Pick<Program, 'run'> = { run: { errors: [] } };
  let exports: WasmExports | undefined;
  const instance = await factory({
    noInitialRun: true,
    // Emscripten hands a trap or an exit inside main() to `quit`, whose default throws it out of the job's own turn.
    quit: (status: number, thrown: unknown) => {
      if (status !== 0) made.run.stopped ??= thrown ?? new Error(`exit status ${status}`);
    },
    onAbort: (what: unknown) => void (made.run.stopped ??= what),
    instantiateWasm: (imports: object, done: (instance: WasmInstance, module: WasmModule) => void) => {
      void wasmApi.instantiate(module, imports).then((instantiated) => {
        exports = instantiated.exports;
        done(instantiated, module);
      });
      return {};
    },
    print: () => {},
    printErr: (line: string) => void made.run.errors.push(line),
  });
  if (exports === undefined) throw new EspeakStopped('eSpeak NG did not start');
  return Object.assign(made, {
    instance,
    exports,
    memory: withoutZeroTail(instance.HEAPU8),
    stack: exports.stackSave(),
  });
}

/** WebAssembly's page: a memory is a whole number of them. */
const PAGE_BYTES = 64 * 1024;
const ZERO_PAGE = Buffer.alloc(PAGE_BYTES);

/** A copy of `heap` without its tail of zero pages (compared natively, a page at a time from the end). */
function withoutZeroTail(heap: Uint8Array): Uint8Array {
  let end = heap.length;
  while (
    end >= PAGE_BYTES &&
    Buffer.from(heap.buffer, heap.byteOffset + end - PAGE_BYTES, PAGE_BYTES).equals(ZERO_PAGE)
  )
    end -= PAGE_BYTES;
  return heap.slice(0, end);
}

async function speakRun(text: string, voice: string, jobId: number): Promise<Uint8Array> {
  const made = await (program ??= settingUp(jobId, setUp).catch((error: unknown) => {
    program = undefined;
    throw error;
  }));
  const { instance, exports, memory } = made;
  if (made.ran) {
    instance.HEAPU8.set(memory);
    instance.HEAPU8.fill(0, memory.length);
    exports.stackRestore(made.stack);
  }
  made.ran = true;
  made.run = { errors: [] };
  // The text from its own file, so that none of it is ever read as an option.
  instance.FS.writeFile(INPUT, text);
  const args = ['espeak-ng', '-w', OUTPUT, '-v', voice, '-f', INPUT];
  const argv = exports.malloc(4 * (args.length + 1));
  args.forEach((arg, i) => {
    const bytes = new TextEncoder().encode(`${arg}\0`);
    const at = exports.malloc(bytes.length);
    instance.HEAPU8.set(bytes, at);
    instance.HEAPU32[(argv >> 2) + i] = at;
  });
  instance.HEAPU32[(argv >> 2) + args.length] = 0;
  try {
    const status = instance._main(args.length, argv);
    if (status !== 0) made.run.stopped ??= new Error(`exit status ${status}`);
  } catch (thrown) {
    made.run.stopped ??= thrown;
  }
  const { errors, stopped } = made.run;
  try {
    if (stopped !== undefined) throw new EspeakStopped(`eSpeak NG stopped on this line (${describe(stopped)})`);
    try {
      return instance.FS.readFile(OUTPUT);
    } catch {
      throw new Error(`eSpeak NG wrote no audio (${errors[0] ?? 'no message'})`);
    }
  } finally {
    forget(instance);
    if (instance.HEAPU8.length > MOST_KEPT_MEMORY_BYTES) program = undefined;
  }
}

/** A run's text and audio leave the program's file system as soon as they are read. */
function forget(instance: EspeakInstance): void {
  for (const path of [INPUT, OUTPUT]) {
    try {
      instance.FS.unlink(path);
    } catch {
      // Not written: nothing to forget.
    }
  }
}

function describe(thrown: unknown): string {
  return (thrown instanceof Error ? thrown.message : String(thrown)).slice(0, 200);
}

/**
 * Answers each job of this thread's parent with eSpeak NG speaking the runs `read(job)` makes of it, each in its own
 * voice, joined: espeak-worker.ts reads the line (./reading/read-line.ts) and gives each run's text as
 * reading/read-line.ts' espeakText makes it; nothing else in SayBot gives it anything else.
 */
export function serveEspeak(read: Read, japaneseLoaded: () => boolean): void {
  parentPort?.on('message', (job: EspeakJob) => void answer(job, read, japaneseLoaded));
}

/** A job's runs; `setUp` runs what the reading loads once for the thread (the Japanese analyser) as its setup. */
type Read = (job: EspeakJob, setUp: <T>(load: () => T) => T) => SpokenRun[];

async function answer(job: EspeakJob, read: Read, japaneseLoaded: () => boolean): Promise<void> {
  let spoken: Spoken;
  try {
    spoken = await speak(
      job,
      read(job, (load) => settingUp(job.id, load)),
    );
  } catch (error) {
    parentPort?.postMessage({
      id: job.id,
      ok: false,
      message: describe(error),
      // A RangeError here is memory: the heap or WebAssembly's could not grow.
      retire: error instanceof EspeakStopped || error instanceof RangeError,
      ...(error instanceof TooLong ? { tooLong: true as const } : {}),
    } satisfies EspeakReply);
    return;
  }
  const japanese = japaneseLoaded() ? { japanese: true as const } : {};
  parentPort?.postMessage({ id: job.id, ok: true, ...spoken, ...japanese } satisfies EspeakReply);
}
