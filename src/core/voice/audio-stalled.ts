// A clip whose audio stopped coming before its end (nothing for MAX_MISSED_FRAMES, or its stream closed unended):
// not spoken, and whatever its source would say later is not waited for (src/core/voice/guild-player.ts).

export class AudioStalledError extends Error {
  /** `secondsHeard`: what went out before it stopped coming (the playback result carries it too). */
  constructor(secondsHeard: number) {
    super(`the audio stopped arriving after ${secondsHeard.toFixed(1)} s, before its end`);
    this.name = 'AudioStalledError';
  }
}
