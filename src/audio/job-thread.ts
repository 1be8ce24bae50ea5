// One worker thread that takes one job at a time, for work that must stay off the main thread (the main thread
// runs every guild's 20 ms voice cycle, and decoding even a minute of audio there stalls them all). A few jobs
// may wait; beyond that, or past the time limit, a job is refused rather than queued without end. An idle
// worker is ended so its memory is given back; a crashed or stuck one is replaced and the jobs waiting go on.
import { Worker } from 'node:worker_threads';

export type JobThreadFailure = 'busy' | 'timeout' | 'crashed';

export interface JobThreadOptions {
  /** The worker's module: it answers each message `{ id, ... }` with one message carrying the same `id`. */
  worker: URL;
  /** Jobs waiting behind the one under way. */
  maxWaiting: number;
  /** One job's limit; past it the worker is replaced. */
  timeoutMs: number;
  /** An idle worker is ended after this. */
  idleMs: number;
  /** The error a job that cannot run gets (the caller's own type, so its words reach the member). */
  unavailable: (reason: JobThreadFailure, message: string, cause?: unknown) => Error;
}

interface Waiting<J, R> {
  job: J & { id: number };
  transfer: ArrayBuffer[];
  resolve: (reply: R) => void;
  reject: (error: Error) => void;
}

export class JobThread<J extends object, R extends { id: number }> {
  readonly #options: JobThreadOptions;
  #worker: Worker | undefined;
  #current: (Waiting<J, R> & { timer: NodeJS.Timeout }) | undefined;
  readonly #queue: Array<Waiting<J, R>> = [];
  #idle: NodeJS.Timeout | undefined;
  #nextId = 0;

  constructor(options: JobThreadOptions) {
    this.#options = options;
  }

  /** Jobs under way and waiting. */
  get load(): number {
    return this.#queue.length + (this.#current ? 1 : 0);
  }

  /** Runs `job` (its `transfer` buffers moved to the worker, not copied); resolves with the worker's reply. */
  run(job: J, transfer: ArrayBuffer[] = []): Promise<R> {
    const { maxWaiting, unavailable } = this.#options;
    if (this.#queue.length >= maxWaiting) return Promise.reject(unavailable('busy', `${maxWaiting} jobs are already waiting`));
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ job: { ...job, id: this.#nextId++ }, transfer, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#current) return;
    const waiting = this.#queue.shift();
    if (!waiting) {
      this.#worker?.unref();
      this.#idle ??= setTimeout(() => this.#stop(), this.#options.idleMs).unref();
      return;
    }
    clearTimeout(this.#idle);
    this.#idle = undefined;
    const worker = this.#ensureWorker();
    worker.ref();
    const { timeoutMs, unavailable } = this.#options;
    const timer = setTimeout(() => this.#fail(unavailable('timeout', `the job did not finish within ${timeoutMs} ms`)), timeoutMs);
    this.#current = { ...waiting, timer };
    worker.postMessage(waiting.job, waiting.transfer);
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const { unavailable } = this.#options;
    const worker = new Worker(this.#options.worker);
    worker.on('message', (reply: R) => this.#answer(reply));
    worker.on('error', (error) => this.#fail(unavailable('crashed', 'the worker thread failed', error)));
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#fail(unavailable('crashed', `the worker thread exited (${code})`));
    });
    this.#worker = worker;
    return worker;
  }

  #answer(reply: R): void {
    const current = this.#current;
    if (!current || current.job.id !== reply.id) return;
    clearTimeout(current.timer);
    this.#current = undefined;
    current.resolve(reply);
    this.#next();
  }

  /** The job under way fails with `error`; the worker is replaced, and the jobs waiting go on. */
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
