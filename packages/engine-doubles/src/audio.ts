// The doubles' audio: a sine at a voice's pitch as PCM16, written as WAV (exact sizes, or left unknown as a streaming
// writer leaves them) or MP3 (lamejs). Written here, sharing nothing with SayBot's audio code, so that a bug on one
// side of a test cannot hide on the other.
import { Mp3Encoder } from '@breezystack/lamejs';

const FADE_SECONDS = 0.01;

export interface Tone {
  pitchHz: number;
  seconds: number;
  /** Peak level, 0..1 of full scale (more is clipped to 1). */
  amplitude: number;
  sampleRate: number;
}

/** A sine with raised-cosine fades at both ends, so that the audio starts and stops without a click. */
export function toneSamples({ pitchHz, seconds, amplitude, sampleRate }: Tone): Int16Array {
  const length = Math.max(0, Math.round(seconds * sampleRate));
  const fade = Math.min(Math.round(FADE_SECONDS * sampleRate), Math.floor(length / 2));
  const peak = Math.min(1, Math.max(0, amplitude)) * 32767;
  const step = (2 * Math.PI * pitchHz) / sampleRate;
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    const edge = Math.min(i, length - 1 - i);
    const gain = edge < fade ? 0.5 - 0.5 * Math.cos((Math.PI * edge) / fade) : 1;
    out[i] = Math.round(peak * gain * Math.sin(step * i));
  }
  return out;
}

/** Samples scaled by `gain`, clipped to PCM16's range (VOICEVOX's volumeScale). */
export function scaled(samples: Int16Array, gain: number): Int16Array {
  if (gain === 1) return samples;
  return Int16Array.from(samples, (s) => Math.max(-32768, Math.min(32767, Math.round(s * gain))));
}

/** Each sample twice: the stereo form of mono audio (VOICEVOX's outputStereo). */
export function stereo(samples: Int16Array): Int16Array {
  const out = new Int16Array(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out[2 * i] = out[2 * i + 1] = samples[i] ?? 0;
  return out;
}

/** PCM16 little-endian bytes, as OpenAI's `pcm` format sends them (no header). */
export function pcmBytes(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] ?? 0, true);
  return out;
}

export const WAV_HEADER_BYTES = 44;

/**
 * A 44-byte PCM16 WAV header. `dataBytes` undefined leaves the RIFF and data sizes at 0xFFFFFFFF, as a synthesiser
 * streaming audio of a length it does not know yet writes them.
 */
export function wavHeader(sampleRate: number, channels: number, dataBytes: number | undefined): Uint8Array {
  const out = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, dataBytes === undefined ? 0xffffffff : 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes ?? 0xffffffff, true);
  return out;
}

/** A whole PCM16 WAV (interleaved samples when `channels` is 2). */
export function encodeWav(samples: Int16Array, sampleRate: number, channels = 1): Uint8Array {
  const data = pcmBytes(samples);
  const out = new Uint8Array(WAV_HEADER_BYTES + data.length);
  out.set(wavHeader(sampleRate, channels, data.length));
  out.set(data, WAV_HEADER_BYTES);
  return out;
}

/** The sample rates an MP3 can carry. */
export const MP3_SAMPLE_RATES: readonly number[] = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

/**
 * CBR 64 kbps mono MP3. lamejs takes about 12 ms a second of audio: the event loop gets a turn between blocks, so
 * that one long line does not hold up every other answer.
 */
export async function encodeMp3(samples: Int16Array, sampleRate: number): Promise<Uint8Array> {
  const encoder = new Mp3Encoder(1, sampleRate, 64);
  const parts: Uint8Array[] = [];
  const block = 1152 * 16;
  for (let i = 0; i < samples.length; i += block) {
    if (i > 0) await new Promise(setImmediate);
    parts.push(encoder.encodeBuffer(samples.subarray(i, i + block)));
  }
  parts.push(encoder.flush());
  // lamejs hands back Int8Arrays whatever its types say.
  return Buffer.concat(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
}

/** Samples of a PCM16 mono WAV whose data starts at byte 44 (eSpeak NG's), with its rate. */
export function wavSamples(wav: Uint8Array): { samples: Int16Array; rate: number } {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const rate = view.getUint32(24, true);
  const samples = new Int16Array(Math.max(0, (wav.length - WAV_HEADER_BYTES) >> 1));
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(WAV_HEADER_BYTES + i * 2, true);
  return { samples, rate };
}

/** Linear resampling: enough for a double whose audio is a tone or eSpeak NG's voice. */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * to) / from));
  const out = new Int16Array(length);
  const ratio = from / to;
  for (let i = 0; i < length; i++) {
    const at = i * ratio;
    const left = Math.floor(at);
    const a = samples[left] ?? 0;
    const b = samples[Math.min(left + 1, samples.length - 1)] ?? a;
    out[i] = Math.round(a + (b - a) * (at - left));
  }
  return out;
}
