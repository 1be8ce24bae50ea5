// The free voice's worker thread: eSpeak NG compiled to WebAssembly (the optional `espeak-ng` package, GPL, loaded
// only here and only when present). Its module is compiled once per thread; each job runs the program on a fresh
// instance (the package is eSpeak NG's command line), with the text written to its own file system rather than passed
// as an argument, so no text is ever read as an option. The WAV it writes comes back moved, not copied.
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { EspeakJob, EspeakReply } from './espeak-protocol.ts';
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

/** The line's audio went past the job's `maxSeconds`: a cap, not a failure of eSpeak NG. */
class TooLong extends Error {}

let loaded: Promise<{ factory: EspeakFactory; module: WasmModule }> | undefined;

async function load(): Promise<{ factory: EspeakFactory; module: WasmModule }> {
  const specifier = 'espeak-ng';
  const { default: factory } = (await import(specifier)) as { default: EspeakFactory };
  const wasm = await readFile(new URL('./espeak-ng.wasm', import.meta.resolve(specifier)));
  return { factory, module: await wasmApi.compile(wasm) };
}

async function speak(job: EspeakJob): Promise<ArrayBuffer> {
  const { factory, module } = await (loaded ??= load());
  const errors: string[] = [];
  const instance = await factory({
    arguments: ['-w', '/out.wav', '-v', job.voice, '-f', '/in.txt'],
    preRun: [(m: EspeakInstance) => m.FS.writeFile('/in.txt', job.text)],
    instantiateWasm: (imports: object, done: (instance: WasmInstance, module: WasmModule) => void) => {
      void wasmApi.instantiate(module, imports).then((made) => done(made, module));
      return {};
    },
    print: () => {},
    printErr: (line: string) => void errors.push(line),
  });
  let wav: Uint8Array;
  try {
    wav = instance.FS.readFile('/out.wav');
  } catch {
    throw new Error(`eSpeak NG wrote no audio (${errors[0] ?? 'no message'})`);
  }
  const most = WAV_HEADER_BYTES + Math.floor(job.maxSeconds * BYTES_PER_SECOND);
  if (wav.byteLength > most) throw new TooLong(`the free voice's audio is longer than ${job.maxSeconds} s`);
  return wav.slice().buffer;
}

parentPort?.on('message', (job: EspeakJob) => {
  void speak(job).then(
    (wav): void => parentPort?.postMessage({ id: job.id, ok: true, wav } satisfies EspeakReply, [wav]),
    (error: unknown): void =>
      parentPort?.postMessage({
        id: job.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof TooLong ? { tooLong: true as const } : {}),
      } satisfies EspeakReply),
  );
});
