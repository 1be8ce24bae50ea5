// Clip decoding off the main thread (../job-thread.ts): one worker thread takes one clip at a time; a few more may
// wait, and beyond that (or past the time limit) the check is refused rather than queued without end.
import { ClipError, JobUnavailableError } from '../../errors.ts';
import type { ClipJob, ClipJobReply, MeasuredClip } from './clip-thread-protocol.ts';
import { JobThread } from '../job-thread.ts';

export type { MeasuredClip } from './clip-thread-protocol.ts';

/** Clips waiting behind the one being decoded. */
export const MAX_WAITING_CLIPS = 4;
/** One clip's decoding (at most a minute of audio) takes well under this; past it the worker is replaced. */
const JOB_TIMEOUT_MS = 20_000;
/** An idle worker is ended after this, so its memory is given back. */
const IDLE_MS = 30_000;

/** The check could not run now: too many clips waiting, or the decoder ran out of time. */
export class ClipCheckUnavailableError extends JobUnavailableError {}

const thread = new JobThread<Omit<ClipJob, 'id'>, ClipJobReply>({
  worker: new URL('./clip-worker.ts', import.meta.url),
  maxWaiting: MAX_WAITING_CLIPS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  unavailable: (reason, message, cause) =>
    new ClipCheckUnavailableError(reason, `clip check: ${message}`, cause === undefined ? undefined : { cause }),
});

/**
 * Decodes at most `maxSeconds` of the clip in a worker thread and measures it (analyseClip's figures and the RMS
 * level). Rejects with ClipError for bytes that are not usable audio, ClipCheckUnavailableError when it cannot run now.
 */
export async function measureClipOffThread(bytes: Uint8Array, maxSeconds: number): Promise<MeasuredClip> {
  // A copy of its own, transferred: the caller keeps its bytes (to upload them), the worker gets them without a clone.
  const data = Uint8Array.from(bytes).buffer;
  const reply = await thread.run({ data, maxSeconds }, [data]);
  if (reply.ok) return reply.clip;
  throw reply.code === undefined ? new Error(reply.message) : new ClipError(reply.code, reply.message);
}
