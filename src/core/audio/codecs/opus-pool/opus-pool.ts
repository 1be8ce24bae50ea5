// Opus encoding on a few worker threads: on the main thread it saturated it at about 50 voices (bench/opus-floor.ts).
// Frames from every stream are batched per event-loop turn, one message per worker each way.
import { Worker } from 'node:worker_threads';
import type { EncodedBatch, WorkerRequest } from './opus-pool-protocol.ts';
import type { EncoderSpec } from '../opus-settings.ts';
import { NativeCallGuard, RetiringThreads } from '../../workers/native-calls.ts';
import { forEachCopy, OncePerTurn, packChunks } from '../../workers/packed-chunks.ts';

export type EncodeDone = (error: Error | null, packet?: Buffer) => void;

/** One stream's encoder in the pool. Packets come back in the order the frames went in. */
interface PooledEncoder {
  encode(frame: Buffer, done: EncodeDone): void;
  /** Frees the encoder; frames still in flight are answered with nothing. */
  close(): void;
}

export class OpusWorkerError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'OpusWorkerError';
  }
}

/** How long closing waits for a thread to leave after the encoder's call it was inside. */
const CLOSE_WAIT_MS = 5_000;

class PoolWorker {
  readonly #worker: Worker;
  readonly #guard = new NativeCallGuard();
  readonly #retiring: RetiringThreads;
  readonly #waiting = new Map<number, EncodeDone[]>();
  #opens: [number, EncoderSpec][] = [];
  #ids: number[] = [];
  #frames: Buffer[] = [];
  #closes: number[] = [];
  #inFlight = 0;
  readonly #batch = new OncePerTurn(() => this.#flush());
  dead = false;

  constructor(retiring: RetiringThreads, onDead: (worker: PoolWorker) => void) {
    this.#retiring = retiring;
    this.#worker = new Worker(new URL('./opus-worker.ts', import.meta.url), { workerData: this.#guard.data });
    // Idle workers must not keep the process alive; busy ones are referenced (see #ref).
    this.#worker.unref();
    this.#worker.on('message', (batch: EncodedBatch) => this.#answer(batch));
    const die = (error: Error): void => {
      if (this.dead) return;
      onDead(this);
      this.#failAll(error);
    };
    this.#worker.on('error', (error) => die(new OpusWorkerError('the Opus encoder thread failed', { cause: error })));
    this.#worker.on('exit', (code) => die(new OpusWorkerError(`the Opus encoder thread exited (${code})`)));
  }

  /** Every frame still waiting is answered with `error`; nothing more is accepted. */
  #failAll(error: Error): void {
    this.dead = true;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const queue of waiting) for (const done of queue) done(error);
  }

  get streams(): number {
    return this.#waiting.size;
  }

  open(id: number, spec: EncoderSpec): void {
    this.#opens.push([id, spec]);
    this.#waiting.set(id, []);
  }

  encode(id: number, frame: Buffer, done: EncodeDone): void {
    const queue = this.#waiting.get(id);
    if (!queue || this.dead) {
      done(new OpusWorkerError('the Opus encoder is closed'));
      return;
    }
    queue.push(done);
    this.#ids.push(id);
    this.#frames.push(frame);
    this.#batch.request();
  }

  close(id: number): void {
    if (!this.#waiting.delete(id)) return;
    this.#closes.push(id);
    this.#batch.request();
  }

  #flush(): void {
    if (this.dead) return;
    const request: WorkerRequest = {
      opens: this.#opens,
      ids: this.#ids,
      ...packChunks(this.#frames),
      closes: this.#closes,
    };
    this.#inFlight += 1;
    this.#ref();
    this.#worker.postMessage(request, [request.data]);
    this.#opens = [];
    this.#ids = [];
    this.#frames = [];
    this.#closes = [];
  }

  #answer(batch: EncodedBatch): void {
    this.#inFlight -= 1;
    this.#ref();
    for (const [id, message] of batch.failed) {
      const queue = this.#waiting.get(id);
      this.#waiting.delete(id);
      for (const done of queue ?? []) done(new OpusWorkerError(`Opus encoding failed: ${message}`));
    }
    forEachCopy(batch.data, batch.lengths, (packet, i) =>
      this.#waiting.get(batch.ids[i] ?? -1)?.shift()?.(null, packet),
    );
  }

  #ref(): void {
    if (this.#inFlight > 0) this.#worker.ref();
    else this.#worker.unref();
  }

  /** Fails waiting frames and retires the thread: at once outside an encoder call, else after it (CLOSE_WAIT_MS). */
  terminate(): Promise<void> {
    this.#failAll(new OpusWorkerError('the Opus encoder pool was closed'));
    return this.#retiring.retire(this.#worker, this.#guard, CLOSE_WAIT_MS);
  }
}

export class OpusEncoderPool {
  readonly #workers: PoolWorker[] = [];
  readonly #size: number;
  /** Only a closing pool retires its threads; none is started after (../../workers/native-calls.ts). */
  readonly #retiring: RetiringThreads;
  #nextId = 0;

  constructor(size: number) {
    this.#size = Math.max(1, size);
    this.#retiring = new RetiringThreads('the Opus encoder pool', Math.max(2, this.#size));
  }

  /** An encoder on the least loaded worker (a new worker while the pool is not full). */
  open(spec: EncoderSpec): PooledEncoder {
    let worker: PoolWorker | undefined;
    if (this.#workers.length < this.#size) {
      worker = new PoolWorker(this.#retiring, (dead) => this.#workers.splice(this.#workers.indexOf(dead), 1));
      this.#workers.push(worker);
    } else {
      for (const w of this.#workers) if (!worker || w.streams < worker.streams) worker = w;
    }
    const chosen = worker as PoolWorker;
    const id = this.#nextId++;
    chosen.open(id, spec);
    return {
      encode: (frame, done) => chosen.encode(id, frame, done),
      close: () => chosen.close(id),
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.splice(0).map((w) => w.terminate()));
  }
}

let shared: { size: number; pool: OpusEncoderPool } | undefined;

/** The process's pool of `size` workers (a new pool if the size changed; the old one ends with its streams). */
export function sharedEncoderPool(size: number): OpusEncoderPool {
  if (shared?.size !== size) shared = { size, pool: new OpusEncoderPool(size) };
  return shared.pool;
}

/** Retires the pool before exit: a thread inside an Opus call aborts the process (../../workers/native-calls.ts). */
export async function closeSharedEncoderPool(): Promise<void> {
  const pool = shared?.pool;
  shared = undefined;
  await pool?.close();
}
