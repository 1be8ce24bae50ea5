// The doubles' speech as words, so that a person trying an engine hears what was typed: the text spoken by eSpeak NG
// (the optional espeak-ng package, GPL, on a thread of the doubles' own) in the voice's language, at a pitch and speed
// following the voice and the request. Tests keep the tones, whose pitch they measure.
import { Worker } from 'node:worker_threads';
import { wavSamples } from './audio.ts';
import type { EspeakAnswer, EspeakRequest } from './espeak-worker.ts';

/** Lines waiting for the thread at most; past this a line is answered in tones. */
const MOST_WAITING = 16;
/** A line takes well under a second; past this the thread is replaced and the line answered in tones. */
const LINE_TIMEOUT_MS = 20_000;
/** eSpeak NG's default speed, words a minute. */
const WORDS_A_MINUTE = 175;

/** Whether the optional espeak-ng package is installed (resolved, not loaded). */
export function wordsAvailable(): boolean {
  try {
    import.meta.resolve('espeak-ng');
    return true;
  } catch {
    return false;
  }
}

export interface Line {
  text: string;
  /** eSpeak NG's voice (`ja`, `en-us`, `cmn`). */
  language: string;
  gender: 'f' | 'm';
  /** The voice's tone pitch (Hz), spread over eSpeak NG's 0..99 so that voices differ. */
  pitchHz: number;
  /** Octaves up (down when negative) from the voice's own pitch. */
  shift?: number;
  /** 1: eSpeak NG's usual speed. */
  speed: number;
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

/** eSpeak NG's pitch for a tone pitch: the 20 Hz ladder of voices.ts spread over 20..80 in steps of 7. */
export function espeakPitch(pitchHz: number): number {
  return 20 + ((Math.round(pitchHz / 20) * 7) % 61);
}

/** The line spoken by eSpeak NG: its samples and rate; rejects when the thread is busy or fails. */
export function spokenLine(line: Line): Promise<{ samples: Int16Array; rate: number }> {
  if (waiting.size >= MOST_WAITING) return Promise.reject(new Error('too many lines waiting for eSpeak NG'));
  const id = nextId++;
  const running = worker();
  running.ref();
  const request: EspeakRequest = {
    id,
    text: line.text,
    voice: `${line.language}+${line.gender}3`,
    pitch: Math.round(Math.min(99, Math.max(0, espeakPitch(line.pitchHz) + 60 * (line.shift ?? 0)))),
    speed: Math.round(Math.min(450, Math.max(80, WORDS_A_MINUTE * line.speed))),
  };
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => void running.terminate(), LINE_TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
    running.postMessage(request);
  }).then(wavSamples);
}
