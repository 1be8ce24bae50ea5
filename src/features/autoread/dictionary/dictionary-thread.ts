// A dictionary with patterns applied off the main thread. Words are matched in time linear in the text
// (./word-automaton.ts), but a pattern runs on RE2 at a cost per character that grows with the pattern: twenty of
// the costliest RE2 accepts take a tenth of a second or more on one long message, which would delay every server's
// voice packets. So a dictionary with patterns is applied in a worker thread (../../../core/audio/workers/job-thread.ts:
// one job at a time, servers in turn, a few waiting, a time limit), compiled there once per change.
import { JobUnavailableError } from '../../../core/audio/errors.ts';
import { JobThread } from '../../../core/audio/workers/job-thread.ts';
import type { DictionaryEntry } from './dictionary.ts';
import type { DictionaryJob, DictionaryJobReply } from './dictionary-thread-protocol.ts';
import { OwnerShares } from '../../../core/audio/workers/owner-shares.ts';

/** Texts waiting behind the one under way, over every server (each reading server hands over one at a time). */
export const MAX_WAITING_DICTIONARY_JOBS = 64;
/** Texts one server may have under way or waiting: its reader hands over one at a time, the rest are Speak uses. */
export const MAX_DICTIONARY_JOBS_PER_GUILD = 8;
/** Twenty of the costliest patterns over a long message take well under this; past it the worker is replaced. */
const JOB_TIMEOUT_MS = 5_000;
const IDLE_MS = 60_000;

/** The dictionary could not be applied now: too many texts waiting, or its thread failed or ran out of time. */
export class DictionaryUnavailableError extends JobUnavailableError {}

const thread = new JobThread<Omit<DictionaryJob, 'id'>, DictionaryJobReply>({
  worker: new URL('./dictionary-worker.ts', import.meta.url),
  maxWaiting: MAX_WAITING_DICTIONARY_JOBS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  unavailable: (reason, message, cause) =>
    new DictionaryUnavailableError(reason, `dictionary: ${message}`, cause === undefined ? undefined : { cause }),
});

/** Texts under way or waiting per server, each server's at most its share. */
const shares = new OwnerShares(
  MAX_DICTIONARY_JOBS_PER_GUILD,
  () => new DictionaryUnavailableError('owner-busy', 'dictionary: this server has its share of texts waiting'),
);

export async function applyOffThread(
  dictionary: number,
  entries: readonly DictionaryEntry[],
  texts: readonly string[],
  guildId: string,
): Promise<string[]> {
  return shares.run(guildId, async () => {
    let reply = await thread.run({ dictionary, texts }, [], guildId);
    if (!reply.ok && reply.unknown) reply = await thread.run({ dictionary, entries, texts }, [], guildId);
    if (reply.ok) return reply.said;
    throw new DictionaryUnavailableError('crashed', `dictionary: ${reply.unknown ? 'not compiled' : reply.message}`);
  });
}
