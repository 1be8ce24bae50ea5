// MP3 encoding (lamejs): the sandbox's responses, and the bot's own audio where it changes a part (speed, volume)
// or joins parts that cannot be joined frame by frame. Each file is led by a LAME Info frame, as LAME writes it.
import { Mp3Encoder } from '@breezystack/lamejs';
import { parseMpegFrameHeader, walkMpegFrames } from './mpeg.ts';
import { nextSlice } from '../workers/slices.ts';

function ascii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

/** CBR mono MP3 (lamejs) led by a LAME Info frame, at MPEG_SAMPLE_RATES; yields between blocks (slices). */
export async function encodeMp3(samples: Int16Array, sampleRate: number, kbps: number): Promise<Uint8Array> {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array[] = [];
  const block = 1152 * 16;
  for (let i = 0; i < samples.length; i += block) {
    if (i > 0) await nextSlice();
    parts.push(encoder.encodeBuffer(samples.subarray(i, i + block)));
  }
  parts.push(encoder.flush());
  // lamejs hands back Int8Arrays whatever its types say.
  const audio = Buffer.concat(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
  const info = lameInfoFrame(audio, samples.length);
  return info ? Buffer.concat([info, audio]) : audio;
}

/** The priming samples lamejs puts before the audio, as LAME does. */
const ENCODER_DELAY = 576;
const XING_BYTES = 4 + 4 + 4 + 4 + 100 + 4; // "Info", flags, frames, bytes, TOC, quality
const LAME_BYTES = 36;

/** The Info frame LAME writes (and lamejs does not): counts, delay and padding, for gapless exact-length playback. */
function lameInfoFrame(audio: Uint8Array, sampleCount: number): Uint8Array | undefined {
  const first = parseMpegFrameHeader(audio, 0);
  if (!first) return undefined;
  const sideInfo = first.version === 1 ? 17 : 9; // mono
  const needed = 4 + sideInfo + XING_BYTES + LAME_BYTES;
  // The first frame's header without its padding bit; at a higher bitrate where the frame is too small for the tag.
  const head = Uint8Array.from(audio.subarray(0, 4));
  head[2] = (head[2] as number) & 0xfd;
  let length = first.frameLength ?? 0;
  for (let index = (head[2] as number) >> 4; length < needed && index < 14;) {
    index += 1;
    head[2] = ((head[2] as number) & 0x0f) | (index << 4);
    length = parseMpegFrameHeader(head, 0)?.frameLength ?? 0;
  }
  if (length < needed) return undefined;
  const frames = walkMpegFrames(audio, 0).frames;
  const padding = frames * first.samplesPerFrame - ENCODER_DELAY - sampleCount;
  if (padding < 0 || padding > 0xfff) return undefined;

  const frame = new Uint8Array(length);
  frame.set(head);
  const view = new DataView(frame.buffer);
  let p = 4 + sideInfo;
  ascii(view, p, 'Info');
  view.setUint32(p + 4, 0x0f, false); // frames, bytes, TOC and quality present
  view.setUint32(p + 8, frames, false);
  view.setUint32(p + 12, length + audio.length, false);
  for (let i = 0; i < 100; i++) frame[p + 16 + i] = Math.floor((i * 256) / 100); // CBR: a straight line
  p += XING_BYTES;
  ascii(view, p, 'LAME3.100');
  frame[p + 9] = 0x01; // revision 0, CBR
  frame[p + 20] = Math.min(255, first.bitrateKbps);
  frame[p + 21] = ENCODER_DELAY >> 4;
  frame[p + 22] = ((ENCODER_DELAY & 0x0f) << 4) | (padding >> 8);
  frame[p + 23] = padding & 0xff;
  return frame;
}
