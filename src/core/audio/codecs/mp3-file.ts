// An MP3 to post as a file: a cut last frame is dropped (decoders click on it) and a Xing/Info header's counts are
// made true (players take the duration from it).
import { u32be } from './bytes.ts';
import { findFirstMpegFrame, parseMpegFrameHeader, readVbrHeader, skipId3v2, type MpegFrameHeader } from './mpeg.ts';

/** Frames from `first` on, and where the last whole one ends. */
function walk(bytes: Uint8Array, first: number): { frames: number; end: number } {
  let offset = first;
  let frames = 0;
  for (;;) {
    const header = parseMpegFrameHeader(bytes, offset);
    if (!header || header.frameLength === undefined || offset + header.frameLength > bytes.length)
      return { frames, end: offset };
    offset += header.frameLength;
    frames++;
  }
}

/** The MP3 with a cut last frame removed and its Xing/Info counts made true; unchanged when nothing is wrong. */
export function exactMp3File(bytes: Uint8Array): Uint8Array {
  const first = findFirstMpegFrame(bytes, skipId3v2(bytes));
  if (!first) return bytes;
  const { frames, end } = walk(bytes, first.offset);
  // Something that is not a frame after the last whole one: an ID3v1/APE tag is kept, a cut frame is not.
  const tail = bytes.subarray(end);
  const cut = tail.length > 0 && tail[0] === 0xff && (tail.length < 4 || parseMpegFrameHeader(tail, 0) !== undefined);
  const out = Uint8Array.from(cut ? bytes.subarray(0, end) : bytes);
  const vbr = readVbrHeader(out, first.offset, first.header);
  if (vbr === undefined || vbr.kind === 'VBRI' || vbr.frames === undefined) return out;
  const audioFrames = frames - 1; // the Info frame itself carries no audio
  if (vbr.frames === audioFrames && !cut) return out;
  const h = first.header;
  const sideInfo = h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
  for (const at of [first.offset + 4 + sideInfo, first.offset + 6 + sideInfo]) {
    const tag = String.fromCharCode(...out.subarray(at, at + 4));
    if (tag !== 'Xing' && tag !== 'Info') continue;
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    const flags = u32be(out, at + 4);
    if (flags & 1) view.setUint32(at + 8, audioFrames, false);
    if (flags & 1 && flags & 2) view.setUint32(at + 12, (cut ? end : out.length) - first.offset, false);
    break;
  }
  return out;
}

/** Where a part's audio frames lie: after its ID3v2 tag and Info frame, up to its last whole frame. */
function audioFrames(bytes: Uint8Array): { header: MpegFrameHeader; start: number; end: number } | undefined {
  const first = findFirstMpegFrame(bytes, skipId3v2(bytes));
  if (!first) return undefined;
  const vbr = readVbrHeader(bytes, first.offset, first.header);
  const info = vbr !== undefined && vbr.kind !== 'VBRI' && first.header.frameLength !== undefined;
  return {
    header: first.header,
    start: info ? first.offset + (first.header.frameLength ?? 0) : first.offset,
    end: walk(bytes, first.offset).end,
  };
}

/**
 * One request's parts as one MP3, frame by frame (no re-encoding): the first with its tags (counts made true by
 * exactMp3File), the others' audio frames only, each keeping its priming (~50 ms: a pause at the split). Undefined
 * when the streams differ (version, layer, rate, channels); the caller then re-encodes.
 */
export function joinMp3Files(parts: readonly Uint8Array[]): Uint8Array | undefined {
  const found = parts.map(audioFrames);
  const first = found[0];
  if (!first || found.some((f) => f === undefined)) return undefined;
  const same = (h: MpegFrameHeader) =>
    h.version === first.header.version &&
    h.layer === first.header.layer &&
    h.sampleRate === first.header.sampleRate &&
    h.channels === first.header.channels;
  if (found.some((f) => f !== undefined && !same(f.header))) return undefined;
  const pieces = found.map((f, i) => (parts[i] as Uint8Array).subarray(i === 0 ? 0 : (f?.start ?? 0), f?.end ?? 0));
  const joined = new Uint8Array(pieces.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return exactMp3File(joined);
}
