// A clip's length from its headers before decoding, in work bounded by the limit, not the file: a 20 MB MP3 at 8 kb/s
// holds hours. What fits is decoded afterwards (off the main thread) for exact figures.
import { ClipError } from '../errors.ts';
import { detectAudioFormat, SNIFF_BYTES } from '../codecs/format.ts';
import type { AudioFormat } from '../codecs/format.ts';
import { readMp4AudioInfo } from '../codecs/mp4.ts';
import { findFirstMpegFrame, parseMpegFrameHeader, readVbrHeader, skipId3v2 } from '../codecs/mpeg.ts';
import { parseWavHeader } from '../codecs/wav.ts';

export type ClipProbe =
  /** Longer than the limit for certain; `seconds` is exact from a header, else estimated from the frames read. */
  | { format: AudioFormat; verdict: 'over'; seconds: number }
  /** The data ends inside a frame or before its header says. */
  | { format: AudioFormat; verdict: 'truncated' }
  /** Within the limit as far as the headers tell; `seconds` when the container states it exactly (WAV, M4A). */
  | { format: AudioFormat; verdict: 'fits'; seconds?: number };

/** What the headers say of `bytes` against `limitSeconds` (Ogg, FLAC only recognised); ClipError if unusable. */
export function probeClip(bytes: Uint8Array, limitSeconds: number): ClipProbe {
  if (bytes.length === 0) throw new ClipError('empty', 'no bytes');
  const format = detectAudioFormat(bytes.subarray(0, SNIFF_BYTES));
  switch (format) {
    case 'wav':
      return probeWav(bytes, limitSeconds);
    case 'mp3':
      return probeMp3(bytes, limitSeconds);
    case 'm4a': {
      const { durationSeconds } = readMp4AudioInfo(bytes);
      return durationSeconds > limitSeconds
        ? { format, verdict: 'over', seconds: durationSeconds }
        : { format, verdict: 'fits', seconds: durationSeconds };
    }
    case 'ogg':
    case 'flac':
      return { format, verdict: 'fits' };
    case undefined:
      throw new ClipError('unsupported-format', 'not audio in a known format');
  }
}

/** The data chunk's size over the byte rate. */
function probeWav(bytes: Uint8Array, limitSeconds: number): ClipProbe {
  const parsed = parseWavHeader(bytes);
  if (!('header' in parsed)) throw new ClipError('corrupt', 'WAV header cut short');
  const { format, dataOffset, dataBytes } = parsed.header;
  const available = bytes.length - dataOffset;
  const usable = dataBytes === undefined ? available : Math.min(dataBytes, available);
  if ((dataBytes !== undefined && dataBytes > available) || usable % format.blockAlign !== 0)
    return { format: 'wav', verdict: 'truncated' };
  const seconds = Math.floor(usable / format.blockAlign) / format.sampleRate;
  return seconds > limitSeconds
    ? { format: 'wav', verdict: 'over', seconds }
    : { format: 'wav', verdict: 'fits', seconds };
}

/** Walks frame headers until past the limit (LAME delay allowed for); Xing/Info/VBRI gives the exact length. */
function probeMp3(bytes: Uint8Array, limitSeconds: number): ClipProbe {
  const first = findFirstMpegFrame(bytes, skipId3v2(bytes));
  if (!first) throw new ClipError('corrupt', 'no MPEG audio frame found');
  const { header } = first;
  const vbr = readVbrHeader(bytes, first.offset, header);
  const trim = (vbr?.encoderDelay ?? 0) + (vbr?.encoderPadding ?? 0);
  const spf = header.samplesPerFrame;
  const limitSamples = limitSeconds * header.sampleRate + trim;
  // The tag frame holds no audio.
  let offset = first.offset + (vbr && header.frameLength !== undefined ? header.frameLength : 0);
  const audioStart = offset;
  let frames = 0;
  while (offset < bytes.length) {
    const frame = parseMpegFrameHeader(bytes, offset);
    if (!frame) {
      // Under 4 bytes that start like a header: a cut header. Otherwise tags or junk, which the decoder measures.
      return bytes.length - offset < 4 && bytes[offset] === 0xff
        ? { format: 'mp3', verdict: 'truncated' }
        : { format: 'mp3', verdict: 'fits' };
    }
    if (frame.frameLength === undefined) return { format: 'mp3', verdict: 'fits' }; // free format: the decoder measures it
    if (offset + frame.frameLength > bytes.length) return { format: 'mp3', verdict: 'truncated' };
    offset += frame.frameLength;
    frames++;
    if (frames * spf > limitSamples) {
      const seconds =
        vbr?.frames !== undefined && vbr.frames >= frames
          ? (vbr.frames * spf - trim) / header.sampleRate
          : (((frames * (bytes.length - audioStart)) / (offset - audioStart)) * spf) / header.sampleRate;
      return { format: 'mp3', verdict: 'over', seconds };
    }
  }
  return { format: 'mp3', verdict: 'fits' };
}
