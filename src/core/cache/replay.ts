import { Readable } from 'node:stream';

/**
 * Items arriving once, read by any number of readers, each from the first item, live: a reader that catches up
 * waits for the next item. Lets requests that joined a flight (and cache hits of it) hear the audio from its
 * start while the first request is still streaming it. An error ends every reader with that same error object,
 * so callers still see the typed error (ConnectionError, TimeoutError…) the source failed with.
 */
export class Replay<T extends Buffer> {
  readonly #items: T[] = [];
  #ended = false;
  #error: Error | undefined;
  #waiting = new Set<() => void>();
  /** The other set #wake swaps in, so that waking the readers makes no array per item. */
  #woken = new Set<() => void>();
  #waking = false;
  #furthestRead = 0;
  #readers = 0;
  readonly #onRead: (() => void) | undefined;

  /** `onRead` is told whenever a reader moves past the furthest item read so far, or a reader goes away. */
  constructor(options: { onRead?: () => void } = {}) {
    this.#onRead = options.onRead;
  }

  /** How many items the most advanced reader has taken: lets a producer keep only a little ahead of it. */
  get furthestRead(): number {
    return this.#furthestRead;
  }

  /** Readers still open. */
  get readers(): number {
    return this.#readers;
  }

  get items(): readonly T[] {
    return this.#items;
  }

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    // An empty chunk pushed to a byte stream reads as "nothing more for now" and would stall the reader.
    if (this.#ended || this.#error || item.length === 0) return;
    this.#items.push(item);
    this.#wake();
  }

  end(): void {
    if (this.#ended || this.#error) return;
    this.#ended = true;
    this.#wake();
  }

  /** The first failure wins; later ones (the same failure seen by another stage) are ignored. */
  fail(error: Error): void {
    if (this.#ended || this.#error) return;
    this.#error = error;
    this.#wake();
  }

  #wake(): void {
    if (this.#waiting.size === 0) return;
    if (this.#waking) {
      // Woken from inside a wake (a reader's consumer fed the producer): the sets are in use, copy.
      const waiting = [...this.#waiting];
      this.#waiting.clear();
      for (const resume of waiting) resume();
      return;
    }
    // A reader that catches up again waits in the fresh set, not in the one being walked.
    this.#waking = true;
    const waiting = this.#waiting;
    this.#waiting = this.#woken;
    this.#woken = waiting;
    try {
      for (const resume of waiting) resume();
    } finally {
      waiting.clear();
      this.#waking = false;
    }
  }

  /** A new reader from the first item. Destroying it leaves the replay and the other readers alone. */
  reader(options: { objectMode: boolean; signal?: AbortSignal | undefined }): Readable {
    let index = 0;
    this.#readers++;
    const advanced = (): void => {
      if (index <= this.#furthestRead) return;
      this.#furthestRead = index;
      this.#onRead?.();
    };
    const pump = (): void => {
      if (stream.destroyed) return;
      while (index < this.#items.length) {
        const item = this.#items[index++] as T;
        if (!stream.push(item)) return advanced();
      }
      advanced();
      if (this.#error) stream.destroy(this.#error);
      else if (this.#ended) stream.push(null);
      else this.#waiting.add(pump);
    };
    const stream = new Readable({
      objectMode: options.objectMode,
      read: pump,
      destroy: (error, callback) => {
        this.#waiting.delete(pump);
        this.#readers--;
        this.#onRead?.();
        callback(error);
      },
      signal: options.signal,
    });
    return stream;
  }
}
