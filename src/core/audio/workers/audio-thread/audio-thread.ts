// Speed, volume, joining parts and mixing a scene's lines, off the main thread: whole parts go to worker threads (../job-thread.ts), one job
// at a time per thread. Bounded: a few threads, a few jobs waiting on each, a time limit per job; past that the
// request is refused with AudioBusyError (the member reads that SayBot is busy), never queued without end. Fair
// between servers: each server's jobs wait their turn with the others' (../job-thread.ts), and one server may have
// only so many under way or waiting, so a server's long run of renders never holds up another server's file.
import { availableParallelism } from 'node:os';
import { isMarkedAsUntransferable } from 'node:worker_threads';
import type { AudioJob, AudioJobReply } from './audio-thread-protocol.ts';
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { EditableFormat, SceneMixInput, SceneMixResult } from '../../effects/effect-types.ts';
import { AudioBusyError, ClipError, UnsupportedAudioError } from '../../errors.ts';
import { ThreadPool } from '../thread-pool.ts';

export { AudioBusyError } from '../../errors.ts';

/** Threads: one core is left to the main thread's voice cycle (and the Opus encoder pool); at least one, at most 2. */
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/**
 * Jobs waiting per thread. Every file is joined and measured here, not only speed and volume, so a burst of file
 * requests (ten members at once) must fit: a job is milliseconds of work, and each has its time limit.
 */
export const MAX_WAITING_AUDIO_JOBS = 64;
/** The longest part (a few thousand characters, a few minutes of audio) takes a few seconds; past this it is stuck. */
const JOB_TIMEOUT_MS = 60_000;
/**
 * A scene's limit: the longest (600 s, MAX_SCENE_SECONDS) from 48 kHz MP3 lines to a 48 kHz MP3 took 14.7 s here
 * (the MP3 encoder most of it; 1.4 s to WAV), so 120 s leaves eight times that for a slower or busier machine.
 */
export const SCENE_JOB_TIMEOUT_MS = 120_000;
/**
 * Jobs one server may have under way or waiting, over every thread: a few members' files and changed parts at once
 * (a long /say at another speed is one job per part), while the rest of the queue stays for the other servers.
 */
export const MAX_AUDIO_JOBS_PER_GUILD = 16;
const IDLE_MS = 30_000;

type Job = AudioJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

const pool = new ThreadPool<Job, AudioJobReply>({
  name: 'audio thread',
  jobs: 'jobs',
  worker: new URL('./audio-worker.ts', import.meta.url),
  threads: THREADS,
  maxWaitingPerThread: MAX_WAITING_AUDIO_JOBS,
  timeoutMs: JOB_TIMEOUT_MS,
  idleMs: IDLE_MS,
  perOwner: MAX_AUDIO_JOBS_PER_GUILD,
  unavailable: (reason, message, options) => new AudioBusyError(reason, message, options),
});

async function run(
  job: Job,
  transfer: ArrayBuffer[],
  guild: string,
  timeoutMs?: number,
): Promise<Extract<AudioJobReply, { ok: true }>> {
  const reply = await pool.run(job, transfer, guild, timeoutMs);
  if (reply.ok) return reply;
  if (reply.unsupported) throw new UnsupportedAudioError(undefined, reply.message);
  if (reply.range === true) throw new RangeError(reply.message);
  throw reply.code === undefined ? new Error(reply.message) : new ClipError(reply.code, reply.message);
}

/** Speed 1 at 0 dB unshifted changes nothing: such a part is served as the service sent it, with no work at all. */
export function changesAudio(effects: AudioEffects | undefined): effects is AudioEffects {
  return effects !== undefined && (effects.speed !== 1 || effects.volumeDb !== 0 || (effects.pitch ?? 0) !== 0);
}

/**
 * A copy of `bytes` the worker can own (the caller's buffer may be shared, e.g. a cache entry): one block copy, not
 * an element-by-element one (a part of a few megabytes must not hold the main thread).
 */
function copy(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}

/**
 * One part (WAV or MP3) with speed and volume applied, in its own format. Rejects with UnsupportedAudioError for
 * audio SayBot cannot decode (FLAC, M4A, Ogg), ClipError for damaged audio, AudioBusyError when it cannot run now.
 */
export async function applyEffectsOffThread(
  bytes: Uint8Array,
  effects: AudioEffects,
  guild = '',
): Promise<{ format: EditableFormat; data: Buffer }> {
  const data = copy(bytes);
  const reply = await run({ kind: 'effects', data, effects }, [data], guild);
  return { format: reply.format, data: Buffer.from(reply.data) };
}

/** A request's parts (all WAV or all MP3) as one file with exact sizes, and its duration from its samples. */
export async function joinPartsOffThread(
  parts: readonly Uint8Array[],
  format: EditableFormat,
  guild = '',
): Promise<{ data: Buffer; seconds: number }> {
  const buffers = parts.map(copy);
  const reply = await run({ kind: 'join', parts: buffers, format }, buffers, guild);
  return { data: Buffer.from(reply.data), seconds: reply.seconds ?? 0 };
}

/**
 * A scene's lines mixed as one file (../../effects/scene-mix.ts: one rate, loudness evened out, exact gaps), in
 * `guild`'s share of the pool like every other job, with a longer limit (SCENE_JOB_TIMEOUT_MS). The parts are handed
 * over, not copied: a part that is a whole ArrayBuffer of its own is moved to the worker and the caller's array is
 * detached (empty) afterwards; pass copies of bytes you keep (a cache's). A part that is a view into a larger buffer
 * (Node's shared pool, a slab) is copied, since moving its buffer would take the rest with it. A scene over
 * MAX_SCENE_SECONDS comes back cut there (`cut`). Rejects with RangeError for a bad gap, ClipError and UnsupportedAudioError for parts it
 * cannot use, AudioBusyError when it cannot run now.
 */
export async function mixSceneOffThread(input: SceneMixInput, guild: string): Promise<SceneMixResult> {
  const transfer: ArrayBuffer[] = [];
  const moved = new Set<ArrayBufferLike>();
  const hand = (bytes: Uint8Array): ArrayBuffer => {
    const { buffer } = bytes;
    const whole = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
    // Each buffer once in the transfer list; a second view of it, a shared one or Node's pool is copied.
    const own = whole && buffer instanceof ArrayBuffer && !moved.has(buffer) && !isMarkedAsUntransferable(buffer);
    const data = own ? buffer : copy(bytes);
    moved.add(data);
    transfer.push(data);
    return data;
  };
  const lines = input.lines.map((line) => ({ ...line, parts: line.parts.map(hand) }));
  const reply = await run({ kind: 'scene', lines, format: input.format }, transfer, guild, SCENE_JOB_TIMEOUT_MS);
  if (!reply.scene) throw new Error('audio thread: a scene job answered without its figures');
  return {
    data: new Uint8Array(reply.data),
    format: reply.format,
    seconds: reply.seconds ?? 0,
    ...reply.scene,
  };
}
