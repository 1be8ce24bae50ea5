// Clip decoding off the main thread: the main thread runs every guild's 20 ms voice cycle, and decoding even a
// minute of audio there stalls them all. One worker thread takes one clip at a time; a few more may wait, and
// beyond that (or past the time limit) the check is refused rather than queued without end.
import { Worker } from 'node:worker_threads';
import { ClipError } from './errors.ts';
import type { ClipJob, ClipJobReply, MeasuredClip } from './clip-thread-protocol.ts';

export type { MeasuredClip } from './clip-thread-protocol.ts';

/** Clips waiting behind the one being decoded. */
export const MAX_WAITING_CLIPS = 4;
/** One clip's decoding (at most a minute of audio) takes well under this; past it the worker is replaced. */
const JOB_TIMEOUT_MS = 20_000;
/** An idle worker is ended after this, so its memory is given back. */
const IDLE_MS = 30_000;

/** The check could not run now: too many clips waiting, or the decoder ran out of time. */
export class ClipCheckUnavailableError extends Error {
  readonly reason: 'busy' | 'timeout' | 'crashed';

  constructor(reason: 'busy' | 'timeout' | 'crashed', message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClipCheckUnavailableError';
    this.reason = reason;
  }
}

interface Waiting {
  job: ClipJob;
  resolve: (clip: MeasuredClip) => void;
  reject: (error: Error) => void;
}

class ClipThread {
  #worker: Worker | undefined;
  #current: (Waiting & { timer: NodeJS.Timeout }) | undefined;
  readonly #queue: Waiting[] = [];
  #idle: NodeJS.Timeout | undefined;
  #nextId = 0;

  measure(bytes: Uint8Array, maxSeconds: number): Promise<MeasuredClip> {
    if (this.#queue.length >= MAX_WAITING_CLIPS) {
      return Promise.reject(new ClipCheckUnavailableError('busy', `${MAX_WAITING_CLIPS} clips are already waiting to be checked`));
    }
    // A copy of its own, transferred: the caller keeps its bytes (to upload them), the worker gets them without a clone.
    const data = new Uint8Array(bytes.length);
    data.set(bytes);
    return new Promise<MeasuredClip>((resolve, reject) => {
      this.#queue.push({ job: { id: this.#nextId++, data: data.buffer, maxSeconds }, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#current) return;
    const waiting = this.#queue.shift();
    if (!waiting) {
      this.#worker?.unref();
      this.#idle ??= setTimeout(() => this.#stop(), IDLE_MS).unref();
      return;
    }
    clearTimeout(this.#idle);
    this.#idle = undefined;
    const worker = this.#ensureWorker();
    worker.ref();
    const timer = setTimeout(() => this.#fail(new ClipCheckUnavailableError('timeout', `the clip was not decoded within ${JOB_TIMEOUT_MS} ms`)), JOB_TIMEOUT_MS);
    this.#current = { ...waiting, timer };
    worker.postMessage(waiting.job, [waiting.job.data]);
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./clip-worker.ts', import.meta.url));
    worker.on('message', (reply: ClipJobReply) => this.#answer(reply));
    worker.on('error', (error) => this.#fail(new ClipCheckUnavailableError('crashed', 'the clip decoder thread failed', { cause: error })));
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#fail(new ClipCheckUnavailableError('crashed', `the clip decoder thread exited (${code})`));
    });
    this.#worker = worker;
    return worker;
  }

  #answer(reply: ClipJobReply): void {
    const current = this.#current;
    if (!current || current.job.id !== reply.id) return;
    clearTimeout(current.timer);
    this.#current = undefined;
    if (reply.ok) current.resolve(reply.clip);
    else current.reject(reply.code === undefined ? new Error(reply.message) : new ClipError(reply.code, reply.message));
    this.#next();
  }

  /** The clip being decoded fails with `error`; the worker is replaced, and the clips waiting go on. */
  #fail(error: Error): void {
    const current = this.#current;
    this.#current = undefined;
    if (current) {
      clearTimeout(current.timer);
      current.reject(error);
    }
    this.#stop();
    this.#next();
  }

  #stop(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    clearTimeout(this.#idle);
    this.#idle = undefined;
    void worker?.terminate();
  }
}

const thread = new ClipThread();

/**
 * Decodes at most `maxSeconds` of the clip in a worker thread and measures it (analyseClip's figures and the RMS
 * level). Rejects with ClipError for bytes that are not usable audio, ClipCheckUnavailableError when it cannot run now.
 */
export function measureClipOffThread(bytes: Uint8Array, maxSeconds: number): Promise<MeasuredClip> {
  return thread.measure(bytes, maxSeconds);
}
