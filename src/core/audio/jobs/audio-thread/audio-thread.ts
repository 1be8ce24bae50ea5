// Speed, volume, joins and scene mixes on worker threads (../../workers/job-thread.ts), one job at a time per thread,
// in two work classes with their own threads and queues, chosen by cost (workClassOf, there), so a ten-minute mix never
// holds another server's file. Bounded (threads, waiting jobs, a time limit each): past that AudioBusyError, never an
// endless queue. Fair between servers, with per-server and per-member caps.
import { availableParallelism } from 'node:os';
import { isMarkedAsUntransferable } from 'node:worker_threads';
import type { AudioJob, AudioJobReply, HandedBytes, HandedPart } from './audio-thread-protocol.ts';
import type { AudioEffects } from '../../effects/effect-types.ts';
import type { EditableFormat, SceneMixInput, SceneMixResult } from '../../effects/effect-types.ts';
import { AudioBusyError, ClipError, UnsupportedAudioError, VoiceMessageError } from '../../errors.ts';
import { classedPools, workClassOf } from '../../workers/job-thread.ts';
import type { WorkClass } from '../../workers/work-turns.ts';
import { partSeconds } from '../../analysis/part-seconds.ts';
import type { OwnBlocks } from '../../workers/byte-block-types.ts';
import { partLength } from '../../workers/byte-blocks.ts';
import type { ClipProbe } from '../../analysis/clip-probe.ts';
import { detectAudioFormat, SNIFF_BYTES, type AudioFormat } from '../../codecs/format.ts';
import type { OggOpusOptions } from '../../codecs/ogg-opus-writer.ts';
import type { PacketFrames } from '../../codecs/packet-frames.ts';
import type { TranscodeSpec } from '../transcode/transcode-protocol.ts';
import type { VoiceMessage } from '../../voice-message/voice-message-types.ts';

export { AudioBusyError } from '../../errors.ts';

/** Short work's threads: one core left to the main thread's voice cycle; 1 to 2. Long work has one of its own. */
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Jobs waiting per thread: every file is joined here, so a burst of ten members must fit. */
export const MAX_WAITING_AUDIO_JOBS = 64;
/** The longest part (a few thousand characters, a few minutes of audio) takes a few seconds; past this it is stuck. */
const JOB_TIMEOUT_MS = 60_000;
/**
 * A scene's limit: the longest (600 s) from 48 kHz MP3 lines to MP3 took 14.7 s here, so 120 s leaves eight times that
 * for a slower machine. Long work counts CPU time under a wall-clock ceiling (../../workers/job-thread.ts).
 */
export const SCENE_JOB_TIMEOUT_MS = 120_000;
/** Jobs one server may have under way or waiting, over every thread; the rest of the queue stays for the others. */
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

/** `bytes` handed over: shared memory as is, an `own` whole buffer moved (detached), else copied once. */
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

/** A part as the worker gets it: bytes (handOver) or shared blocks (../../workers/byte-blocks.ts) read in place. */
function handPart(part: Uint8Array | OwnBlocks, transfer: ArrayBuffer[], own = false): HandedPart {
  return part instanceof Uint8Array ? handOver(part, transfer, own) : part.blocks;
}

/** The bytes a part's format is told by: its first block's, or its own. */
function headOf(part: Uint8Array | OwnBlocks): Uint8Array {
  const first = part instanceof Uint8Array ? part : part.blocks[0];
  return first === undefined ? new Uint8Array(0) : first.subarray(0, SNIFF_BYTES);
}

/** One part with speed and volume applied, in shared memory; UnsupportedAudioError, ClipError or AudioBusyError. */
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

/** A part's length against `limitSeconds` (../../analysis/clip-probe.ts), read off the main thread. Short work. */
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

/** A part as a file of its own (sizes exact, cut frame dropped) and its length; classed by bytes copied. */
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
 * A request's parts (WAV or MP3) as one file of `format` with exact sizes and its duration; classed by bytes copied,
 * and where a part is of another format (WAV made MP3) by the seconds encoded too.
 */
export async function joinPartsOffThread(
  parts: ReadonlyArray<Uint8Array | OwnBlocks>,
  format: EditableFormat,
  owner: AudioJobOwner = {},
): Promise<{ data: Buffer; seconds: number }> {
  const bytes = parts.reduce((sum, part) => sum + partLength(part), 0);
  const encodes = parts.some((part) => detectAudioFormat(headOf(part)) !== format);
  const seconds = encodes ? parts.reduce((sum, part) => sum + partSeconds(part), 0) : 0;
  const transfer: ArrayBuffer[] = [];
  const handed = parts.map((part) => handPart(part, transfer));
  const workClass = workClassOf({ bytes, seconds });
  const reply = edited(await run(workClass, { kind: 'join', parts: handed, format }, transfer, owner));
  return { data: Buffer.from(reply.data), seconds: reply.seconds ?? 0 };
}

/** A scene as the mix takes it: each part bytes (handed over as below) or the shared blocks it was gathered in. */
interface SceneJobInput extends Omit<SceneMixInput, 'lines'> {
  lines: Array<Omit<SceneMixInput['lines'][number], 'parts'> & { parts: Array<Uint8Array | OwnBlocks> }>;
}

/** What mixing a scene costs: seconds decoded (../../analysis/part-seconds.ts, plus gaps) and bytes read. */
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
 * A scene's lines mixed as one file (../../effects/scene-mix.ts), classed by sceneCost, with SCENE_JOB_TIMEOUT_MS.
 * Parts are handed over, not copied: a whole own ArrayBuffer is moved and the caller's array detached, so pass copies
 * of bytes you keep. A scene over MAX_SCENE_SECONDS comes back cut (`cut`). Rejects with RangeError for a bad gap,
 * ClipError or UnsupportedAudioError for unusable parts, AudioBusyError.
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

/** A file made a voice message off the main thread (own buffer moved); ClipError, VoiceMessageError, AudioBusyError. */
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

/** A voice message's packets as one Ogg Opus file, off the main thread: `packets` is empty afterwards. */
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
