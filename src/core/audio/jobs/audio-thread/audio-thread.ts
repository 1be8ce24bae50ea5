// Speed, volume, joining parts and mixing a scene's lines, off the main thread: whole parts go to worker threads
// (../job-thread.ts), one job
// at a time per thread. Two work classes (../work-classes.ts), each its own threads and queue: short work (a part's
// speed and volume, a small file's join, a short scene's mix) and long work (a long scene's mix, a large file's
// join), chosen by what the job will cost (workClassOf), so a ten-minute mix never holds another server's file or
// two-line scene. Bounded: a few threads, a few jobs waiting on each, a time limit per job; past
// that the request is refused with AudioBusyError (the member reads that SayBot is busy), never queued without end.
// Fair between servers: each server's jobs wait their turn with the others' (../job-thread.ts), one server may have
// only so many under way or waiting, and a member only so many long ones.
import { availableParallelism } from 'node:os';
import { isMarkedAsUntransferable } from 'node:worker_threads';
import type { AudioJob, AudioJobReply, HandedBytes, HandedPart } from './audio-thread-protocol.ts';
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { EditableFormat, SceneMixInput, SceneMixResult } from '../../effects/effect-types.ts';
import { AudioBusyError, ClipError, UnsupportedAudioError } from '../../errors.ts';
import { classedPools, workClassOf, type WorkClass } from '../../workers/work-classes.ts';
import { partSeconds } from '../../analysis/part-seconds.ts';
import type { OwnBlocks } from '../../workers/byte-block-types.ts';
import { partLength } from '../../workers/byte-blocks.ts';
import type { ClipProbe } from '../../analysis/clip-probe.ts';
import type { AudioFormat } from '../../codecs/format.ts';
import type { OggOpusOptions } from '../../codecs/ogg-opus-writer.ts';
import type { PacketFrames } from '../../codecs/packet-frames.ts';
import type { TranscodeSpec } from '../transcode/transcode-protocol.ts';
import { VoiceMessageError } from '../../voice-message/voice-message-error.ts';
import type { VoiceMessage } from '../../voice-message/voice-message-types.ts';

export { AudioBusyError } from '../../errors.ts';

/**
 * Short work's threads: one core is left to the main thread's voice cycle (and the Opus encoder pool); at least one,
 * at most 2. Long work has one thread of its own.
 */
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
 * (the MP3 encoder most of it; 1.4 s to WAV), so 120 s leaves eight times that for a slower machine. A long scene's
 * is of its own CPU time, under long work's wall-clock ceiling (../work-classes.ts), so a host whose other processes
 * leave its low-priority thread little of a core does not cut it.
 */
export const SCENE_JOB_TIMEOUT_MS = 120_000;
/**
 * Jobs one server may have under way or waiting, over every thread: a few members' files and changed parts at once
 * (a long /say at another speed is one job per part), while the rest of the queue stays for the other servers.
 */
export const MAX_AUDIO_JOBS_PER_GUILD = 16;
/** Long jobs waiting behind the one under way (each may take a scene's SCENE_JOB_TIMEOUT_MS). */
export const MAX_WAITING_LONG_JOBS = 8;
/** Long jobs one server may have under way or waiting. */
export const MAX_LONG_JOBS_PER_GUILD = 2;
/** Long jobs one member may have under way or waiting: a scene's mix or a large file at a time, cached or not. */
export const MAX_LONG_JOBS_PER_MEMBER = 1;
const IDLE_MS = 30_000;

type Done = Extract<AudioJobReply, { ok: true }>;
type Edited = Extract<Done, { format: EditableFormat }>;

type Job = AudioJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

const pools = classedPools<Job, AudioJobReply>(
  {
    name: 'audio thread',
    jobs: 'jobs',
    worker: new URL('./audio-worker.ts', import.meta.url),
    threads: THREADS,
    maxWaitingPerThread: MAX_WAITING_AUDIO_JOBS,
    timeoutMs: JOB_TIMEOUT_MS,
    idleMs: IDLE_MS,
    perOwner: MAX_AUDIO_JOBS_PER_GUILD,
    unavailable: (reason, message, options) => new AudioBusyError(reason, message, options),
  },
  {
    threads: 1,
    maxWaitingPerThread: MAX_WAITING_LONG_JOBS,
    perOwner: MAX_LONG_JOBS_PER_GUILD,
    perMember: MAX_LONG_JOBS_PER_MEMBER,
  },
);

/** Whose a job is: its server's share of a class, and for long work its member's ration ('' when none). */
export interface AudioJobOwner {
  guild?: string;
  member?: string;
}

async function run(
  workClass: WorkClass,
  job: Job,
  transfer: ArrayBuffer[],
  { guild = '', member = '' }: AudioJobOwner,
  timeoutMs?: number,
): Promise<Done> {
  const reply = await pools[workClass].run(job, transfer, guild, { timeoutMs, member });
  if (reply.ok) return reply;
  if (reply.unsupported) throw new UnsupportedAudioError(undefined, reply.message);
  if (reply.range === true) throw new RangeError(reply.message);
  if (reply.voiceMessage !== undefined) throw new VoiceMessageError(reply.voiceMessage, reply.message);
  throw reply.code === undefined ? new Error(reply.message) : new ClipError(reply.code, reply.message);
}

/** An edit's or a join's reply, as its job asked for (an Ogg job's and a probe's replies are other shapes). */
function edited(reply: Done): Edited {
  if (!('data' in reply)) throw new Error('audio thread: an audio job answered with another shape');
  return reply;
}

/**
 * `bytes` as the worker gets them, adding to `transfer` what moves: bytes in shared memory (the free voice's WAV, a
 * cache hit, a changed part) as they are, shared, with no copy; `own` bytes that are a whole buffer of their own,
 * moved (the caller's view is detached); anything else (a view into Node's pool) one block copy the worker then owns.
 */
function handOver(bytes: Uint8Array, transfer: ArrayBuffer[], own = false): HandedBytes {
  const { buffer } = bytes;
  if (buffer instanceof SharedArrayBuffer) return new Uint8Array(buffer, bytes.byteOffset, bytes.byteLength);
  const whole = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
  const data =
    own && whole && !transfer.includes(buffer) && !isMarkedAsUntransferable(buffer)
      ? buffer
      : new Uint8Array(bytes).buffer;
  transfer.push(data);
  return data;
}

/**
 * A part as the worker gets it: bytes as handOver says (`own`: a whole buffer of the caller's own is moved), or the
 * shared blocks it was gathered in (../byte-blocks.ts), read where they are.
 */
function handPart(part: Uint8Array | OwnBlocks, transfer: ArrayBuffer[], own = false): HandedPart {
  return part instanceof Uint8Array ? handOver(part, transfer, own) : part.blocks;
}

/**
 * One part (WAV or MP3) with speed and volume applied, in its own format, in shared memory (the changed part is
 * read, cached and mixed as those bytes). Rejects with UnsupportedAudioError for audio SayBot cannot decode (FLAC,
 * M4A, Ogg), ClipError for damaged audio, AudioBusyError when it cannot run now.
 */
export async function applyEffectsOffThread(
  part: Uint8Array | OwnBlocks,
  effects: AudioEffects,
  guild = '',
): Promise<{ format: EditableFormat; data: Buffer }> {
  const transfer: ArrayBuffer[] = [];
  const data = handPart(part, transfer);
  // One part (bounded by the request's split): short work, a voice's next part may wait for it.
  const reply = edited(await run('short', { kind: 'effects', data, effects }, transfer, { guild }));
  return { format: reply.format, data: Buffer.from(reply.data) };
}

/**
 * What a part's headers say of its length against `limitSeconds` (../../analysis/clip-probe.ts), read in the audio
 * worker: an MP3's frames are walked and a part's blocks joined there, not on the main thread. Short work. Rejects
 * with ClipError for bytes that are not audio it knows, AudioBusyError when it cannot run now.
 */
export async function probePartOffThread(
  part: Uint8Array | OwnBlocks,
  limitSeconds: number,
  owner: AudioJobOwner = {},
): Promise<ClipProbe> {
  const transfer: ArrayBuffer[] = [];
  const handed = handPart(part, transfer);
  const reply = await run('short', { kind: 'probe', part: handed, limitSeconds }, transfer, owner);
  if (!('probe' in reply)) throw new Error('audio thread: a probe job answered without its verdict');
  return reply.probe;
}

/**
 * A part posted as a file of its own, as the service sent it (a format SayBot does not join, or parts whose formats
 * differ): its blocks joined, a WAV's sizes made exact or a cut last MP3 frame dropped, and its length measured, in
 * the audio worker. Its class by the bytes it copies, as a join's.
 */
export async function partFileOffThread(
  part: Uint8Array | OwnBlocks,
  format: AudioFormat,
  owner: AudioJobOwner = {},
): Promise<{ data: Buffer; seconds: number }> {
  const transfer: ArrayBuffer[] = [];
  const handed = handPart(part, transfer);
  const workClass = workClassOf({ bytes: partLength(part) });
  const reply = await run(workClass, { kind: 'file', part: handed, format }, transfer, owner);
  if (!('file' in reply)) throw new Error('audio thread: a file job answered without its file');
  return { data: Buffer.from(reply.file), seconds: reply.seconds };
}

/**
 * A request's parts (all WAV or all MP3) as one file with exact sizes, and its duration from its samples: its class
 * by the bytes it copies (short up to SHORT_WORK_BYTES in all, long work in the member's ration past it). A part is
 * bytes (handed over as
 * handOver says) or the shared blocks it was gathered in (joined in the worker).
 */
export async function joinPartsOffThread(
  parts: ReadonlyArray<Uint8Array | OwnBlocks>,
  format: EditableFormat,
  owner: AudioJobOwner = {},
): Promise<{ data: Buffer; seconds: number }> {
  const bytes = parts.reduce((sum, part) => sum + partLength(part), 0);
  const transfer: ArrayBuffer[] = [];
  const handed = parts.map((part) => handPart(part, transfer));
  const workClass = workClassOf({ bytes });
  const reply = edited(await run(workClass, { kind: 'join', parts: handed, format }, transfer, owner));
  return { data: Buffer.from(reply.data), seconds: reply.seconds ?? 0 };
}

/** A scene as the mix takes it: each part bytes (handed over as below) or the shared blocks it was gathered in. */
export interface SceneJobInput extends Omit<SceneMixInput, 'lines'> {
  lines: Array<Omit<SceneMixInput['lines'][number], 'parts'> & { parts: Array<Uint8Array | OwnBlocks> }>;
}

/**
 * What mixing a scene costs: the seconds of audio it decodes, mixes and encodes (each part's from its header and
 * size, ../../analysis/part-seconds.ts, and the gaps), and the bytes it reads. Read before the parts are handed over.
 */
export function sceneCost(input: SceneJobInput): { seconds: number; bytes: number } {
  let seconds = 0;
  let bytes = 0;
  for (const line of input.lines) {
    seconds += line.gapBefore;
    for (const part of line.parts) {
      seconds += partSeconds(part);
      bytes += partLength(part);
    }
  }
  return { seconds, bytes };
}

/**
 * A scene's lines mixed as one file (../../effects/scene-mix.ts: one rate, loudness evened out, exact gaps), with a
 * longer limit (SCENE_JOB_TIMEOUT_MS). Its class by what it costs (sceneCost): a two-line scene is short work; a
 * long scene is long work, in the server's share and the member's ration, run in slices. The parts are
 * handed over, not copied: a part in shared memory is shared; a part that is a whole ArrayBuffer of its own is moved
 * to the worker and the caller's array is detached (empty) afterwards; pass copies of bytes you keep (a cache's). A
 * part that is a view into a larger buffer (Node's shared pool, a slab) is copied, since moving its buffer would take
 * the rest with it. A part gathered in shared blocks (../byte-blocks.ts) is read where it is and joined in the
 * worker. A scene over MAX_SCENE_SECONDS comes back cut there (`cut`). Rejects with RangeError for a bad gap,
 * ClipError and UnsupportedAudioError for parts it cannot use, AudioBusyError when it cannot run now.
 */
export async function mixSceneOffThread(input: SceneJobInput, owner: AudioJobOwner): Promise<SceneMixResult> {
  const transfer: ArrayBuffer[] = [];
  const lines = input.lines.map((line) => ({
    ...line,
    parts: line.parts.map((part) => handPart(part, transfer, true)),
  }));
  const workClass = workClassOf(sceneCost(input));
  const scene = { kind: 'scene', lines, format: input.format } as const;
  const reply = edited(await run(workClass, scene, transfer, owner, SCENE_JOB_TIMEOUT_MS));
  if (!reply.scene) throw new Error('audio thread: a scene job answered without its figures');
  return {
    data: new Uint8Array(reply.data),
    format: reply.format,
    seconds: reply.seconds ?? 0,
    ...reply.scene,
  };
}

/**
 * A WAV or MP3 file made a voice message in the audio worker, in the class of its cost (its seconds from its header,
 * its bytes): encoded to Opus as the player encodes, measured (length, waveform) and written as Ogg Opus there. The
 * file's bytes move to the worker when they are a buffer of their own (the caller's view is detached afterwards)
 * and the Ogg file moves back; no packet is decoded on the main thread. Rejects with ClipError for damaged or empty
 * audio, VoiceMessageError when its packets make none, AudioBusyError when it cannot run now.
 */
export async function voiceMessageOffThread(
  file: Uint8Array,
  spec: TranscodeSpec,
  owner: AudioJobOwner = {},
): Promise<VoiceMessage> {
  const workClass = workClassOf({ seconds: partSeconds(file), bytes: file.byteLength });
  const transfer: ArrayBuffer[] = [];
  const handed = handOver(file, transfer, true);
  const reply = await run(
    workClass,
    { kind: 'voice-message', file: handed, spec },
    transfer,
    owner,
    SCENE_JOB_TIMEOUT_MS,
  );
  if (!('voiceMessage' in reply)) throw new Error('audio thread: a voice message job answered without its file');
  const { ogg, durationSecs, waveform } = reply.voiceMessage;
  return { ogg: Buffer.from(ogg), durationSecs, waveform };
}

/**
 * A voice message's packets written as one Ogg Opus file (its pages and their CRCs) in the audio worker: the packets'
 * blocks are moved there (`packets` is empty afterwards) and the file moved back, neither copied on the main thread.
 * Its class by the bytes of packets it copies, as a file's join (short up to SHORT_WORK_BYTES, minutes of speech).
 */
export async function writeOggOffThread(
  packets: PacketFrames,
  options: OggOpusOptions,
  owner: AudioJobOwner = {},
): Promise<Buffer> {
  const workClass = workClassOf({ bytes: packets.bytes });
  const blocks = packets.take();
  const reply = await run(workClass, { kind: 'ogg', packets: blocks, options }, [...blocks.blocks], owner);
  if (!('ogg' in reply)) throw new Error('audio thread: an Ogg job answered without its file');
  return Buffer.from(reply.ogg);
}
