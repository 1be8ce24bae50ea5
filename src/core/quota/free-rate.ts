// How often one member may ask for what costs no characters: a line in a free voice (eSpeak NG's or an engine's, one
// standing in for the paid voice too), a cache hit, another speed or volume of audio already made, a replay, a file
// made into a voice message, a scene's preview, a /usage chart. None of it spends, so neither the budgets nor the cooldown see
// it, yet each may cost a render in the audio worker and a cache entry every server shares. Counted per member per
// server in a sliding minute, in memory (a restart forgets it: nothing here is worth a store write).
import { Refusal } from '../refusal.ts';

/** Members remembered at once; past it the oldest window is dropped (it can only make a member's count smaller). */
const MAX_MEMBERS = 10_000;
const WINDOW_MS = 60_000;

export class FreeRequestRate {
  readonly #perMinute: number;
  readonly #now: () => number;
  /** When each member's recent free requests were taken, oldest first; at most `perMinute` each. */
  readonly #taken = new Map<string, number[]>();

  /** `perMinute` 0: no limit. */
  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Counts one free request of the member, or refuses it (Refusal free-rate) when their minute is full. */
  take(guildId: string, userId: string): void {
    if (this.#perMinute === 0) return;
    const key = `${guildId}:${userId}`;
    const now = this.#now();
    const times = (this.#taken.get(key) ?? []).filter((at) => now - at < WINDOW_MS);
    if (times.length >= this.#perMinute) {
      this.#taken.set(key, times);
      const oldest = times[0] ?? now;
      throw new Refusal({
        code: 'free-rate',
        limit: this.#perMinute,
        waitSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
      });
    }
    times.push(now);
    // Re-inserted: the Map's order is then the order of last use, and the first key the longest unused.
    this.#taken.delete(key);
    this.#taken.set(key, times);
    if (this.#taken.size > MAX_MEMBERS) {
      const oldest = this.#taken.keys().next();
      if (oldest.done !== true) this.#taken.delete(oldest.value);
    }
  }
}
