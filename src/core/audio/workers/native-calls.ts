// A worker thread that may be inside a native addon's call is never ended from outside: terminate() during a call of
// a node-addon-api addon (@discordjs/opus) aborts the whole process (nodejs/node-addon-api#902). So each such thread
// shares one word with the main thread, OUTSIDE, NATIVE or RETIRE, changed atomically: a thread told to retire while OUTSIDE
// is ended at once; while NATIVE it finishes that call and leaves by itself (process.exit ends only the worker).
import { isMainThread, workerData, type Worker } from 'node:worker_threads';

const OUTSIDE = 0;
const NATIVE = 1;
const RETIRE = 2;

/** The exit code of a thread that left by itself when told to retire. */
export const RETIRED_EXIT_CODE = 75;

/** What a guarded thread finds in its `workerData`: the word it shares with the main thread. */
interface NativeCallsData {
  nativeCalls: SharedArrayBuffer;
}

/** The main thread's side: one per worker thread, whose `workerData` carries `data`. */
export class NativeCallGuard {
  readonly #buffer = new SharedArrayBuffer(4);
  readonly #word = new Int32Array(this.#buffer);
  #verdict: 'now' | 'by-itself' | undefined;

  /** To merge into the worker's `workerData`. */
  get data(): NativeCallsData {
    return { nativeCalls: this.#buffer };
  }

  /** Retires the thread: 'now' (in no native call) or 'by-itself' (on return, RETIRED_EXIT_CODE); first answer stands. */
  retire(): 'now' | 'by-itself' {
    this.#verdict ??= Atomics.exchange(this.#word, 0, RETIRE) === NATIVE ? 'by-itself' : 'now';
    return this.#verdict;
  }
}

function sharedWord(data: unknown): Int32Array | undefined {
  if (isMainThread || typeof data !== 'object' || data === null || !('nativeCalls' in data)) return undefined;
  const buffer = (data as { nativeCalls: unknown }).nativeCalls;
  return buffer instanceof SharedArrayBuffer ? new Int32Array(buffer) : undefined;
}

/** This thread's word, when it was started with a NativeCallGuard's data; none elsewhere (calls run as they are). */
const word = sharedWord(workerData);

function leave(): never {
  process.exit(RETIRED_EXIT_CODE);
}

/** Runs `call` (a native addon call) so its thread is never ended mid-call; told to retire, it leaves. */
export function nativeCall<T>(call: () => T): T {
  if (word === undefined) return call();
  if (Atomics.compareExchange(word, 0, OUTSIDE, NATIVE) === RETIRE) leave();
  try {
    return call();
  } finally {
    if (Atomics.compareExchange(word, 0, NATIVE, OUTSIDE) === RETIRE) leave();
  }
}

/**
 * A pool's threads told to retire inside a native call, until each leaves. Our calls take microseconds, so one still
 * under way is stuck and its thread cannot be reclaimed: at most `bound` at once, then the pool starts no new thread
 * (said once on stderr). Not an exit: under load a retiring thread is slow, not stuck, and exiting would stop every
 * voice.
 */
export class RetiringThreads {
  readonly #name: string;
  readonly #bound: number;
  #count = 0;
  #said = false;

  constructor(name: string, bound: number) {
    this.#name = name;
    this.#bound = Math.max(1, bound);
  }

  /** Threads told to retire inside a native call that have not left yet. */
  get count(): number {
    return this.#count;
  }

  /** Whether a new thread may be started: fewer than the bound are still retiring. */
  get room(): boolean {
    return this.#count < this.#bound;
  }

  /** Retires `worker`: at once if in no native call, else counted until it leaves; resolves when gone or after `waitMs`. */
  retire(worker: Worker, guard: NativeCallGuard, waitMs = Infinity): Promise<void> {
    if (guard.retire() === 'now') return worker.terminate().then(() => undefined);
    // Gone already (its 'exit' may be on its way): nothing to wait for.
    if (worker.threadId === -1) return Promise.resolve();
    worker.unref();
    this.#count += 1;
    const gone = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        this.#count -= 1;
        resolve();
      }),
    );
    if (!this.room && !this.#said) {
      this.#said = true;
      process.emitWarning(
        `${this.#name}: ${this.#count} threads told to retire are still inside a native call; no new thread is ` +
          'started until one leaves',
        { code: 'SAYBOT_RETIRING_THREADS' },
      );
    }
    if (waitMs === Infinity) return gone;
    // A bounded wait keeps the process up until the thread left: exiting with it inside its call would abort.
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      void gone.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
