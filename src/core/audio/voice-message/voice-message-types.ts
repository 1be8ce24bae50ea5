/** What a voice message needs: the file and the attachment's `duration_secs` and `waveform`. */
export interface VoiceMessage {
  /** Ogg Opus, 48 kHz, one channel; pages with CRCs, OpusHead with the pre-skip, granules true to the samples. */
  ogg: Buffer;
  /** The audio's length as players decode it (granule position minus pre-skip), in seconds. */
  durationSecs: number;
  /** base64 of 1..256 loudness bytes, one per ~100 ms (fewer, longer buckets beyond 25.6 s). */
  waveform: string;
  /** The attachment's own words (its alt text): the credit an engine's voice asks for (`VOICEVOX:<speaker>`). */
  description?: string | undefined;
}
