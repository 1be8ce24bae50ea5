// Clip decoding on a job thread (../../workers/job-thread.ts): bounded, fair between servers, so one server sending
// clip after clip never holds up another's /clone. The bytes are moved, not copied: a clip may be tens of MB, and a
// copy on the main thread is a gap in every voice.
import { ClipError, JobUnavailableError } from '../../errors.ts';
import { ThreadPool } from '../../workers/job-thread.ts';
import type { ClipJob, ClipJobReply, MeasuredClip } from './clip-thread-protocol.ts';

export type { MeasuredClip } from './clip-thread-protocol.ts';

/** Clips waiting behind the one being decoded, over every server. */
export const MAX_WAITING_CLIPS = 8;
/** Clips one server may have under way or waiting: a /clone and the next one, while others take their turns. */
export const MAX_CLIPS_PER_GUILD = 2;
/** One clip's decoding (at most a minute of audio) takes well under this; past it the worker is replaced. */
const JOB_TIMEOUT_MS = 20_000;
/** An idle worker is ended after this, so its memory is given back. */
const IDLE_MS = 30_000;
/** Clips smaller than this are copied (a moment's work) rather than moved, so the caller's bytes stay its own. */
const COPY_MAX_BYTES = 1024 * 1024;

/** The check could not run now: too many clips waiting (of this server: `reason` 'owner-busy'), or too slow. */
export class ClipCheckUnavailableError extends JobUnavailableError {}

const pool = new ThreadPool<Omit<ClipJob, 'id'>, ClipJobReply>({
  name: 'clip check',
  jobs: 'clips',
  worker: new URL('./clip-worker.ts', import.meta.url),
  threads: 1,
  maxWaitingPerThread: MAX_WAITING_CLIPS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  perOwner: MAX_CLIPS_PER_GUILD,
  unavailable: (reason, message, options) => new ClipCheckUnavailableError(reason, message, options),
});

/**
 * Decodes at most `maxSeconds` of the clip in a worker and measures it, for `guild`. A clip of a megabyte or more is
 * moved (the caller's views detached) and comes back as the result's `bytes`. Rejects with ClipError, or
 * ClipCheckUnavailableError when it cannot run now.
 */
export async function measureClipOffThread(
  bytes: Uint8Array,
  maxSeconds: number,
  guild = '',
): Promise<{ clip: MeasuredClip; bytes: Uint8Array }> {
  const moved = bytes.byteLength >= COPY_MAX_BYTES && bytes.buffer instanceof ArrayBuffer;
  const data = moved ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer;
  const view = moved
    ? { byteOffset: bytes.byteOffset, byteLength: bytes.byteLength }
    : { byteOffset: 0, byteLength: bytes.byteLength };
  const reply = await pool.run({ data, ...view, maxSeconds }, [data], guild);
  if (reply.ok)
    return { clip: reply.clip, bytes: moved ? new Uint8Array(reply.data, view.byteOffset, view.byteLength) : bytes };
  throw reply.code === undefined ? new Error(reply.message) : new ClipError(reply.code, reply.message);
}
