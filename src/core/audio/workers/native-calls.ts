// A worker thread that may be inside a native addon's call is never ended from outside. worker.terminate() stops the
// thread's environment at once; an addon built on node-addon-api (@discordjs/opus) whose call is under way then
// fails to throw into the stopping thread and, by that library's design, aborts the whole process ("FATAL ERROR:
// Error::ThrowAsJavaScriptException napi_throw", nodejs/node-addon-api#902; only an addon built with
// NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS is spared, and @discordjs/opus's prebuilt binary is not). JavaScript and
// WebAssembly stop safely wherever they are.
//
// So each such thread shares one word with the main thread: FREE (outside any native call), NATIVE (inside one) or
// RETIRE (told to leave). The thread wraps each native call in nativeCall(); the main thread retires it with
// NativeCallGuard.retire(). Both sides change the word atomically, so exactly one of them acts: a thread told to retire
// while FREE is ended from outside at once and never enters another native call; a thread told while NATIVE finishes
// that one call and then leaves by itself (process.exit in a worker ends only that thread), between two calls.
import { isMainThread, workerData, type Worker } from 'node:worker_threads';

const FREE = 0;
const NATIVE = 1;
const RETIRE = 2;

/** The exit code of a thread that left by itself when told to retire. */
export const RETIRED_EXIT_CODE = 75;

/** What a guarded thread finds in its `workerData`: the word it shares with the main thread. */
export interface NativeCallsData {
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

  /**
   * Tells the thread to retire. 'now': it is in no native call and will enter none, so it may be ended from outside
   * at once; 'by-itself': it is inside one, and leaves when that call returns (exit code RETIRED_EXIT_CODE). Asked
   * again, the first answer stands.
   */
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

/**
 * Runs `call`, a call into a native addon, in a thread that is never ended from outside while it runs. Told to retire
 * before or during it, the thread leaves instead of starting it, or as soon as it returns.
 */
export function nativeCall<T>(call: () => T): T {
  if (word === undefined) return call();
  if (Atomics.compareExchange(word, 0, FREE, NATIVE) === RETIRE) leave();
  try {
    return call();
  } finally {
    if (Atomics.compareExchange(word, 0, NATIVE, FREE) === RETIRE) leave();
  }
}

/**
 * The threads of one pool told to retire while inside a native call, until each leaves. A native call of ours takes
 * microseconds (a 20 ms Opus frame), so one that is still under way long after is stuck, and its thread cannot be
 * reclaimed: neither ended (that aborts the process) nor left. So at most `bound` of them at once: past that the pool
 * starts no new thread until one leaves (its work fails at once instead, or goes to its threads still running), and
 * the first time it is reached is said once on stderr. Not an exit: under heavy load retiring threads are slow to be
 * given a core, not stuck, and they leave within a native call's time once they get one, so exiting the process would
 * turn a busy host into every voice stopping; and a stuck one, counted here, costs a thread, not the bot.
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

  /**
   * Retires `worker`: ended from outside at once if it is in no native call, else counted until it leaves by itself
   * (it no longer keeps the process alive). Resolves once it is gone, or after `waitMs` while it is not.
   */
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
    // A bounded wait (a pool closed, the process about to exit) keeps the process up until the thread has left: the
    // thread no longer does, and a process whose event loop empties meanwhile exits with the thread inside its call.
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      void gone.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
