// A dictionary with patterns applied off the main thread (twenty costly patterns take a tenth of a second).
import { JobUnavailableError } from '../../../core/audio/errors.ts';
import { JobThread } from '../../../core/audio/workers/job-thread.ts';
import {
  isPattern,
  readingWouldBeCut,
  validateEntries,
  validateEntry,
  type DictionaryEntry,
  type DictionaryResult,
  type EntryName,
  type PatternEntry,
} from './dictionary.ts';
import type { DictionaryJob, DictionaryJobReply } from './dictionary-thread-protocol.ts';

type Job = DictionaryJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;
import { FairShares } from '../../../core/audio/workers/fair-shares.ts';

/** Texts waiting behind the one under way, over every server (each reading server hands over one at a time). */
export const MAX_WAITING_DICTIONARY_JOBS = 64;
/** Texts one server may have under way or waiting: its reader hands over one at a time, the rest are Speak uses. */
export const MAX_DICTIONARY_JOBS_PER_GUILD = 8;
/** Twenty of the costliest patterns over a long message take well under this; past it the worker is replaced. */
const JOB_TIMEOUT_MS = 5_000;
const IDLE_MS = 60_000;

/** The dictionary could not be applied now: too many texts waiting, or its thread failed or ran out of time. */
export class DictionaryUnavailableError extends JobUnavailableError {}

const thread = new JobThread<Job, DictionaryJobReply>({
  worker: new URL('./dictionary-worker.ts', import.meta.url),
  maxWaiting: MAX_WAITING_DICTIONARY_JOBS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  unavailable: (reason, message, cause) =>
    new DictionaryUnavailableError(reason, `dictionary: ${message}`, cause === undefined ? undefined : { cause }),
});

/** Texts under way or waiting per server, each server's at most its share. */
const shares = new FairShares({
  perOwner: MAX_DICTIONARY_JOBS_PER_GUILD,
  busy: () => new DictionaryUnavailableError('owner-busy', 'dictionary: this server has its share of texts waiting'),
});

export async function applyOffThread(
  dictionary: number,
  entries: readonly DictionaryEntry[],
  texts: readonly string[],
  guildId: string,
): Promise<string[]> {
  return shares.run(guildId, async () => {
    let reply = await thread.run({ dictionary, texts }, [], guildId);
    if (!reply.ok && reply.unknown) reply = await thread.run({ dictionary, entries, texts }, [], guildId);
    if (reply.ok && 'said' in reply) return reply.said;
    throw new DictionaryUnavailableError('crashed', `dictionary: ${failure(reply)}`);
  });
}

function failure(reply: DictionaryJobReply): string {
  return reply.ok ? 'answered with another shape' : reply.unknown ? 'not compiled' : reply.message;
}

/** `entries` checked as validateEntries checks them, compiled in the worker, each with whether its reading is cut. */
async function checkOffThread(
  entries: readonly DictionaryEntry[],
  guildId: string,
  single = false,
): Promise<{ checked: DictionaryResult<DictionaryEntry[]>; cut: boolean[] }> {
  return shares.run(guildId, async () => {
    const reply = await thread.run({ kind: 'check', entries, single }, [], guildId);
    if (reply.ok && 'checked' in reply) return { checked: reply.checked, cut: reply.cut };
    throw new DictionaryUnavailableError('crashed', `dictionary: ${failure(reply)}`);
  });
}

/** A whole dictionary checked: at once for words alone, in the worker when it has patterns. */
export async function validateEntriesOffThread(
  entries: readonly DictionaryEntry[],
  guildId: string,
): Promise<DictionaryResult<DictionaryEntry[]>> {
  if (!entries.some(isPattern)) return validateEntries(entries);
  return (await checkOffThread(entries, guildId)).checked;
}

/** The entry `name` -> `reading` as validateEntry or validatePattern gives it; a pattern checked in the worker. */
export async function validateEntryOffThread(
  name: EntryName,
  reading: string,
  guildId: string,
): Promise<DictionaryResult<DictionaryEntry>> {
  if (typeof name === 'string') return validateEntry(name, reading);
  const pattern: PatternEntry = { pattern: name.pattern, reading };
  const { checked } = await checkOffThread([pattern], guildId, true);
  if (!checked.ok) return checked;
  const [entry] = checked.value;
  return entry === undefined ? { ok: true, value: pattern } : { ok: true, value: entry };
}

/** readingWouldBeCut, a pattern's compiled in the worker. */
export async function readingWouldBeCutOffThread(entry: DictionaryEntry, guildId: string): Promise<boolean> {
  if (!isPattern(entry)) return readingWouldBeCut(entry);
  return (await checkOffThread([entry], guildId, true)).cut[0] ?? false;
}
