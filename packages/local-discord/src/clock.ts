/**
 * Discord's own clock, by which the local Discord judges interactions (the 3 s to the first callback, the token's
 * 15 minutes): the host's monotonic time plus what a test moved it on, so a token can expire without waiting.
 */
export class DiscordClock {
  #advancedMs = 0;

  now(): number {
    return performance.now() + this.#advancedMs;
  }

  /** Discord's time moves on by `ms` (the host's does not): tokens created before now are that much older. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`FakeDiscord: the clock only moves forward (asked ${ms} ms)`);
    this.#advancedMs += ms;
  }
}
