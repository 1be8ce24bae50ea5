// The floor for CPU per voice: what the Opus encoder alone needs per 20 ms frame at a given setting, on the main
// thread with nothing else running, encoding real speech (the test fixture, through the player's own decoding and
// resampling). Also what the decoded packets sound like: pitch and level against the source, the numbers a
// listening check would start from.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import opus from '@discordjs/opus';
import { dominantPitchHz, rmsDbfs } from '../src/core/audio/analysis/analysis.ts';
import { DecodeTo48kStream } from '../src/core/audio/codecs/decode-stream.ts';
import { createNativeEncoder, encoderSpec, type OpusSettings } from '../src/core/audio/codecs/opus-settings.ts';
import { WavStreamDecoder } from '../src/core/audio/codecs/wav.ts';

const SPEECH = new URL('../fixtures/audio/speech-en-24k-mono.wav', import.meta.url);
const REPEATS = 5;

export interface EncoderFloor {
  channels: 1 | 2;
  /** CPU per 20 ms frame, encoding only. */
  usPerFrame: number;
  /** usPerFrame / 20 ms: the share of one core a real-time voice needs for encoding alone. */
  corePctPerVoice: number;
  kbps: number;
  pitchHz: number | undefined;
  levelDb: number;
  source: { pitchHz: number | undefined; levelDb: number };
}

async function pcm(choose: (source: 1 | 2) => 1 | 2): Promise<{ bytes: Buffer; channels: 1 | 2 }> {
  const decode = new DecodeTo48kStream(new WavStreamDecoder(), choose);
  const bytes = Buffer.concat(
    (await Readable.from([readFileSync(SPEECH)])
      .pipe(decode)
      .toArray()) as Buffer[],
  );
  return { bytes, channels: decode.channels };
}

/** The left channel (or the only one) as floats. */
function left(bytes: Buffer, channels: number): Float32Array {
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  const out = new Float32Array(samples.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = (samples[i * channels] ?? 0) / 32768;
  return out;
}

export async function measureEncoderFloor(settings: Readonly<OpusSettings>): Promise<EncoderFloor> {
  const { bytes, channels } = await pcm((source) => encoderSpec(settings, source).channels);
  const frameBytes = 960 * channels * 2;
  const frames: Buffer[] = [];
  for (let at = 0; at + frameBytes <= bytes.length; at += frameBytes) frames.push(bytes.subarray(at, at + frameBytes));
  const spec = encoderSpec(settings, channels);
  let packets: Buffer[] = [];
  let cpuUs = 0;
  for (let r = 0; r < REPEATS; r++) {
    const encoder = createNativeEncoder(spec);
    const before = process.cpuUsage();
    const out = frames.map((f) => encoder.encode(f));
    const used = process.cpuUsage(before);
    cpuUs += used.user + used.system;
    packets = out;
  }
  const usPerFrame = cpuUs / (REPEATS * frames.length);
  // Decoded as Discord's clients do: a stereo decoder, whatever the packets carry.
  const decoder = new opus.OpusEncoder(48_000, 2);
  const decoded = Buffer.concat(packets.map((p) => decoder.decode(p)));
  const heard = left(decoded, 2);
  const source = left(bytes, channels);
  return {
    channels,
    usPerFrame,
    corePctPerVoice: (usPerFrame / 20_000) * 100,
    kbps: (packets.reduce((sum, p) => sum + p.length, 0) * 8) / (packets.length * 0.02) / 1000,
    pitchHz: dominantPitchHz(heard, 48_000),
    levelDb: rmsDbfs(heard),
    source: { pitchHz: dominantPitchHz(source, 48_000), levelDb: rmsDbfs(source) },
  };
}
