// Opus encoding for Discord: 20 ms packets of 48 kHz stereo, through prism-media (which picks @discordjs/opus
// and falls back to opusscript by itself).
import prism from 'prism-media';
import type { Transform } from 'node:stream';

export const OPUS_RATE = 48000;
export const OPUS_CHANNELS = 2;
export const FRAME_SAMPLES = 960;                                 // per channel: 20 ms at 48 kHz
export const FRAME_BYTES = FRAME_SAMPLES * OPUS_CHANNELS * 2;     // s16le stereo

/** s16le 48 kHz stereo in (any chunking; a partial frame at the end is dropped), one Opus packet per chunk out. */
export function createOpusEncoder(): Transform {
  return new prism.opus.Encoder({ rate: OPUS_RATE, channels: OPUS_CHANNELS, frameSize: FRAME_SAMPLES });
}
