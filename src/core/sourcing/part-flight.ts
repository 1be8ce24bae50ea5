// What the part source (src/core/sourcing/part-source.ts) and its helpers share: a part's audio, a flight (one call
// for identical work under way), where a part is kept.
import type { Readable } from 'node:stream';
import type { AudioResponse, CallControl } from '../api/client.ts';
import { AbortedError } from '../api/errors.ts';
import type { OpusSettings } from '../audio/codecs/opus-settings.ts';
import type { PartAudio } from '../cache/audio-fill.ts';
import type { AudioCache } from '../cache/audio-cache.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/** A part's audio: the service's bytes, its Opus packets (except audio handed in whole), `cutAt` as PartAudio's. */
export type SpeechAudio = AudioResponse & { packets?: (signal?: AbortSignal) => Readable; cutAt?: number };

export interface PartStore {
  cache: AudioCache | undefined;
  metrics: Pick<Metrics, 'cacheLookup'> | undefined;
  log: Logger;
  encoding: Readonly<OpusSettings>;
}

export interface Flight {
  from: 'cache' | 'api' | 'free';
  part(): PartAudio;
  done: Promise<unknown>;
}

/**
 * Who waits for a flight's audio. Its paid request leaves only while one still waits: let go of by all before it
 * left, it is never sent nor paid; after it left and before any answer, it is closed (CallControl `letGo`) and kept
 * on the books as maybe charged. Once the answer began nothing here cuts it: what was accepted is read and kept.
 */
export class Waiters {
  readonly #signals = new Set<AbortSignal>();
  readonly #forget: () => void;
  #call: CallControl | undefined;
  #closed = false;

  /** `forget`: takes the flight out of those under way, so nobody joins one that will not be sent. */
  constructor(forget: () => void) {
    this.#forget = forget;
  }

  join(signal: AbortSignal): void {
    this.#signals.add(signal);
    if (this.#closed) return;
    if (signal.aborted) this.#letGo();
    else signal.addEventListener('abort', this.#letGo, { once: true });
  }

  wanted(): boolean {
    if (this.#waits()) return true;
    this.#forget();
    return false;
  }

  /** Its paid call is under way (CallOptions `control`): let go of by everyone, it is cut if it may be. */
  calling(call: CallControl): void {
    if (!this.#closed) this.#call = call;
  }

  close(): void {
    this.#closed = true;
    this.#call = undefined;
    for (const signal of this.#signals) signal.removeEventListener('abort', this.#letGo);
  }

  #waits(): boolean {
    for (const signal of this.#signals) if (!signal.aborted) return true;
    return false;
  }

  /** Once nobody waits, the call is let go of, and forgotten if it will end unaccepted (a later caller starts anew). */
  readonly #letGo = (): void => {
    if (this.#call === undefined || this.#waits()) return;
    if (this.#call.letGo()) this.#forget();
  };
}

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

/** Identical work under way is joined, not started again, until `settled` settles: ten requests, one call. */
export class SingleFlight<T> {
  readonly #flights = new Map<string, T>();

  has(key: string): boolean {
    return this.#flights.has(key);
  }

  /** Joins the flight for `key`, or starts one; `settled(value)` says when it is over (failures are the caller's). */
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

  /** Forgets `value` before it settles (its starter gave it up): the next asker starts afresh. */
  forget(key: string, value: T): void {
    if (this.#flights.get(key) === value) this.#flights.delete(key);
  }

  values(): T[] {
    return [...this.#flights.values()];
  }
}
