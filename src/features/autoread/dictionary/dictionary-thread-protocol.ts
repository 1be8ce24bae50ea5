// Messages between the dictionary thread (dictionary-thread.ts, main thread) and its worker (dictionary-worker.ts):
// one request, one reply.
import type { DictionaryEntry } from './dictionary.ts';

export interface DictionaryJob {
  id: number;
  /** Which compiled dictionary (one per change, numbered in this process); the worker keeps the last few. */
  dictionary: number;
  /** Sent when the worker said it does not hold `dictionary` (new, forgotten, or a replaced worker). */
  entries?: readonly DictionaryEntry[];
  texts: readonly string[];
}

export type DictionaryJobReply =
  | { id: number; ok: true; said: string[] }
  | { id: number; ok: false; unknown: true }
  | { id: number; ok: false; unknown: false; message: string };
