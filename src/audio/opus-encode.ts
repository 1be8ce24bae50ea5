// Opus encoding for Discord: 20 ms packets of 48 kHz stereo, through prism-media (which picks @discordjs/opus
// and falls back to opusscript by itself).
import prism from 'prism-media';
import type { Transform, TransformOptions } from 'node:stream';

export const OPUS_RATE = 48000;
export const OPUS_CHANNELS = 2;
export const FRAME_SAMPLES = 960;                                 // per channel: 20 ms at 48 kHz
export const FRAME_BYTES = FRAME_SAMPLES * OPUS_CHANNELS * 2;     // s16le stereo

/**
 * How many encoded packets may wait ahead of the player (40 ms). The encoder encodes every whole frame of a
 * chunk as soon as it is written, and only then applies backpressure; with the default 16 packets (320 ms) each
 * stream encoded hundreds of milliseconds ahead in bursts, whenever its HTTP body delivered data. Streams that
 * start together burst together, and one burst of 100 streams held the event loop long enough for
 * @discordjs/voice's shared 20 ms send cycle to miss its slots for every guild (npm run bench, figure 3). Kept
 * short, and written at most a frame at a time (FRAME_BYTES below, and the decoder's frame-sized pushes), the
 * encoding happens when the player reads a packet: one frame per stream per cycle, spread evenly.
 */
export const ENCODED_AHEAD_PACKETS = 2;

/** s16le 48 kHz stereo in (any chunking; a partial frame at the end is dropped), one Opus packet per chunk out. */
export function createOpusEncoder(): Transform {
  // prism hands its options on to the Transform constructor; its typings only list the Opus ones.
  const options: TransformOptions & { rate: number; channels: number; frameSize: number } = {
    rate: OPUS_RATE,
    channels: OPUS_CHANNELS,
    frameSize: FRAME_SAMPLES,
    readableHighWaterMark: ENCODED_AHEAD_PACKETS,
    writableHighWaterMark: FRAME_BYTES,
  };
  return new prism.opus.Encoder(options);
}
