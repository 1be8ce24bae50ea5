// Hearing a voice message as a Discord client plays it: demux the Ogg, decode with as many channels as OpusHead
// says, drop the pre-skip, stop at the final granule. Independent of the renderer's own decoding.
import { Readable } from 'node:stream';
import opus from '@discordjs/opus';
import { dominantPitchHz } from '../../../src/core/audio/analysis/analysis.ts';
import { readOggInfo } from '../../../src/core/audio/codecs/ogg.ts';
import { OggOpusPacketStream } from '../../../src/core/audio/codecs/ogg-opus-stream.ts';

export interface HeardVoiceMessage {
  channels: number;
  preSkip: number;
  /** What a player outputs, mono (or the first channel), -1..1. */
  samples: Float32Array;
  seconds: number;
  /** The duration the file declares (final granule minus pre-skip). */
  declaredSeconds: number;
  pitchHz: number | undefined;
  packets: Buffer[];
}

export async function hearVoiceMessage(ogg: Buffer): Promise<HeardVoiceMessage> {
  const info = readOggInfo(ogg);
  const head = ogg.subarray(28, 28 + 19); // the first page holds OpusHead alone: 27-byte header, 1 lacing value
  if (head.toString('latin1', 0, 8) !== 'OpusHead') throw new Error('no OpusHead on the first page');
  const channels = head.readUInt8(9);
  const preSkip = head.readUInt16LE(10);
  const packets: Buffer[] = [];
  for await (const packet of Readable.from([ogg]).pipe(new OggOpusPacketStream())) packets.push(packet as Buffer);
  const decoder = new opus.OpusEncoder(48000, channels);
  const pcm = Buffer.concat(packets.map((packet) => decoder.decode(packet)));
  const all = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
  const frames = Math.round(info.durationSeconds * 48000);
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = (all[(preSkip + i) * channels] ?? 0) / 32768;
  return {
    channels,
    preSkip,
    samples,
    seconds: frames / 48000,
    declaredSeconds: info.durationSeconds,
    pitchHz: dominantPitchHz(samples, 48000),
    packets,
  };
}

/** Where the sound ends: the last 1 ms window above -40 dBFS, in seconds from the start. */
export function audibleEndSeconds(samples: Float32Array, sampleRate = 48000): number {
  const window = sampleRate / 1000;
  for (let end = samples.length; end > 0; end -= window) {
    let sum = 0;
    for (let i = Math.max(0, end - window); i < end; i++) sum += (samples[i] ?? 0) ** 2;
    if (10 * Math.log10(sum / window) > -40) return end / sampleRate;
  }
  return 0;
}

/** The Ogg pages' header flags in order (BOS 2 first, EOS 4 last). */
export function pageFlags(ogg: Buffer): number[] {
  const flags: number[] = [];
  for (let at = 0; at + 27 <= ogg.length;) {
    const segments = ogg.readUInt8(at + 26);
    let body = 0;
    for (let i = 0; i < segments; i++) body += ogg.readUInt8(at + 27 + i);
    flags.push(ogg.readUInt8(at + 5));
    at += 27 + segments + body;
  }
  return flags;
}
