// The worker thread of dictionary-thread.ts: applies and checks dictionaries with patterns, keeping MAX_KEPT compiled.
import { parentPort } from 'node:worker_threads';
import { compileDictionary, readingWouldBeCut, validateAnyEntry, validateEntries } from './dictionary.ts';
import type { DictionaryJob, DictionaryJobReply } from './dictionary-thread-protocol.ts';
import { yieldToMainThread } from '../../../core/audio/workers/thread-priority.ts';

yieldToMainThread();

/** Dictionaries kept compiled: the servers reading now, mostly; a forgotten one is sent and compiled again. */
const MAX_KEPT = 16;
const kept = new Map<number, (text: string) => string>();

function handle(job: DictionaryJob): DictionaryJobReply {
  try {
    if (job.kind === 'check') {
      const [first] = job.entries;
      const one = job.single === true && first !== undefined ? validateAnyEntry(first) : undefined;
      const checked =
        one === undefined ? validateEntries(job.entries) : one.ok ? { ok: true as const, value: [one.value] } : one;
      const cut = checked.ok ? checked.value.map(readingWouldBeCut) : [];
      return { id: job.id, ok: true, checked, cut };
    }
    let apply = kept.get(job.dictionary);
    if (apply === undefined) {
      if (job.entries === undefined) return { id: job.id, ok: false, unknown: true };
      apply = compileDictionary(job.entries);
    }
    kept.delete(job.dictionary);
    kept.set(job.dictionary, apply);
    for (const oldest of kept.keys()) {
      if (kept.size <= MAX_KEPT) break;
      kept.delete(oldest);
    }
    return { id: job.id, ok: true, said: job.texts.map(apply) };
  } catch (error) {
    return { id: job.id, ok: false, unknown: false, message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (job: DictionaryJob) => parentPort?.postMessage(handle(job)));
