import { Readable } from 'node:stream';

export interface Head {
  /** Every byte read so far: at least `wanted` bytes unless the body ended first. */
  bytes: Buffer;
  ended: boolean;
}

/**
 * Reads from `source` until `wanted` bytes have arrived or the body ended, then leaves `source` paused with
 * the rest unread. Rejects with the source's own error; the caller maps it.
 */
export function readHead(source: Readable, wanted: number): Promise<Head> {
  return new Promise<Head>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const settle = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= wanted) {
        source.pause();
        settle();
        // Until the next reader attaches, an error must not go unhandled; it stays on `source.errored`.
        source.on('error', ignore);
        resolve({ bytes: Buffer.concat(chunks, length), ended: false });
      }
    };
    const onEnd = (): void => {
      settle();
      resolve({ bytes: Buffer.concat(chunks, length), ended: true });
    };
    const onError = (error: unknown): void => {
      settle();
      reject(error);
    };
    const onClose = (): void => {
      settle();
      reject(new PrematureCloseError());
    };
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}

function ignore(): void {}

/**
 * Drops a body that is no longer wanted. undici reports destroying an unfinished body as an error event, which
 * nobody listens to any more: it is expected here, so it is swallowed.
 */
export function discard(source: Readable): void {
  source.on('error', ignore);
  source.destroy();
}

/** The body stream closed without an end and without an error of its own. */
export class PrematureCloseError extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * Reads at most `cap` bytes of a body that is not audio (an error page, a JSON answer), then drops the rest.
 * Never rejects: a failure while reading an error body must not hide the status that came before it.
 */
export async function readCapped(source: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= cap) break;
    }
  } catch {
    // Keep what arrived.
  } finally {
    discard(source);
  }
  return Buffer.concat(chunks, length).subarray(0, cap);
}

export interface AudioBodyHooks {
  /** Turns a source failure into the error the caller sees. */
  mapError: (error: unknown) => Error;
  /**
   * The caller stopped reading (true: the buffer is full and the socket is paused) or started again (false).
   * Time spent waiting for the caller is not the service being slow.
   */
  waiting: (waiting: boolean) => void;
  /** The network side is over (all bytes arrived, or the stream was cut), maybe well before the caller read it all. */
  done: () => void;
  /** The most bytes the body may have (its first bytes included); past it, the stream is cut with `tooLarge()`. */
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * The audio body handed to the caller: the sniffed head first, then the rest of the response as it arrives,
 * with back-pressure passed on to the socket. `cut` ends it with an error of the client's choosing (abort,
 * total timeout).
 */
export class AudioBodyStream extends Readable {
  readonly #source: Readable;
  readonly #hooks: AudioBodyHooks;
  #ended = false;
  #waiting = false;
  #received = 0;

  constructor(head: Head, source: Readable, hooks: AudioBodyHooks) {
    super();
    this.#source = source;
    this.#hooks = hooks;
    if (head.ended) {
      this.push(head.bytes);
      this.#finish();
      this.push(null);
      return;
    }
    source.on('data', this.#onData);
    source.on('end', this.#onEnd);
    source.on('error', this.#onError);
    source.on('close', this.#onClose);
    this.#onData(head.bytes);
    // The source may have ended (all of it fitted in the head) or failed before this stream took over.
    const early = source.errored;
    if (source.readableEnded) this.#onEnd();
    else if (early !== null) queueMicrotask(() => this.#onError(early));
    else if (source.destroyed) queueMicrotask(this.#onClose);
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.destroyed) return;
    this.#received += chunk.length;
    // Cut (the source destroyed, its request aborted) before the chunk is kept: past the bound, nothing more is held.
    if (this.#received > this.#hooks.maxBytes) {
      this.cut(this.#hooks.tooLarge());
      return;
    }
    if (this.push(chunk)) return;
    this.#source.pause();
    this.#setWaiting(true);
  };

  readonly #onEnd = (): void => {
    this.#finish();
    this.push(null);
  };

  readonly #onError = (error: unknown): void => {
    this.cut(this.#hooks.mapError(error));
  };

  readonly #onClose = (): void => {
    if (!this.#ended) this.cut(this.#hooks.mapError(new PrematureCloseError()));
  };

  /** Ends the stream with `error` unless the caller has already read it to the end. */
  cut(error: Error): void {
    if (this.destroyed || this.readableEnded) return;
    this.destroy(error);
  }

  override _read(): void {
    this.#setWaiting(false);
    this.#source.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#source.off('data', this.#onData);
    this.#source.off('end', this.#onEnd);
    this.#source.off('error', this.#onError);
    this.#source.off('close', this.#onClose);
    // Destroying the undici body before its end also aborts the request and frees the connection.
    discard(this.#source);
    this.#finish();
    callback(error);
  }

  #setWaiting(waiting: boolean): void {
    if (this.#ended || waiting === this.#waiting) return;
    this.#waiting = waiting;
    this.#hooks.waiting(waiting);
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#hooks.done();
  }
}
