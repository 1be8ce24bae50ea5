// A WAV to post as a file: whatever header form the service streamed (sizes 0 or 0xFFFFFFFF, RF64, LIST/fact
// chunks before data, bytes after it), the file posted has one plain RIFF header with exact sizes, because
// many players (and Discord's preview) show a file with unknown sizes as empty or endless.
import { ClipError } from './errors.ts';
import { parseWavHeader } from './wav.ts';

/** The largest data chunk a plain RIFF header can describe (its size field is 32-bit, and counts the header). */
const MAX_RIFF_DATA_BYTES = 0xffff_ffff - 36 - 64;

/**
 * The same audio as a canonical WAV: `RIFF` + `fmt ` (the original chunk, copied) + `data` with its exact size,
 * cut to whole sample frames. Chunks other than fmt and data are dropped (they carry no audio). Audio too long
 * for RIFF is returned unchanged.
 */
export function exactWavFile(bytes: Uint8Array): Uint8Array {
  const parsed = parseWavHeader(bytes);
  if (!('header' in parsed)) throw new ClipError('corrupt', 'WAV header cut short');
  const { format, dataOffset, dataBytes, fmtOffset, fmtBytes } = parsed.header;
  const available = bytes.length - dataOffset;
  const usable = dataBytes === undefined ? available : Math.min(dataBytes, available);
  const data = usable - (usable % format.blockAlign);
  if (data > MAX_RIFF_DATA_BYTES) return bytes;
  const fmtChunk = 8 + fmtBytes + (fmtBytes & 1);
  const pad = data & 1;
  const out = new Uint8Array(12 + fmtChunk + 8 + data + pad);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmtBytes, true);
  out.set(bytes.subarray(fmtOffset, fmtOffset + fmtBytes), 20);
  const at = 12 + fmtChunk;
  ascii(at, 'data');
  view.setUint32(at + 4, data, true);
  out.set(bytes.subarray(dataOffset, dataOffset + data), at + 8);
  return out;
}
