// A clip whose audio stopped coming before its end: the voice output ended it once nothing came for MAX_MISSED_FRAMES
// slots (library-sender.ts), or its stream closed, neither ended nor failed. Not spoken: what its source would have
// said (the Voice API client's body-idle timeout, as long as the output's wait) may come later than that, or never,
// and is not waited for (src/core/voice/guild-player.ts).

export class AudioStalledError extends Error {
  /** `secondsHeard`: what went out before it stopped coming (the playback result carries it too). */
  constructor(secondsHeard: number) {
    super(`the audio stopped arriving after ${secondsHeard.toFixed(1)} s, before its end`);
    this.name = 'AudioStalledError';
  }
}
