// Format detection from the leading bytes. Content types lie, so the bytes are the only evidence used.
import { startsWith } from './bytes.ts';
import { findFirstMpegFrame, parseMpegFrameHeader, skipId3v2 } from './mpeg.ts';

export type AudioFormat = 'wav' | 'mp3' | 'ogg' | 'flac' | 'm4a';

/** Leading bytes detection wants (an ID3v2 tag and two MP3 frames): small, as a slow body waits for them. */
export const SNIFF_BYTES = 1024;

/** The format of an audio file from its first bytes (pass up to SNIFF_BYTES); undefined if it is not audio. */
export function detectAudioFormat(head: Uint8Array): AudioFormat | undefined {
  if ((startsWith(head, 0, 'RIFF') || startsWith(head, 0, 'RF64')) && startsWith(head, 8, 'WAVE')) return 'wav';
  if (startsWith(head, 0, 'OggS')) return 'ogg';
  if (startsWith(head, 0, 'fLaC')) return 'flac';
  if (startsWith(head, 4, 'ftyp')) return 'm4a';

  const afterTags = skipId3v2(head);
  if (afterTags > 0) {
    // The tag runs past what we were given: a well-formed ID3v2 header is evidence enough.
    if (afterTags >= head.length) return 'mp3';
    if (startsWith(head, afterTags, 'fLaC')) return 'flac'; // FLAC files are sometimes ID3-tagged too
    // Some writers leave a little padding or junk after the tag: look a short way for the frame.
    return findFirstMpegFrame(head, afterTags, 512) ? 'mp3' : undefined;
  }
  return isBareMpegStart(head) ? 'mp3' : undefined;
}

/** An untagged MP3 starts at a frame sync; Layer II/III only (a UTF-16 BOM reads as Layer I). */
function isBareMpegStart(head: Uint8Array): boolean {
  const header = parseMpegFrameHeader(head, 0);
  if (!header || header.layer === 1) return false;
  if (header.frameLength === undefined) return true;
  // When the next frame is within reach, it must be there too.
  if (header.frameLength + 4 > head.length) return true;
  const next = parseMpegFrameHeader(head, header.frameLength);
  return next !== undefined && next.layer === header.layer && next.sampleRate === header.sampleRate;
}
