// Types shared by the speech pipeline, the part source and the audio worker: what SayBot does to a part's audio
// after the service sent it (nothing of it is sent to the service, so none of it costs characters).

/** A member's speed and volume for one request. */
export interface AudioEffects {
  /** 0.5..2: how many times as fast as the voice speaks; the pitch stays the voice's. */
  speed: number;
  /** -20..+6 dB of gain, limited so that nothing clips (gain.ts). */
  volumeDb: number;
  /**
   * Semitones the voice is shifted by, the length kept (pitch-shift.ts); absent for none. Not a member's setting:
   * auto-read's distinct voices make more voices of a preset with it.
   */
  pitch?: number;
}
