// The doubles' eSpeak NG thread (words.ts): one line at a time, each on a fresh instance of the optional espeak-ng
// package's WebAssembly program (eSpeak NG's command line), the text written to its file system rather than passed as
// an argument, so that no text is read as an option. The WAV it writes goes back to the doubles' thread.
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';

interface Instance {
  FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string): void };
}
type Factory = (options: Record<string, unknown>) => Promise<Instance>;
interface Wasm {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

export interface EspeakRequest {
  id: number;
  text: string;
  /** eSpeak NG's voice and variant (`ja+f3`). */
  voice: string;
  /** eSpeak NG's pitch, 0..99. */
  pitch: number;
  /** Words a minute, 80..450. */
  speed: number;
}
export type EspeakAnswer = { id: number; wav: Uint8Array } | { id: number; error: string };

let loaded: Promise<{ factory: Factory; module: object }> | undefined;

async function load(): Promise<{ factory: Factory; module: object }> {
  const name = 'espeak-ng';
  const { default: factory } = (await import(name)) as { default: Factory };
  const module = await wasm.compile(await readFile(new URL('./espeak-ng.wasm', import.meta.resolve(name))));
  return { factory, module };
}

async function speak({ text, voice, pitch, speed }: EspeakRequest): Promise<Uint8Array> {
  const { factory, module } = await (loaded ??= load());
  let failed: unknown;
  const instance = await factory({
    arguments: ['-w', '/out.wav', '-v', voice, '-p', String(pitch), '-s', String(speed), '-f', '/in.txt'],
    preRun: [(m: Instance) => m.FS.writeFile('/in.txt', text)],
    quit: (status: number, thrown: unknown) => {
      if (status !== 0) failed ??= thrown ?? new Error(`exit status ${status}`);
    },
    onAbort: (what: unknown) => void (failed ??= what),
    instantiateWasm: (imports: object, done: (instance: object, module: object) => void) => {
      void wasm.instantiate(module, imports).then((made) => done(made, module));
      return {};
    },
    print: () => {},
    printErr: () => {},
  });
  if (failed !== undefined) throw new Error(`eSpeak NG stopped (${String(failed).slice(0, 200)})`);
  return instance.FS.readFile('/out.wav');
}

parentPort?.on('message', (request: EspeakRequest) => {
  speak(request).then(
    (wav) => parentPort?.postMessage({ id: request.id, wav } satisfies EspeakAnswer, [wav.buffer as ArrayBuffer]),
    (error: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies EspeakAnswer),
  );
});
