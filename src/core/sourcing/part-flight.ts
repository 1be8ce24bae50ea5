// What the part source (src/core/sourcing/part-source.ts) and its helpers beside it share: a part's audio, a fetch
// shared by identical requests (a flight, SingleFlight: one call for identical work under way), where a part is kept, and the small rules every path follows.
import type { Readable } from 'node:stream';
import type { AudioResponse, CallControl } from '../api/client.ts';
import { AbortedError } from '../api/errors.ts';
import type { OpusSettings } from '../audio/codecs/opus-settings.ts';
import type { PartAudio } from '../cache/audio-fill.ts';
import type { AudioCache } from '../cache/audio-cache.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/**
 * A part's audio: the service's bytes as `body`, and, except for audio handed in whole, its Opus packets; `cutAt`
 * when it is a free line cut at its cap (PartAudio's).
 */
export type SpeechAudio = AudioResponse & { packets?: (signal?: AbortSignal) => Readable; cutAt?: number };

/** Where parts are kept and how they are encoded: what every path of the part source writes to. */
export interface PartStore {
  cache: AudioCache | undefined;
  metrics: Pick<Metrics, 'cacheLookup'> | undefined;
  log: Logger;
  encoding: Readonly<OpusSettings>;
}

export interface Flight {
  /** Where the part came from: the cache, the Voice API, or the free voice (SayBot's own, no call). */
  from: 'cache' | 'api' | 'free';
  part(): PartAudio;
  /** Settles when the part is whole and written to the cache (or could not be). */
  done: Promise<unknown>;
}

/**
 * Who waits for a flight's audio: the signal of each caller that joined it (the part of an order, or another order's
 * identical part). Its paid request leaves only while one of them still waits: a part let go of before its request
 * left (a /stop, a skip, its order ended) is never sent nor paid, unless another caller still waits for it. One let go
 * of by its last waiter once it has left, while the service has not begun to answer, is closed (the client's
 * CallControl `letGo`): the service bills at its answer, so it may bill nothing; kept on the books as it may have
 * been charged. Once the service's answer has begun nothing here cuts it: what the service accepted is read to its
 * end, recorded and cached.
 */
export class Waiters {
  readonly #signals = new Set<AbortSignal>();
  readonly #forget: () => void;
  /** The paid call under way for it, from before its request leaves until its answer arrives. */
  #call: CallControl | undefined;
  /** Its answer arrived (or it needed no call, or failed): nothing here cuts it any more. */
  #closed = false;

  /** `forget`: takes the flight out of the ones under way, so that nobody joins it once it will not be sent. */
  constructor(forget: () => void) {
    this.#forget = forget;
  }

  join(signal: AbortSignal): void {
    this.#signals.add(signal);
    if (this.#closed) return;
    if (signal.aborted) this.#letGo();
    else signal.addEventListener('abort', this.#letGo, { once: true });
  }

  /** Whether anyone still waits for it; once nobody does, it is forgotten at once (a caller after that starts anew). */
  wanted(): boolean {
    if (this.#waits()) return true;
    this.#forget();
    return false;
  }

  /** Its paid call is under way (the client's CallOptions `control`): let go of by everyone, it is cut if it may be. */
  calling(call: CallControl): void {
    if (!this.#closed) this.#call = call;
  }

  /** Its answer arrived, or it never needed a call, or failed: nothing here cuts it from now on. */
  close(): void {
    this.#closed = true;
    this.#call = undefined;
    for (const signal of this.#signals) signal.removeEventListener('abort', this.#letGo);
  }

  #waits(): boolean {
    for (const signal of this.#signals) if (!signal.aborted) return true;
    return false;
  }

  /**
   * A waiter let go: once nobody waits, the call under way is let go of, and forgotten when it will end without the
   * service's acceptance (so that a caller after that starts anew rather than join a call closed under it). Before
   * its call is under way, `wanted()` is asked instead.
   */
  readonly #letGo = (): void => {
    if (this.#call === undefined || this.#waits()) return;
    if (this.#call.letGo()) this.#forget();
  };
}

/** A part's flight under way: its audio, once it comes, and who waits for it. */
export interface Fetching {
  flight: Promise<Flight>;
  waiters: Waiters;
}

/** The request the service is sent for a part, whatever SayBot does to its audio afterwards. */
export function withoutEffects<R extends ServiceRequest>(request: R): R {
  if (request.effects === undefined) return request;
  const { effects: _effects, ...rest } = request;
  return rest as R;
}

/** Rejects with AbortedError when `signal` fires first; the work itself goes on for whoever else waits for it. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError('the request was cancelled', { cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError('the request was cancelled', { cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Identical work asked for while it is already under way joins it instead of starting it again: ten identical
 * requests at once make one API call. A flight is forgotten once `settled` (given by its starter) settles, so
 * a later request starts afresh (and, by then, finds the result in the cache).
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, T>();

  /** Whether a flight for `key` is under way. */
  has(key: string): boolean {
    return this.#flights.has(key);
  }

  /**
   * Joins the flight for `key`, or starts one with `start`. `settled(value)` says when the flight is over;
   * its outcome does not matter here (failures are the caller's to report).
   */
  join(key: string, start: () => T, settled: (value: T) => Promise<unknown>): { value: T; leader: boolean } {
    const current = this.#flights.get(key);
    if (current !== undefined) return { value: current, leader: false };
    const value = start();
    this.#flights.set(key, value);
    void settled(value)
      .catch(() => undefined)
      .finally(() => {
        if (this.#flights.get(key) === value) this.#flights.delete(key);
      });
    return { value, leader: true };
  }

  /**
   * Forgets `value`, the flight for `key`, before it settles (its starter gave it up): whoever asks for `key` next
   * starts afresh instead of joining it.
   */
  forget(key: string, value: T): void {
    if (this.#flights.get(key) === value) this.#flights.delete(key);
  }

  /** Every flight under way (to wait for them at shutdown). */
  values(): T[] {
    return [...this.#flights.values()];
  }
}
