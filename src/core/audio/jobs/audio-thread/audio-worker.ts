// The worker thread of audio-thread.ts: effects, probes, files, joins, mixes and voice messages, a job at a time.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type OpusScriptType from 'opusscript';
import type { AudioJob, AudioJobReply, HandedBytes, HandedPart } from './audio-thread-protocol.ts';
import { probeClip } from '../../analysis/clip-probe.ts';
import { analyseClip } from '../../analysis/clip.ts';
import type { AudioFormat } from '../../codecs/format.ts';
import { exactMp3File } from '../../codecs/mp3-file.ts';
import { exactWavFile } from '../../codecs/wav-file.ts';
import { applyEffects, joinParts } from '../../effects/effects.ts';
import { ClipError, UnsupportedAudioError, VoiceMessageError } from '../../errors.ts';
import { mixScene } from '../../effects/scene-mix.ts';
import { writeOggOpus } from '../../codecs/ogg-opus-writer.ts';
import { PacketFrames, packetViews } from '../../codecs/packet-frames.ts';
import { Transcode } from '../transcode/transcode-batch.ts';
import type { TranscodeSpec } from '../transcode/transcode-protocol.ts';
import { ownWorkClass, yieldToMainThread } from '../../workers/thread-priority.ts';
import { nextSlice, serveJobs } from '../../workers/slices.ts';
import { PacketMeter } from '../../voice-message/packet-meter.ts';

yieldToMainThread();

/** The bytes of `view` as an ArrayBuffer of their own, to transfer back without a copy where possible. */
function own(view: Uint8Array): ArrayBuffer {
  if (view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer)
    return view.buffer;
  return Uint8Array.from(view).buffer;
}

/** Handed bytes as a view: a shared view as it is, a transferred buffer whole. */
const view = (bytes: HandedBytes): Uint8Array => (bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));

/** A part as one view: the blocks it was gathered in joined here, in the worker (one block is read as it is). */
const joined = (part: HandedPart): Uint8Array =>
  Array.isArray(part) ? (part.length === 1 && part[0] ? part[0] : Buffer.concat(part)) : view(part);

/** `data` in shared memory: a changed part is read by every identical request, cached, maybe mixed, never copied. */
function shared(data: Uint8Array): SharedArrayBuffer {
  const out = new SharedArrayBuffer(data.byteLength);
  new Uint8Array(out).set(data);
  return out;
}

/** The bytes as a file every player reads: exact WAV sizes whatever header was streamed, no cut MP3 frame. */
const exactFile = (format: AudioFormat, bytes: Uint8Array): Uint8Array =>
  format === 'wav' ? exactWavFile(bytes) : format === 'mp3' ? exactMp3File(bytes) : bytes;

/** Bytes decoded and encoded between two looks at the slice's time: a third of a second of 24 kHz WAV. */
const OPUS_SLICE_BYTES = 16 * 1024;

/** A file's Opus packets, a slice of its bytes at a time (a long one gives turns back between them). */
async function opusPackets(bytes: Uint8Array, spec: TranscodeSpec): Promise<PacketFrames> {
  // This thread may be ended mid-job: inside the native addon that aborts the process, so it encodes with opusscript.
  const transcode = new Transcode({ ...spec, encoder: { ...spec.encoder, backend: 'wasm' } });
  const frames = new PacketFrames();
  try {
    for (let at = 0; at < bytes.length; at += OPUS_SLICE_BYTES) {
      for (const packet of await transcode.write(bytes.subarray(at, at + OPUS_SLICE_BYTES))) frames.add(packet);
      await nextSlice();
    }
    for (const packet of transcode.end()) frames.add(packet);
  } finally {
    transcode.free();
  }
  return frames;
}

/** Packets measured between two looks at the slice's time: a second of audio. */
const METER_SLICE_PACKETS = 50;

/** A file as a voice message, all here (packets, length, waveform, Ogg) with opusscript: a scene is 30,000 packets. */
async function voiceMessage(bytes: Uint8Array, spec: TranscodeSpec) {
  const OpusScript = createRequire(import.meta.url)('opusscript') as typeof OpusScriptType;
  const decoder = new OpusScript(48_000, 1, OpusScript.Application.AUDIO);
  try {
    const meter = new PacketMeter(decoder);
    let count = 0;
    for (const packet of packetViews((await opusPackets(bytes, spec)).take())) {
      meter.add(packet);
      if (++count % METER_SLICE_PACKETS === 0) await nextSlice();
    }
    const { packets, options, durationSecs, waveform } = meter.done();
    return { ogg: own(writeOggOpus(packetViews(packets.take()), options)), durationSecs, waveform };
  } finally {
    decoder.delete();
  }
}

async function handle(job: AudioJob): Promise<{ reply: AudioJobReply; transfer: ArrayBuffer[] }> {
  try {
    if (job.kind === 'effects') {
      const { format, data } = await applyEffects(joined(job.data), job.effects);
      return { reply: { id: job.id, ok: true, format, data: shared(data) }, transfer: [] };
    }
    if (job.kind === 'file') {
      const data = exactFile(job.format, joined(job.part));
      const { durationSeconds: seconds } = await analyseClip(data);
      const file = own(data);
      return { reply: { id: job.id, ok: true, file, seconds }, transfer: [file] };
    }
    if (job.kind === 'probe')
      return { reply: { id: job.id, ok: true, probe: probeClip(joined(job.part), job.limitSeconds) }, transfer: [] };
    if (job.kind === 'ogg') {
      const ogg = own(writeOggOpus(packetViews(job.packets), job.options));
      return { reply: { id: job.id, ok: true, ogg }, transfer: [ogg] };
    }
    if (job.kind === 'voice-message') {
      const made = await voiceMessage(joined(job.file), job.spec);
      return { reply: { id: job.id, ok: true, voiceMessage: made }, transfer: [made.ogg] };
    }
    if (job.kind === 'scene') {
      const lines = [];
      for (const line of job.lines) {
        lines.push({ ...line, parts: line.parts.map(joined) });
        await nextSlice();
      }
      const {
        data,
        format,
        seconds,
        cut,
        sampleRate,
        lines: times,
        loudness,
      } = await mixScene({ lines, format: job.format });
      const buffer = own(data);
      const scene = { cut, sampleRate, lines: times, loudness };
      return { reply: { id: job.id, ok: true, format, data: buffer, seconds, scene }, transfer: [buffer] };
    }
    const { data, seconds } = await joinParts(job.parts.map(joined), job.format);
    const buffer = own(data);
    return { reply: { id: job.id, ok: true, format: job.format, data: buffer, seconds }, transfer: [buffer] };
  } catch (error) {
    const reply: AudioJobReply = {
      id: job.id,
      ok: false,
      code: error instanceof ClipError ? error.code : undefined,
      unsupported: error instanceof UnsupportedAudioError,
      range: error instanceof RangeError,
      ...(error instanceof VoiceMessageError ? { voiceMessage: error.code } : {}),
      message: error instanceof Error ? error.message : String(error),
    };
    return { reply, transfer: [] };
  }
}

// Long work runs in slices: a scene's mix gives a turn back between its steps (nextSlice), short work waiting first.
if (parentPort) serveJobs<AudioJob, AudioJobReply>(parentPort, handle, ownWorkClass() === 'long');
