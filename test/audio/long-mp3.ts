// MP3s far longer than any reference clip, made here rather than stored: a 20 MB file at 8 kb/s holds hours.
import { Mp3Encoder } from '@breezystack/lamejs';
import { sine } from './fixtures.ts';

/** 10 s of a 220 Hz tone, MPEG-2.5 layer III at 8 kHz, 8 kb/s CBR, no Xing/Info tag (72-byte frames). */
function tenSeconds(): Buffer {
  const encoder = new Mp3Encoder(1, 8_000, 8);
  const samples = Int16Array.from(sine(220, 10, 8_000), (s) => Math.round(s * 32767));
  // lamejs hands back Int8Arrays whatever its types say.
  const parts = [encoder.encodeBuffer(samples), encoder.flush()].map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
  return Buffer.concat(parts);
}

/**
 * About `bytes` of 8 kb/s MP3: the same 10 s stream again and again (each copy starts its own bit reservoir, so
 * every frame decodes). 20 MB is about 5.8 hours.
 */
export function longMp3(bytes: number): Buffer {
  const block = tenSeconds();
  return Buffer.concat(Array.from({ length: Math.max(1, Math.floor(bytes / block.length)) }, () => block));
}

/**
 * `head` seconds of frames, then bytes that are not a frame, then hours more frames: a header walk stops at the
 * junk, a decoder resynchronises past it. Only the decoder's own limit bounds such a clip.
 */
export function mp3WithHiddenHours(head: number, bytes: number): Buffer {
  const block = tenSeconds();
  const frames = Math.floor((head * 8_000) / 576);
  return Buffer.concat([block.subarray(0, frames * 72), Buffer.from('JUNKJUNKJUNK'), longMp3(bytes)]);
}
