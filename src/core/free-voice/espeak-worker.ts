// The free voice's worker thread: eSpeak NG compiled to WebAssembly (the optional `espeak-ng` package, GPL, loaded
// only here and only when present). Its module is compiled once per thread; each job runs the program on a fresh
// instance (the package is eSpeak NG's command line), with the text written to its own file system rather than passed
// as an argument, so no text is ever read as an option. A job's text is read first (./reading/read-aloud.ts: script
// runs, numbers, Japanese to kana), each run spoken in its own voice and the WAVs joined. The WAV comes back moved.
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { EspeakJob, EspeakReply } from './espeak-protocol.ts';
import { readAloud } from './reading/read-aloud.ts';
import { joinWavFiles } from '../audio/codecs/wav-file.ts';
import { yieldToMainThread } from '../audio/workers/thread-priority.ts';

yieldToMainThread();

/** The part of the package's Emscripten module the worker uses. */
interface EspeakInstance {
  FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string): void };
}
type EspeakFactory = (options: Record<string, unknown>) => Promise<EspeakInstance>;

/** WebAssembly as the worker uses it (TypeScript's lib here has no WebAssembly types: no DOM). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
}
type WasmModule = { readonly kind: 'module' };
type WasmInstance = { readonly kind: 'instance' };
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** eSpeak NG's WAV: 22,050 samples a second, 16-bit mono. */
const BYTES_PER_SECOND = 22_050 * 2;
const WAV_HEADER_BYTES = 44;
/** More characters a second than any voice says: a line read longer than this surely makes too much audio. */
const MOST_CHARACTERS_PER_SECOND = 40;

let loaded: Promise<{ factory: EspeakFactory; module: WasmModule }> | undefined;

async function load(): Promise<{ factory: EspeakFactory; module: WasmModule }> {
  const specifier = 'espeak-ng';
  const { default: factory } = (await import(specifier)) as { default: EspeakFactory };
  const wasm = await readFile(new URL('./espeak-ng.wasm', import.meta.resolve(specifier)));
  return { factory, module: await wasmApi.compile(wasm) };
}

async function speak(job: EspeakJob): Promise<ArrayBuffer> {
  const most = WAV_HEADER_BYTES + Math.floor(job.maxSeconds * BYTES_PER_SECOND);
  const wavs: Uint8Array[] = [];
  let bytes = 0;
  const runs = readAloud(job.text, job.voice);
  // Refused before eSpeak NG spends the thread's time on it (a line of 4,000 kanji reads as some 10,000 kana).
  if (runs.reduce((sum, run) => sum + run.text.length, 0) > job.maxSeconds * MOST_CHARACTERS_PER_SECOND)
    throw new Error(`the free voice's audio is longer than ${job.maxSeconds} s`);
  for (const run of runs) {
    const wav = await speakRun(run.text, run.espeak);
    bytes += wav.byteLength - WAV_HEADER_BYTES;
    if (WAV_HEADER_BYTES + bytes > most) throw new Error(`the free voice's audio is longer than ${job.maxSeconds} s`);
    wavs.push(wav);
  }
  const wav = wavs.length === 1 ? wavs[0]!.slice() : joinWavFiles(wavs);
  if (wav === undefined) throw new Error('eSpeak NG wrote audio in different forms');
  return wav.buffer as ArrayBuffer;
}

async function speakRun(text: string, voice: string): Promise<Uint8Array> {
  const { factory, module } = await (loaded ??= load());
  const errors: string[] = [];
  const instance = await factory({
    arguments: ['-w', '/out.wav', '-v', voice, '-f', '/in.txt'],
    preRun: [(m: EspeakInstance) => m.FS.writeFile('/in.txt', text)],
    instantiateWasm: (imports: object, done: (instance: WasmInstance, module: WasmModule) => void) => {
      void wasmApi.instantiate(module, imports).then((made) => done(made, module));
      return {};
    },
    print: () => {},
    printErr: (line: string) => void errors.push(line),
  });
  try {
    return instance.FS.readFile('/out.wav');
  } catch {
    throw new Error(`eSpeak NG wrote no audio (${errors[0] ?? 'no message'})`);
  }
}

parentPort?.on('message', (job: EspeakJob) => {
  void speak(job).then(
    (wav): void => parentPort?.postMessage({ id: job.id, ok: true, wav } satisfies EspeakReply, [wav]),
    (error: unknown): void =>
      parentPort?.postMessage({
        id: job.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      } satisfies EspeakReply),
  );
});
