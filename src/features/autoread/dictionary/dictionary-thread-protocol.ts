// Messages between dictionary-thread.ts and its worker (dictionary-worker.ts): one request, one reply.
import type { DictionaryEntry, DictionaryResult } from './dictionary.ts';

/** A server's dictionary applied to its texts. */
export interface ApplyJob {
  id: number;
  kind?: 'apply';
  /** Which compiled dictionary (one per change, numbered in this process); the worker keeps the last few. */
  dictionary: number;
  /** Sent when the worker said it does not hold `dictionary` (new, forgotten, or a replaced worker). */
  entries?: readonly DictionaryEntry[];
  texts: readonly string[];
}

/** Entries checked as /dictionary add and import check them, their patterns compiled here: off the main thread. */
export interface CheckJob {
  id: number;
  kind: 'check';
  entries: readonly DictionaryEntry[];
  /** One entry checked as /dictionary add checks it (its own problem), not as a file's entries. */
  single?: boolean;
}

export type DictionaryJob = ApplyJob | CheckJob;

export type DictionaryJobReply =
  | { id: number; ok: true; said: string[] }
  /** A check's verdict, and for each entry whether the dictionary's cap would cut what it says (readingWouldBeCut). */
  | { id: number; ok: true; checked: DictionaryResult<DictionaryEntry[]>; cut: boolean[] }
  | { id: number; ok: false; unknown: true }
  | { id: number; ok: false; unknown: false; message: string };
