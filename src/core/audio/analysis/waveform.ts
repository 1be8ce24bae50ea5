// A voice message's `waveform`: one loudness byte per slice, in dB so quiet syllables show. Measured as packets are
// decoded (src/core/voice-message/render.ts); test/support/waveform.ts is the model the tests hold it to.

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
