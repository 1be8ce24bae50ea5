// The sandbox's MP3s: lamejs encodes them (CBR mono), and a LAME Info frame is put first here, as LAME itself writes
// one and the MP3s of real services carry (frame and byte counts, encoder delay and padding, so a reader can play
// them gapless and know their length). Written for the sandbox alone, sharing nothing with SayBot's audio code.
import { Mp3Encoder } from '@breezystack/lamejs';
import { mp3FrameAt } from './clip.ts';

/** The sample rates an MP3 can carry, lowest first. */
export const MP3_SAMPLE_RATES: readonly number[] = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

/** Where each whole frame of an MP3 starts, walking from its first byte; stops at the first byte that is none. */
export function mp3FrameStarts(mp3: Uint8Array): number[] {
  const starts: number[] = [];
  for (let at = 0; at < mp3.length;) {
    const frame = mp3FrameAt(mp3, at);
    if (frame === undefined) break;
    starts.push(at);
    at += frame.length;
  }
  return starts;
}

/**
 * CBR mono MP3 led by a LAME Info frame. lamejs takes about 12 ms a second of audio: the event loop gets a turn
 * between blocks, so one long text does not hold up every other response the sandbox is pacing.
 */
export async function encodeMp3(samples: Int16Array, sampleRate: number, kbps: number): Promise<Uint8Array> {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array[] = [];
  const block = 1152 * 16;
  for (let i = 0; i < samples.length; i += block) {
    if (i > 0) await new Promise(setImmediate);
    parts.push(encoder.encodeBuffer(samples.subarray(i, i + block)));
  }
  parts.push(encoder.flush());
  // lamejs hands back Int8Arrays whatever its types say.
  const audio = Buffer.concat(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
  const info = infoFrame(audio, samples.length);
  return info ? Buffer.concat([info, audio]) : audio;
}

/** The priming samples lamejs puts before the audio, as LAME does. */
const ENCODER_DELAY = 576;
const XING_BYTES = 4 + 4 + 4 + 4 + 100 + 4; // "Info", flags, frames, bytes, TOC, quality
const LAME_BYTES = 36;

/** The Info frame for `audio`: the first frame's header at a bitrate whose frame holds the tag, then the tag. */
function infoFrame(audio: Uint8Array, sampleCount: number): Uint8Array | undefined {
  const first = mp3FrameAt(audio, 0);
  if (first === undefined) return undefined;
  const mpeg1 = first.samples === 1152;
  const sideInfo = mpeg1 ? 17 : 9; // mono
  const needed = 4 + sideInfo + XING_BYTES + LAME_BYTES;
  const head = Uint8Array.from(audio.subarray(0, 4));
  head[2] = head[2]! & 0xfd; // no padding
  let frame = mp3FrameAt(head, 0);
  for (let index = head[2]! >> 4; (frame?.length ?? 0) < needed && index < 14;) {
    index += 1;
    head[2] = (head[2]! & 0x0f) | (index << 4);
    frame = mp3FrameAt(head, 0);
  }
  if (frame === undefined || frame.length < needed) return undefined;
  const frames = mp3FrameStarts(audio).length;
  const padding = frames * first.samples - ENCODER_DELAY - sampleCount;
  if (padding < 0 || padding > 0xfff) return undefined;

  const out = new Uint8Array(frame.length);
  out.set(head);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  let p = 4 + sideInfo;
  ascii(p, 'Info');
  view.setUint32(p + 4, 0x0f); // frames, bytes, TOC and quality present
  view.setUint32(p + 8, frames);
  view.setUint32(p + 12, frame.length + audio.length);
  for (let i = 0; i < 100; i++) out[p + 16 + i] = Math.floor((i * 256) / 100); // CBR: a straight line
  p += XING_BYTES;
  ascii(p, 'LAME3.100');
  out[p + 9] = 0x01; // revision 0, CBR
  out[p + 20] = Math.min(255, frame.kbps);
  out[p + 21] = ENCODER_DELAY >> 4;
  out[p + 22] = ((ENCODER_DELAY & 0x0f) << 4) | (padding >> 8);
  out[p + 23] = padding & 0xff;
  return out;
}
