// The `waveform` of a Discord voice message: one byte of loudness per slice of the audio, as the clients draw it.
// Loudness is measured in dB (RMS per bucket) rather than linear amplitude, so that quiet syllables still show and
// the bars look like the speech; below the floor is drawn as silence. src/core/voice-message/render.ts measures it as
// the packets are decoded; test/support/waveform.ts is the plain model the tests hold it to.

/** Discord accepts up to 256 values; clients draw about one bar per 100 ms. */
export const MAX_WAVEFORM_BYTES = 256;
export const WAVEFORM_BUCKET_SECONDS = 0.1;
/** The level drawn as an empty bar (0); 0 dBFS is a full bar (255). */
export const WAVEFORM_FLOOR_DB = -60;

/** A bucket's RMS level in dB as a waveform byte: the floor and below 0, 0 dBFS 255. */
export function levelByte(db: number): number {
  if (!(db > WAVEFORM_FLOOR_DB)) return 0; // also -Infinity (digital silence) and NaN
  return Math.min(255, Math.round(((db - WAVEFORM_FLOOR_DB) / -WAVEFORM_FLOOR_DB) * 255));
}
