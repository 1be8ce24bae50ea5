// Decoding, resampling and Opus encoding off the main thread: a few worker threads (transcode-worker.ts), each
// holding the decoder, resampler and encoder of the streams given to it. The main thread only hands each response's
// bytes over as they arrive and takes the packets back. Before issue 25 the main thread decoded and resampled every
// voice itself (about a third of its time with 100 voices) and sent each 20 ms frame to the encoder pool: at a few
// hundred voices its turns grew long enough to delay every voice's packets. Chunks from every stream are batched per
// turn of the event loop, one message per worker each way.
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { ClipError, UnsupportedAudioError } from './errors.ts';
import { ENCODED_AHEAD_PACKETS } from './opus-encode.ts';
import { OpusWorkerError } from './opus-pool.ts';
import type { TranscodeFailure, TranscodeReply, TranscodeRequest, TranscodeSpec } from './transcode-protocol.ts';

interface StreamHandlers {
  packets(packets: Buffer[]): void;
  failed(error: Error): void;
}

function remake(failure: TranscodeFailure): Error {
  if (failure.name === 'UnsupportedAudioError') return new UnsupportedAudioError(failure.format, failure.message);
  if (failure.code) return new ClipError(failure.code, failure.message);
  return new OpusWorkerError(`transcoding failed: ${failure.name}: ${failure.message}`);
}

class TranscodeWorker {
  readonly #worker: Worker;
  readonly #streams = new Map<number, StreamHandlers>();
  #opens: [number, TranscodeSpec][] = [];
  #ids: number[] = [];
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  #ends: number[] = [];
  #closes: number[] = [];
  /** Per batch in flight, in order: what to call once its reply is delivered, per stream. */
  readonly #batches: Map<number, Array<() => void>>[] = [];
  #batch = new Map<number, Array<() => void>>();
  #scheduled = false;
  dead = false;

  constructor(onDead: (worker: TranscodeWorker) => void) {
    this.#worker = new Worker(new URL('./transcode-worker.ts', import.meta.url));
    this.#worker.unref();
    this.#worker.on('message', (reply: TranscodeReply) => this.#answer(reply));
    const die = (error: Error): void => {
      if (this.dead) return;
      this.dead = true;
      onDead(this);
      const streams = [...this.#streams.values()];
      this.#streams.clear();
      for (const stream of streams) stream.failed(error);
    };
    this.#worker.on('error', (error) => die(new OpusWorkerError('the transcoding thread failed', { cause: error })));
    this.#worker.on('exit', (code) => die(new OpusWorkerError(`the transcoding thread exited (${code})`)));
  }

  get streams(): number {
    return this.#streams.size;
  }

  open(id: number, spec: TranscodeSpec, handlers: StreamHandlers): void {
    this.#streams.set(id, handlers);
    this.#opens.push([id, spec]);
  }

  write(id: number, chunk: Uint8Array, done: () => void): void {
    if (!this.#accepting(id)) return;
    this.#ids.push(id);
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    this.#after(id, done);
  }

  end(id: number, done: () => void): void {
    if (!this.#accepting(id)) return;
    this.#ends.push(id);
    this.#after(id, () => {
      this.#streams.delete(id);
      done();
    });
  }

  close(id: number): void {
    if (!this.#streams.delete(id)) return;
    this.#closes.push(id);
    this.#schedule();
  }

  #accepting(id: number): boolean {
    const stream = this.#streams.get(id);
    if (stream && !this.dead) return true;
    stream?.failed(new OpusWorkerError('the transcoding thread is gone'));
    return false;
  }

  #after(id: number, done: () => void): void {
    const list = this.#batch.get(id);
    if (list) list.push(done);
    else this.#batch.set(id, [done]);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // After the I/O of this turn: every stream that got bytes now joins the same batch.
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.dead) return;
    const data = Buffer.allocUnsafeSlow(this.#bytes);
    let at = 0;
    for (const chunk of this.#chunks) {
      data.set(chunk, at);
      at += chunk.length;
    }
    const request: TranscodeRequest = {
      opens: this.#opens, ids: this.#ids, lengths: this.#chunks.map((c) => c.length), data: data.buffer as ArrayBuffer,
      ends: this.#ends, closes: this.#closes,
    };
    this.#batches.push(this.#batch);
    this.#worker.ref();
    this.#worker.postMessage(request, [request.data]);
    this.#opens = [];
    this.#ids = [];
    this.#chunks = [];
    this.#bytes = 0;
    this.#ends = [];
    this.#closes = [];
    this.#batch = new Map();
  }

  #answer(reply: TranscodeReply): void {
    const batch = this.#batches.shift() ?? new Map<number, Array<() => void>>();
    if (this.#batches.length === 0) this.#worker.unref();
    for (const [id, failure] of reply.failed) {
      const stream = this.#streams.get(id);
      this.#streams.delete(id);
      batch.delete(id);
      stream?.failed(remake(failure));
    }
    const byStream = new Map<number, Buffer[]>();
    const data = Buffer.from(reply.data);
    let at = 0;
    for (let i = 0; i < reply.ids.length; i++) {
      const id = reply.ids[i] ?? -1;
      const length = reply.lengths[i] ?? 0;
      // A copy per packet from Node's shared pool (a view would keep the whole batch alive while one packet is cached).
      const packet = Buffer.allocUnsafe(length);
      data.copy(packet, 0, at, at + length);
      at += length;
      const list = byStream.get(id);
      if (list) list.push(packet);
      else byStream.set(id, [packet]);
    }
    for (const [id, callbacks] of batch) {
      const stream = this.#streams.get(id);
      const packets = byStream.get(id);
      if (stream && packets) stream.packets(packets);
      for (const callback of callbacks) callback();
    }
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

export class TranscodePool {
  readonly #workers: TranscodeWorker[] = [];
  readonly #size: number;
  #nextId = 0;

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  /** A transcoding stream on the least loaded worker (a new worker while the pool is not full). */
  stream(spec: TranscodeSpec): Transform {
    let worker: TranscodeWorker | undefined;
    if (this.#workers.length < this.#size) {
      worker = new TranscodeWorker((dead) => this.#workers.splice(this.#workers.indexOf(dead), 1));
      this.#workers.push(worker);
    } else {
      for (const w of this.#workers) if (!worker || w.streams < worker.streams) worker = w;
    }
    return new TranscodeStream(worker as TranscodeWorker, this.#nextId++, spec);
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
    this.#worker.write(this.#id, chunk, () => {
      if (!this.destroyed) callback();
    });
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
