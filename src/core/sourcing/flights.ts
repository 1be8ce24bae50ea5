// A flight's mechanics: identical work under way joined (SingleFlight), who still waits for it (Waiters: nobody, and
// its paid request is never sent nor paid), a part looked up in the cache, and audio read into packets by every
// identical request and cached once it came whole (filled). Who leads a flight and who saves: part-source.ts.
import { unwanted } from '../quota/paid-call.ts';
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

/** A part's audio, read by every identical request, and when it is over (cached, its spend finished). */
export interface FlightAudio {
  part(): PartAudio;
  done: Promise<unknown>;
  /** Rejects when its audio did not come whole (a body that broke); absent: it is whole already. */
  whole?: Promise<unknown>;
}

/** Identical work under way is joined, not started again, until it is over: ten requests, one call. */
export class SingleFlight<T> {
  readonly #flights = new Map<string, T>();

  /** The flight under way for `key`, to join. */
  get(key: string): T | undefined {
    return this.#flights.get(key);
  }

  /** `value` is the flight for `key` until `over` ends (failures are the caller's). */
  lead(key: string, value: T, over: Promise<unknown>): void {
    this.#flights.set(key, value);
    const done = () => this.forget(key, value);
    void over.then(done, done);
  }

  /** Joins the flight for `key`, or starts one; `over(value)` ends it (failures are the caller's). */
  join(key: string, start: () => T, over: (value: T) => Promise<unknown>): { value: T; leader: boolean } {
    const current = this.#flights.get(key);
    if (current !== undefined) return { value: current, leader: false };
    const value = start();
    this.lead(key, value, over(value));
    return { value, leader: true };
  }

  /** Forgets `value` before it is over (its starter gave it up): the next asker starts afresh. */
  forget(key: string, value: T): void {
    if (this.#flights.get(key) === value) this.#flights.delete(key);
  }

  values(): T[] {
    return [...this.#flights.values()];
  }
}

// Who waits for a paid call (a flight's, a clone's) or an engine's line, what paidCall asks as its `Waiting`. Let go
// of by all before it left, its paid request is never sent nor paid; after it left, before any answer, it is closed
// (`letGo`), kept as maybe charged; once answered, it is read and kept.
export class Waiters {
  readonly #signals = new Set<AbortSignal>();
  readonly #forget: () => void;
  readonly #letGo = new AbortController();
  #calling = false;
  #closed = false;
  /** Its voice was deleted (PartSource.purgeVoice): nobody is to hear it, so it is never sent, or closed as a stop. */
  #gone = false;

  /** `forget`: takes the flight out of those under way, so nobody joins one that will not be sent. */
  constructor(forget: () => void) {
    this.#forget = forget;
  }

  /** Aborted once everyone let go of its call under way (a paid call, an engine's request). */
  get letGo(): AbortSignal {
    return this.#letGo.signal;
  }

  join(signal: AbortSignal): void {
    this.#signals.add(signal);
    if (this.#closed) return;
    if (signal.aborted) this.#lettingGo();
    else signal.addEventListener('abort', this.#lettingGo, { once: true });
  }

  wanted(): boolean {
    if (!this.#gone && this.#waits()) return true;
    this.#forget();
    return false;
  }

  gone(): void {
    this.#gone = true;
    if (this.#calling) this.#letGo.abort(unwanted());
  }

  /** Its call leaves now: let go of by everyone from here, it is cut if it may be. */
  calling(): void {
    if (!this.#closed) this.#calling = true;
  }

  /** Its answer began (or it is over): read to its end from here, whoever lets go of it. */
  close(): void {
    this.#closed = true;
    this.#calling = false;
    for (const signal of this.#signals) signal.removeEventListener('abort', this.#lettingGo);
  }

  #waits(): boolean {
    for (const signal of this.#signals) if (!signal.aborted) return true;
    return false;
  }

  /** Once nobody waits, its call is let go of, and the flight forgotten (a later caller starts anew). */
  readonly #lettingGo = (): void => {
    if (!this.#calling || this.#waits()) return;
    this.#letGo.abort(unwanted());
    this.#forget();
  };
}
