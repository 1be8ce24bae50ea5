// eSpeak NG's phonemes (IPA) of what the free voice gives it: the same WebAssembly program the worker runs, with
// `-q --ipa` (no audio, the phonemes printed) instead of `-w`. For tests that check what a line sounds like without
// listening; loaded in the test's own process. Undefined when the optional espeak-ng package is not installed.
import { espeakVoice } from '../../src/core/voice-catalogue/voices.ts';
import { readFile } from 'node:fs/promises';
import { readLine } from '../../src/core/free-voice/reading/read-line.ts';
import { loadJapaneseAnalyser } from '../../src/core/free-voice/reading/japanese-analyser.ts';
import type { JapaneseAnalyser } from '../../src/core/free-voice/reading/read-line.ts';

interface Instance {
  FS: { writeFile(path: string, data: string): void; unlink(path: string): void };
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _main(argc: number, argv: number): number;
}
type Factory = (options: Record<string, unknown>) => Promise<Instance>;
interface Exports {
  malloc(bytes: number): number;
  stackSave(): number;
  stackRestore(pointer: number): void;
}
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ exports: Exports }>;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/**
 * One eSpeak NG set up once a process and its main() run for each text, its memory put back first as it was before
 * the first run, as the free voice's threads do (src/core/free-voice/espeak-run.ts): a fresh instance a call cost
 * about 120 ms of CPU, half of it stack traces of the errors its file system throws while it sets up.
 */
interface Program {
  instance: Instance;
  exports: Exports;
  memory: Uint8Array;
  stack: number;
  printed: string[];
}

let program: Promise<Program> | undefined;

async function setUp(): Promise<Program> {
  const specifier = 'espeak-ng';
  const { default: factory } = (await import(specifier)) as { default: Factory };
  const wasm = await readFile(new URL('./espeak-ng.wasm', import.meta.resolve(specifier)));
  const module = await wasmApi.compile(wasm);
  const printed: string[] = [];
  let exports: Exports | undefined;
  const instance = await factory({
    noInitialRun: true,
    instantiateWasm: (imports: object, done: (instance: object, module: object) => void) => {
      void wasmApi.instantiate(module, imports).then((made) => {
        exports = made.exports;
        done(made, module);
      });
      return {};
    },
    print: (line: string) => void printed.push(line.trim()),
    printErr: () => {},
  });
  if (exports === undefined) throw new Error('eSpeak NG did not start');
  return { instance, exports, memory: instance.HEAPU8.slice(), stack: exports.stackSave(), printed };
}

/** eSpeak NG's phonemes of `text` in its voice `espeak` (`ja+f2`), given as is: lines joined by a space. */
export async function espeakPhonemes(text: string, espeak: string): Promise<string> {
  const { instance, exports, memory, stack, printed } = await (program ??= setUp());
  instance.HEAPU8.set(memory);
  instance.HEAPU8.fill(0, memory.length);
  exports.stackRestore(stack);
  printed.length = 0;
  instance.FS.writeFile('/in.txt', text);
  const args = ['espeak-ng', '-q', '--ipa', '-v', espeak, '-f', '/in.txt'];
  const argv = exports.malloc(4 * (args.length + 1));
  args.forEach((arg, i) => {
    const bytes = new TextEncoder().encode(`${arg}\0`);
    const at = exports.malloc(bytes.length);
    instance.HEAPU8.set(bytes, at);
    instance.HEAPU32[(argv >> 2) + i] = at;
  });
  instance.HEAPU32[(argv >> 2) + args.length] = 0;
  const status = instance._main(args.length, argv);
  instance.FS.unlink('/in.txt');
  if (status !== 0) throw new Error(`eSpeak NG exited with ${status} on ${JSON.stringify(text)}`);
  return printed.join(' ');
}

let analyser: { loaded: JapaneseAnalyser | undefined } | undefined;
const japanese = () => (analyser ??= { loaded: loadJapaneseAnalyser() }).loaded;

/** One run of a line as the free voice speaks it: its voice and eSpeak NG's phonemes of its text. */
export interface HeardRun {
  espeak: string;
  text: string;
  phonemes: string;
}

/** `line` in the free voice `voiceId` as the worker reads it (./read-line.ts), each run's phonemes. */
export async function heardRuns(line: string, voiceId: string): Promise<HeardRun[]> {
  const espeak = espeakVoice(voiceId)!.espeak;
  const runs = readLine(line, espeak, japanese);
  return Promise.all(runs.map(async (run) => ({ ...run, phonemes: await espeakPhonemes(run.text, run.espeak) })));
}

/** The phonemes of a whole line as the free voice speaks it, runs joined by a space, eSpeak NG's language marks cut. */
export async function heardPhonemes(line: string, voiceId: string): Promise<string> {
  return withoutLanguageMarks((await heardRuns(line, voiceId)).map((run) => run.phonemes).join(' '));
}

/** Phonemes without eSpeak NG's `(en)` `(ja)` marks where it switched language by itself. */
export const withoutLanguageMarks = (phonemes: string): string => phonemes.replace(/\([a-z-]+\)/gu, '');

/** "Chinese letter" / "Japanese letter" as eSpeak NG says a character it has no reading for, in IPA. */
export const NAMED_LETTER = /tʃˈaɪniːz|dʒˈapəniːz|lˈe̞tə/u;

/** Whether the optional packages the free voice's reading is tested with are installed (a test skips without). */
export function readingPackagesInstalled(): boolean {
  try {
    import.meta.resolve('espeak-ng');
    import.meta.resolve('kuromoji');
    return true;
  } catch {
    return false;
  }
}
