// The sandbox's speech as words, so that a person trying SayBot hears what was typed: the text spoken by eSpeak NG
// (the optional espeak-ng package, run by the sandbox's own thread, never by SayBot's free voice) in the request's
// language (else the preset voice's) and the preset voice's gender. Tests keep the tones, whose pitch they measure.
import { Worker } from 'node:worker_threads';
import type { EspeakAnswer, EspeakRequest } from './espeak-worker.ts';

/** Lines waiting for the thread at most; past this a request is answered in tones. */
const MOST_WAITING = 16;
/** A line takes well under a second; past this the thread is replaced and the line answered in tones. */
const LINE_TIMEOUT_MS = 20_000;
/** eSpeak NG's WAV: a 44-byte header, then 16-bit mono samples. */
const WAV_HEADER_BYTES = 44;

/** eSpeak NG's voice for each language a preset voice speaks. */
const ESPEAK_VOICES: Readonly<Record<string, string>> = {
  en: 'en-us',
  ko: 'ko',
  ja: 'ja',
  zh: 'cmn',
  es: 'es',
  fr: 'fr',
  de: 'de',
  it: 'it',
  pt: 'pt',
  ru: 'ru',
  hi: 'hi',
  ar: 'ar',
};

/** Whether the optional espeak-ng package is installed (resolved, not loaded). */
export function wordsAvailable(): boolean {
  try {
    import.meta.resolve('espeak-ng');
    return true;
  } catch {
    return false;
  }
}

/** eSpeak NG's voice and variant for a preset voice ID (`voice-b-ko-f-01`) and a request's language (`ko-KR`). */
export function espeakVoice(voice: string | undefined, language: string | undefined): string {
  const preset = /^voice-b-([a-z]{2})-([fm])-\d{2}$/.exec(voice ?? '');
  const gender = preset?.[2] === 'm' ? 'm3' : 'f3';
  const spoken = [language?.split('-')[0]?.toLowerCase(), preset?.[1]].find(
    (l) => l !== undefined && l in ESPEAK_VOICES,
  );
  return `${ESPEAK_VOICES[spoken ?? 'en']}+${gender}`;
}

interface Waiting {
  resolve(wav: Uint8Array): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

let thread: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, Waiting>();

function failAll(error: Error): void {
  for (const job of waiting.values()) {
    clearTimeout(job.timer);
    job.reject(error);
  }
  waiting.clear();
}

function worker(): Worker {
  if (thread !== undefined) return thread;
  const made = new Worker(new URL('./espeak-worker.ts', import.meta.url));
  made.on('message', (answer: EspeakAnswer) => {
    const job = waiting.get(answer.id);
    if (job === undefined) return;
    waiting.delete(answer.id);
    clearTimeout(job.timer);
    if ('wav' in answer) job.resolve(answer.wav);
    else job.reject(new Error(answer.error));
    if (waiting.size === 0) made.unref();
  });
  made.on('error', (error) => failAll(error));
  made.on('exit', () => {
    if (thread === made) thread = undefined;
    failAll(new Error('the eSpeak NG thread stopped'));
  });
  thread = made;
  return made;
}

function speakWav(text: string, voice: string): Promise<Uint8Array> {
  if (waiting.size >= MOST_WAITING) return Promise.reject(new Error('too many lines waiting for eSpeak NG'));
  const id = nextId++;
  const running = worker();
  running.ref();
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => {
      void running.terminate();
    }, LINE_TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
    running.postMessage({ id, text, voice } satisfies EspeakRequest);
  });
}

/** The text as speech: the WAV eSpeak NG made, and its samples for another encoding (MP3). */
export async function spokenWords(speech: {
  text: string;
  voice?: string | undefined;
  language?: string | undefined;
}): Promise<{ wav: Uint8Array; samples: Int16Array; rate: number }> {
  const wav = await speakWav(speech.text, espeakVoice(speech.voice, speech.language));
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const rate = view.getUint32(24, true);
  const samples = new Int16Array((wav.length - WAV_HEADER_BYTES) >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(WAV_HEADER_BYTES + i * 2, true);
  return { wav, samples, rate };
}
