// A flight's mechanics, deciding nothing: identical work under way joined (SingleFlight), a part looked up in the cache,
// and audio read into packets by every identical request and cached once it came whole (filled). Who leads a flight,
// who waits for it and who saves: src/core/sourcing/part-source.ts.
import { AudioFill, type CachedAudio, type PartAudio } from '../cache/audio-fill.ts';
import type { AudioCache } from '../cache/audio-cache.ts';
import type { OpusSettings } from '../audio/codecs/opus-settings.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** Where parts are kept: what the changed parts write to. */
export interface PartStore {
  cache: AudioCache | undefined;
  metrics: Pick<Metrics, 'cacheLookup'> | undefined;
  log: Logger;
  encoding: Readonly<OpusSettings>;
}

/** A cached part, counted as a hit or a miss. */
export async function lookUp(store: PartStore, key: string, voiceId: string): Promise<CachedAudio | undefined> {
  const hit = await store.cache?.get(key, voiceId);
  if (store.cache) store.metrics?.cacheLookup(hit ? 'hit' : 'miss');
  return hit;
}

/** `audio` read into packets for every identical request, and cached under `key` once it came whole. */
export function filled(
  store: PartStore,
  audio: ConstructorParameters<typeof AudioFill>[0],
  key: string,
  voiceId: string,
  generation: number,
): FlightAudio {
  const fill = new AudioFill(audio, store.encoding);
  const done = fill.complete.then(
    (entry) => store.cache?.put(key, voiceId, entry, generation),
    (error: unknown) => store.log.debug({ err: error, key }, 'part not cached: its audio did not arrive whole'),
  );
  return { part: () => fill.part(), done, whole: fill.complete };
}

/** A part's audio, read by every identical request, and when it is over (cached, its spend settled). */
export interface FlightAudio {
  part(): PartAudio;
  done: Promise<unknown>;
  /** Rejects when its audio did not come whole (a body that broke); absent: it is whole already. */
  whole?: Promise<unknown>;
}

/** Identical work under way is joined, not started again, until `settled` settles: ten requests, one call. */
export class SingleFlight<T> {
  readonly #flights = new Map<string, T>();

  /** The flight under way for `key`, to join. */
  get(key: string): T | undefined {
    return this.#flights.get(key);
  }

  /** `value` is the flight for `key` until `over` settles (failures are the caller's). */
  lead(key: string, value: T, over: Promise<unknown>): void {
    this.#flights.set(key, value);
    const done = () => this.forget(key, value);
    void over.then(done, done);
  }

  /** Joins the flight for `key`, or starts one; `settled(value)` says when it is over (failures are the caller's). */
  join(key: string, start: () => T, settled: (value: T) => Promise<unknown>): { value: T; leader: boolean } {
    const current = this.#flights.get(key);
    if (current !== undefined) return { value: current, leader: false };
    const value = start();
    this.lead(key, value, settled(value));
    return { value, leader: true };
  }

  /** Forgets `value` before it settles (its starter gave it up): the next asker starts afresh. */
  forget(key: string, value: T): void {
    if (this.#flights.get(key) === value) this.#flights.delete(key);
  }

  values(): T[] {
    return [...this.#flights.values()];
  }
}
