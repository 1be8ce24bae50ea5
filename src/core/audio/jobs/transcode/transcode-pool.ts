// Decoding, resampling and Opus encoding on a few worker threads (transcode-worker.ts): on the main thread they took a
// third of its time at 100 voices and delayed every voice's packets at a few hundred. Chunks from every stream are
// batched per event-loop turn, one message per worker each way. Bounded: under two slices a stream unanswered; a
// capped heap; a worker not answering its oldest batch within BATCH_DEADLINE_MS is retired. A worker that ends fails
// only its streams (OpusWorkerError). A stuck worker is never terminated inside the Opus addon's call (that aborts the
// process, ../../workers/native-calls.ts): it is told to retire, and while as many threads as it runs are still
// leaving, no new worker starts.
import { Transform, type TransformCallback } from 'node:stream';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ClipError, UnsupportedAudioError } from '../../errors.ts';
import { ENCODED_AHEAD_PACKETS } from '../../codecs/opus-encode.ts';
import { OpusWorkerError } from '../../codecs/opus-pool/opus-pool.ts';
import { NativeCallGuard, RetiringThreads } from '../../workers/native-calls.ts';
import { forEachCopy, OncePerTurn, packChunks } from '../../workers/packed-chunks.ts';
import type { TranscodeFailure, TranscodeReply, TranscodeRequest, TranscodeSpec } from './transcode-protocol.ts';

/** How long a batch may take before the worker is stuck: the voice's own 15 s (MAX_MISSED_FRAMES). */
export const BATCH_DEADLINE_MS = 15_000;

/** The most bytes of one stream in a batch: a third of a second of 24 kHz WAV, a second of 128 kb/s MP3. */
export const SLICE_BYTES = 16 * 1024;

/** A worker's JS heap: its streams' decoder state and one batch; the WASM MP3 decoders live outside it. */
const WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

interface TranscodePoolOptions {
  /** The worker's module (tests give one that misbehaves); transcode-worker.ts by default. */
  workerUrl?: URL;
  batchDeadlineMs?: number;
}

interface StreamHandlers {
  packets(packets: Buffer[]): void;
  failed(error: Error): void;
}

/** `unanswered`: its bytes sent and not answered yet. */
type OpenStream = StreamHandlers & { unanswered: number };

function remake(failure: TranscodeFailure): Error {
  if (failure.name === 'UnsupportedAudioError') return new UnsupportedAudioError(failure.format, failure.message);
  if (failure.code) return new ClipError(failure.code, failure.message);
  return new OpusWorkerError(`transcoding failed: ${failure.name}: ${failure.message}`);
}

class TranscodeWorker {
  readonly #worker: Worker;
  readonly #guard = new NativeCallGuard();
  readonly #retiring: RetiringThreads;
  readonly #streams = new Map<number, OpenStream>();
  #opens: [number, TranscodeSpec][] = [];
  #ids: number[] = [];
  #chunks: Uint8Array[] = [];
  #ends: number[] = [];
  #closes: number[] = [];
  /** Per batch in flight, in order: what to call once its reply is delivered, per stream. */
  readonly #batches: Map<number, Array<() => void>>[] = [];
  #batch = new Map<number, Array<() => void>>();
  readonly #turn = new OncePerTurn(() => this.#flush());
  readonly #deadlineMs: number;
  readonly #onDead: (worker: TranscodeWorker) => void;
  /** Armed while a batch is in flight: the oldest one's answer is due by then. */
  #deadline: NodeJS.Timeout | undefined;
  dead = false;

  constructor(url: URL, deadlineMs: number, retiring: RetiringThreads, onDead: (worker: TranscodeWorker) => void) {
    this.#deadlineMs = deadlineMs;
    this.#retiring = retiring;
    this.#onDead = onDead;
    this.#worker = new Worker(url, { resourceLimits: WORKER_LIMITS, workerData: this.#guard.data });
    this.#worker.unref();
    this.#worker.on('message', (reply: TranscodeReply) => this.#answer(reply));
    this.#worker.on('error', (error) =>
      this.#die(new OpusWorkerError('the transcoding thread failed', { cause: error })),
    );
    this.#worker.on('exit', (code) => this.#die(new OpusWorkerError(`the transcoding thread exited (${code})`)));
  }

  /** Every stream it held fails with `error`; nothing more is accepted. */
  #die(error: Error): void {
    if (this.dead) return;
    this.dead = true;
    this.#disarm();
    this.#onDead(this);
    const streams = [...this.#streams.values()];
    this.#streams.clear();
    for (const stream of streams) stream.failed(error);
  }

  #arm(): void {
    if (this.#deadline || this.#batches.length === 0) return;
    this.#deadline = setTimeout(() => {
      this.#deadline = undefined;
      this.#die(new OpusWorkerError(`the transcoding thread did not answer within ${this.#deadlineMs} ms`));
      void this.#retiring.retire(this.#worker, this.#guard);
    }, this.#deadlineMs);
    this.#deadline.unref();
  }

  #disarm(): void {
    if (this.#deadline) clearTimeout(this.#deadline);
    this.#deadline = undefined;
  }

  get streams(): number {
    return this.#streams.size;
  }

  open(id: number, spec: TranscodeSpec, handlers: StreamHandlers): void {
    this.#streams.set(id, { ...handlers, unanswered: 0 });
    this.#opens.push([id, spec]);
  }

  write(id: number, chunk: Uint8Array, done: () => void): void {
    const stream = this.#liveStream(id);
    if (!stream) return;
    this.#ids.push(id);
    this.#chunks.push(chunk);
    stream.unanswered += chunk.length;
    // Below a slice the next chunk joins this batch: a clip's lead, its chunks come in one turn, is one round trip.
    const now = stream.unanswered < SLICE_BYTES;
    this.#after(id, () => {
      stream.unanswered -= chunk.length;
      if (!now) done();
    });
    if (now) done();
  }

  end(id: number, done: () => void): void {
    if (!this.#liveStream(id)) return;
    this.#ends.push(id);
    this.#after(id, () => {
      this.#streams.delete(id);
      done();
    });
  }

  close(id: number): void {
    if (!this.#streams.delete(id)) return;
    this.#closes.push(id);
    this.#turn.request();
  }

  #liveStream(id: number): OpenStream | undefined {
    const stream = this.#streams.get(id);
    if (stream && !this.dead) return stream;
    stream?.failed(new OpusWorkerError('the transcoding thread is gone'));
    return undefined;
  }

  #after(id: number, done: () => void): void {
    const list = this.#batch.get(id);
    if (list) list.push(done);
    else this.#batch.set(id, [done]);
    this.#turn.request();
  }

  #flush(): void {
    if (this.dead) return;
    const request: TranscodeRequest = {
      opens: this.#opens,
      ids: this.#ids,
      ...packChunks(this.#chunks),
      ends: this.#ends,
      closes: this.#closes,
    };
    this.#batches.push(this.#batch);
    this.#worker.ref();
    this.#worker.postMessage(request, [request.data]);
    this.#arm();
    this.#opens = [];
    this.#ids = [];
    this.#chunks = [];
    this.#ends = [];
    this.#closes = [];
    this.#batch = new Map();
  }

  #answer(reply: TranscodeReply): void {
    if (this.dead) return;
    const batch = this.#batches.shift() ?? new Map<number, Array<() => void>>();
    // The next batch in flight gets its own full deadline.
    this.#disarm();
    this.#arm();
    if (this.#batches.length === 0) this.#worker.unref();
    for (const [id, failure] of reply.failed) {
      const stream = this.#streams.get(id);
      this.#streams.delete(id);
      batch.delete(id);
      stream?.failed(remake(failure));
    }
    const byStream = new Map<number, Buffer[]>();
    forEachCopy(reply.data, reply.lengths, (packet, i) => {
      const id = reply.ids[i] ?? -1;
      const list = byStream.get(id);
      if (list) list.push(packet);
      else byStream.set(id, [packet]);
    });
    for (const [id, callbacks] of batch) {
      const stream = this.#streams.get(id);
      const packets = byStream.get(id);
      if (stream && packets) stream.packets(packets);
      for (const callback of callbacks) callback();
    }
  }

  /** Fails its streams and retires the thread: at once outside an Opus call, else after it (within the deadline). */
  terminate(): Promise<void> {
    this.#die(new OpusWorkerError('the transcoding pool was closed'));
    return this.#retiring.retire(this.#worker, this.#guard, this.#deadlineMs);
  }
}

export class TranscodePool {
  readonly #workers: TranscodeWorker[] = [];
  readonly #size: number;
  readonly #url: URL;
  readonly #deadlineMs: number;
  readonly #retiring: RetiringThreads;
  #nextId = 0;

  constructor(size: number, options: TranscodePoolOptions = {}) {
    this.#size = Math.max(1, size);
    this.#url = options.workerUrl ?? new URL('./transcode-worker.ts', import.meta.url);
    this.#deadlineMs = options.batchDeadlineMs ?? BATCH_DEADLINE_MS;
    // As many threads leaving as it runs (two for a pool of one): a stuck one is replaced, not the pool stopped.
    this.#retiring = new RetiringThreads('the transcoding pool', Math.max(2, this.#size));
  }

  /** Worker threads running now (a dead one is replaced when the next stream opens). */
  get workers(): number {
    return this.#workers.length;
  }

  /** Threads past their deadline still finishing a call into the Opus addon, before they leave. */
  get retiring(): number {
    return this.#retiring.count;
  }

  /** A stream on the least loaded worker (a new one if the pool has room; none at all: the stream fails at once). */
  stream(spec: TranscodeSpec): Transform {
    let worker: TranscodeWorker | undefined;
    if (this.#workers.length < this.#size && this.#retiring.room) {
      worker = new TranscodeWorker(this.#url, this.#deadlineMs, this.#retiring, (dead) => {
        const at = this.#workers.indexOf(dead);
        if (at >= 0) this.#workers.splice(at, 1);
      });
      this.#workers.push(worker);
    } else {
      for (const w of this.#workers) if (!worker || w.streams < worker.streams) worker = w;
    }
    if (!worker) {
      const failed = new Transform({ readableObjectMode: true });
      failed.destroy(
        new OpusWorkerError(`the transcoding pool has ${this.#retiring.count} threads still leaving and none running`),
      );
      return failed;
    }
    return new TranscodeStream(worker, this.#nextId++, spec);
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.splice(0).map((w) => w.terminate()));
  }
}

/** Encoded bytes in (WAV or MP3, any chunking), one Opus packet per object out, made in a worker. */
class TranscodeStream extends Transform {
  readonly #worker: TranscodeWorker;
  readonly #id: number;

  constructor(worker: TranscodeWorker, id: number, spec: TranscodeSpec) {
    super({ readableObjectMode: true, readableHighWaterMark: ENCODED_AHEAD_PACKETS });
    this.#worker = worker;
    this.#id = id;
    worker.open(id, spec, {
      packets: (packets) => {
        for (const packet of packets) this.push(packet);
      },
      failed: (error) => this.destroy(error),
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    // A large chunk (a cached clip without packets) goes in slices, so its first packets come back early.
    let at = 0;
    const next = (): void => {
      if (this.destroyed) return;
      if (at >= chunk.length) {
        callback();
        return;
      }
      const slice = chunk.subarray(at, at + SLICE_BYTES);
      at += slice.length;
      this.#worker.write(this.#id, slice, next);
    };
    next();
  }

  override _flush(callback: TransformCallback): void {
    this.#worker.end(this.#id, () => {
      if (!this.destroyed) callback();
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#worker.close(this.#id);
    callback(error);
  }
}

let shared: { size: number; pool: TranscodePool } | undefined;

/** The process's pool of `size` workers (a new pool if the size changed; the old one ends with its streams). */
export function sharedTranscodePool(size: number): TranscodePool {
  if (shared?.size !== size) shared = { size, pool: new TranscodePool(size) };
  return shared.pool;
}

/** Retires the pool before exit: a thread inside an Opus call aborts the process (../../workers/native-calls.ts). */
export async function closeSharedTranscodePool(): Promise<void> {
  const pool = shared?.pool;
  shared = undefined;
  await pool?.close();
}
