// SayBot's audio work off the main thread, so decoding never stalls its 20 ms voice cycle: worker threads taking one
// job at a time (JobThread), a few of them as one pool (ThreadPool), one pool per class of work (classedPools), and
// each server's fair share of them (./fair-shares.ts).
//
// Two classes of work never share a thread or a queue. A job's class is its cost (seconds of audio made, mixed or
// encoded; bytes copied: workClassOf), never its kind, so a long job of one server never runs beside a short job of
// another. Long work also runs in slices yielding to short work (./slices.ts, ./work-turns.ts), at the lowest
// priority (./thread-priority.ts), rationed per member. Used by ../jobs/audio-thread/audio-thread.ts and
// src/core/free-voice/free-voice-engine.ts (bounds: docs/architecture.md).
//
// A thread's few waiting jobs go owners (servers) in turn; past that, or past the time limit, a job is refused. An idle
// worker is ended; a crashed or stuck one, or one replying `retire: true` (its engine trapped on that job, so the next
// job is not blamed), is replaced. A sliced job gives its turn back between slices and its limit stops while it waits.
// Long work's limit counts its own CPU time (a low-priority thread on a busy host gets little of a core) under a
// wall-clock ceiling. A thread's start and setup (./thread-setup.ts) have their own bound. A pool gives each job to its
// least loaded thread, and an owner a share of the pool so its burst never holds up another's; long work also rations
// each member (`perMember`). Short work's jobs are counted so long work waits for them (./work-turns.ts).
import { Worker } from 'node:worker_threads';
import type { SetupMessage } from './thread-setup.ts';
import { longWorkTurn, shortWorkBegins, type WorkClass } from './work-turns.ts';
import { traceWork, tracing } from './work-trace.ts';
import { FairShares } from './fair-shares.ts';

/** Short work's most seconds of audio: about a third of a second of a core (docs/benchmarks.md). */
export const SHORT_WORK_SECONDS = 20;

/** Short work's most bytes copied: a /say of a few parts joins in milliseconds; more is long work. */
export const SHORT_WORK_BYTES = 2 * 1024 * 1024;

/** Long work's wall-clock bound: ten minutes keeps an answer within the interaction's fifteen. */
const LONG_WORK_WALL_CEILING_MS = 10 * 60_000;

/** What a job will cost: seconds of audio it makes, mixes or encodes, and bytes it copies (either may be 0). */
interface WorkCost {
  seconds?: number;
  bytes?: number;
}

/** A job's class from its cost: short while both are within short work's sizes, long past either. */
export function workClassOf({ seconds = 0, bytes = 0 }: WorkCost): WorkClass {
  return seconds <= SHORT_WORK_SECONDS && bytes <= SHORT_WORK_BYTES ? 'short' : 'long';
}

/** 'owner-busy': the server already has its share under way or waiting; 'member-busy': the member's long-job ration. */
export type JobThreadFailure = 'busy' | 'owner-busy' | 'member-busy' | 'timeout' | 'crashed';

interface JobThreadOptions {
  /** The worker's module: it answers each message `{ id, ... }` with one message carrying the same `id`. */
  worker: URL;
  /** Jobs waiting behind the one under way. */
  maxWaiting: number;
  /** One job's limit (unless its run() gives its own); past it the worker is replaced. */
  timeoutMs: number;
  /** 'wall' (default): the time the job runs, not its waits; 'cpu': its thread's CPU time, bounded by `wallCeilingMs`. */
  limitBy?: 'wall' | 'cpu';
  /** With `limitBy: 'cpu'`, how long a job may take from its start however little CPU it gets (waits included). */
  wallCeilingMs?: number;
  /** A thread's setup for a job (./thread-setup.ts) may take this long, outside the job's limit; SETUP_CEILING_MS if absent. */
  setupCeilingMs?: number;
  /** An idle worker is ended after this. */
  idleMs: number;
  /** The error a job that cannot run gets (the caller's own type, so its words reach the member). */
  unavailable: (reason: JobThreadFailure, message: string, cause?: unknown) => Error;
  /** Given to the worker as its `workerData` (its work class, so it sets its own priority). */
  workerData?: unknown;
  /** Awaited before a job starts and after each of its slices (long work's turn); none: at once. */
  turn?: () => Promise<void>;
  /** Told each step of a job (./work-trace.ts). */
  onEvent?: (event: 'start' | 'setup' | 'set-up' | 'slice' | 'resume' | 'end', owner: string) => void;
}

/** A job's worker gives a turn back between two slices, and waits for `{ go: id }`. */
interface SliceMessage {
  id: number;
  slice: true;
}

function isSlice<R extends object>(message: R | SliceMessage | SetupMessage): message is SliceMessage {
  return 'slice' in message && message.slice === true;
}

/** Said by the loader (LOADER) once a new thread's module is loaded: it takes jobs from then on. */
interface LoadedMessage {
  loaded: true;
}

function isLoaded(message: object): message is LoadedMessage {
  return 'loaded' in message && message.loaded === true;
}

/** A new thread runs this first: it loads the worker (named in argv, keeping `workerData` its own). */
const LOADER = `
const { parentPort } = require('node:worker_threads');
import(process.argv[2]).then(() => parentPort.postMessage({ loaded: true }));
`;

function isSetup<R extends object>(message: R | SliceMessage | SetupMessage): message is SetupMessage {
  return 'setup' in message && typeof message.setup === 'boolean';
}

/** A thread's setup bound: eSpeak NG and the Japanese analyser load in ~1 s of a core; a nice thread gets less. */
export const SETUP_CEILING_MS = 120_000;

interface Waiting<J, R> {
  job: J & { id: number };
  transfer: ArrayBuffer[];
  owner: string;
  timeoutMs: number;
  resolve: (reply: R) => void;
  reject: (error: Error) => void;
}

/** How long a worker's heap statistics are waited for (the owner console's figure). */
const HEAP_ANSWER_MS = 1000;

interface Running<J, R> extends Waiting<J, R> {
  timer: NodeJS.Timeout | undefined;
  /** Of its time limit, what is left; counted from `since` while it runs (with `limitBy: 'cpu'`, till the next look). */
  left: number;
  since: number;
  /** With `limitBy: 'cpu'`: its thread's CPU time in ms when it started, and its wall-clock ceiling. */
  cpuStart: number;
  ceiling: NodeJS.Timeout | undefined;
  /** While its thread sets itself up: the setup's bound, and (`limitBy: 'cpu'`) the thread's CPU time when it began. */
  setup?: { ceiling: NodeJS.Timeout; cpuStart: Promise<number | undefined> };
}

/** `promise`'s value, or `fallback` once `ms` passed. */
async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A worker's thread's CPU time so far, in ms; undefined when it is not running (not yet, or no more). */
async function threadCpuMs(worker: Worker): Promise<number | undefined> {
  try {
    const { user, system } = await worker.cpuUsage();
    return (user + system) / 1000;
  } catch {
    return undefined;
  }
}

export class JobThread<J extends object, R extends { id: number; retire?: boolean }> {
  readonly #options: JobThreadOptions;
  #worker: Worker | undefined;
  /** Resolves once the live worker's module is loaded (it takes jobs, and its CPU time can be read, from then on). */
  #loaded: Promise<void> = Promise.resolve();
  #current: Running<J, R> | undefined;
  /** Its one slot, owners in turn. */
  readonly #turns: FairShares;
  #idle: NodeJS.Timeout | undefined;
  #nextId = 0;
  /** The live worker's last reply: what it says of its own state (forgotten with the worker). */
  #lastReply: R | undefined;

  constructor(options: JobThreadOptions) {
    this.#options = options;
    const busy = (words: string) => options.unavailable('busy', words);
    this.#turns = new FairShares({ perOwner: Infinity, slots: 1, maxWaiting: options.maxWaiting, jobs: 'jobs', busy });
  }

  /** Jobs under way and waiting. */
  get load(): number {
    return this.#turns.load;
  }

  /** The live worker, if one runs: its last reply and its heap and external memory in bytes. */
  async state(): Promise<{ lastReply: R | undefined; memoryBytes: number } | undefined> {
    const worker = this.#worker;
    if (worker === undefined) return undefined;
    const lastReply = this.#lastReply;
    // Bounded: a worker that does not say within a second (however busy) counts as 0 bytes for now.
    const heap = await within(
      worker.getHeapStatistics().catch(() => undefined),
      HEAP_ANSWER_MS,
      undefined,
    );
    return { lastReply, memoryBytes: heap === undefined ? 0 : heap.used_heap_size + heap.external_memory };
  }

  /** Runs `job` (`transfer` moved) in `owner`'s turn; `timeoutMs` overrides the limit. */
  async run(job: J, transfer: ArrayBuffer[] = [], owner = '', timeoutMs = this.#options.timeoutMs): Promise<R> {
    const release = await this.#turns.take(owner);
    try {
      return await new Promise<R>((resolve, reject) =>
        this.#start({ job: { ...job, id: this.#nextId++ }, transfer, owner, timeoutMs, resolve, reject }),
      );
    } finally {
      release();
      // Nothing more to do: the worker lets the process end, and ends itself once idle for long.
      if (this.#turns.load === 0) {
        this.#worker?.unref();
        this.#idle ??= setTimeout(() => this.#stop(), this.#options.idleMs).unref();
      }
    }
  }

  #start(waiting: Waiting<J, R>): void {
    clearTimeout(this.#idle);
    this.#idle = undefined;
    const current: Running<J, R> = {
      ...waiting,
      timer: undefined,
      left: waiting.timeoutMs,
      since: 0,
      cpuStart: 0,
      ceiling: undefined,
    };
    this.#current = current;
    const posted = (this.#options.turn?.() ?? Promise.resolve()).then(async () => {
      if (this.#current !== current) return;
      const worker = this.#ensureWorker();
      worker.ref();
      // A new thread's start and its module's first load are the thread's, not the job's: its limit starts after.
      if (!(await this.#whenLoaded(current))) return;
      if (this.#options.limitBy === 'cpu') {
        current.cpuStart = (await threadCpuMs(worker)) ?? 0;
        if (this.#current !== current) return;
        this.#ceiling(current);
      }
      this.#options.onEvent?.('start', current.owner);
      this.#arm(current);
      worker.postMessage(current.job, current.transfer);
    });
    // Thrown before the worker had the job (its thread's start, or a job that cannot be posted): nothing would answer
    // it, so it fails now and run() gives its slot back. The worker, if one runs, never saw it and is kept.
    void posted.catch((error: unknown) => {
      if (this.#current !== current) return;
      this.#end(current);
      current.reject(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** Whether the worker's module loaded for `current`; past the setup bound the job fails as a timeout. */
  async #whenLoaded(current: Running<J, R>): Promise<boolean> {
    const ceilingMs = this.#options.setupCeilingMs ?? SETUP_CEILING_MS;
    const loaded = await within(
      this.#loaded.then(
        () => true,
        () => false,
      ),
      ceilingMs,
      false,
    );
    if (this.#current !== current) return false;
    if (!loaded) {
      const message = `the thread did not start within ${ceilingMs} ms`;
      this.#fail(this.#options.unavailable('timeout', message));
    }
    return loaded;
  }

  /** The job's time limit runs again, for what is left of it; with `limitBy: 'cpu'`, its CPU time is looked at then. */
  #arm(current: Running<J, R>): void {
    const { unavailable, limitBy } = this.#options;
    const { timeoutMs } = current;
    current.since = performance.now();
    current.timer = setTimeout(
      () =>
        limitBy === 'cpu'
          ? this.#lookAtCpu(current)
          : this.#fail(unavailable('timeout', `the job did not finish within ${timeoutMs} ms`)),
      current.left,
    );
  }

  /** Fails the job once its thread has spent its limit of CPU time on it; else looks again when it could have. */
  #lookAtCpu(current: Running<J, R>): void {
    const worker = this.#worker;
    if (worker === undefined) return;
    void threadCpuMs(worker).then((now) => {
      // During a setup the job's limit stops; it is looked at again once the setup ends.
      if (this.#current !== current || this.#worker !== worker || current.setup) return;
      const used = now === undefined ? Infinity : now - current.cpuStart;
      if (used >= current.timeoutMs) {
        const message = `the job did not finish within ${current.timeoutMs} ms of its own CPU time`;
        this.#fail(this.#options.unavailable('timeout', message));
        return;
      }
      // The soonest it could have spent the rest (a thread uses at most its own time), and no busier than 10 ms.
      current.left = Math.max(10, current.timeoutMs - used);
      this.#arm(current);
    });
  }

  /** With `limitBy: 'cpu'`: the job's bound in time from its start, however little of a core it got. */
  #ceiling(current: Running<J, R>): void {
    const ceilingMs = this.#options.wallCeilingMs ?? current.timeoutMs;
    current.ceiling = setTimeout(() => {
      if (this.#current !== current) return;
      this.#fail(this.#options.unavailable('timeout', `the job did not finish within ${ceilingMs} ms`));
    }, ceilingMs);
  }

  /** A slice ended: the time limit stops while the job waits for its turn, then it is told to go on. */
  #slice(current: Running<J, R>): void {
    clearTimeout(current.timer);
    current.left -= performance.now() - current.since;
    this.#options.onEvent?.('slice', current.owner);
    void (this.#options.turn?.() ?? Promise.resolve()).then(() => {
      if (this.#current !== current) return;
      this.#options.onEvent?.('resume', current.owner);
      this.#arm(current);
      this.#worker?.postMessage({ go: current.job.id });
    });
  }

  /** The thread sets itself up: the job's limit stops (its wall-clock ceiling does not), the setup's own bound runs. */
  #setupBegins(current: Running<J, R>): void {
    if (current.setup) return;
    this.#options.onEvent?.('setup', current.owner);
    clearTimeout(current.timer);
    const { limitBy, unavailable } = this.#options;
    if (limitBy !== 'cpu') current.left -= performance.now() - current.since;
    const ceilingMs = this.#options.setupCeilingMs ?? SETUP_CEILING_MS;
    const ceiling = setTimeout(() => {
      if (this.#current !== current) return;
      this.#fail(unavailable('timeout', `the thread's setup for the job did not finish within ${ceilingMs} ms`));
    }, ceilingMs);
    const worker = this.#worker;
    const cpuStart = limitBy === 'cpu' && worker ? threadCpuMs(worker) : Promise.resolve(undefined);
    current.setup = { ceiling, cpuStart };
  }

  /** The setup ended: the job's limit runs again for what is left of it; with `limitBy: 'cpu'`, less the setup's CPU. */
  #setupEnds(current: Running<J, R>): void {
    const setup = current.setup;
    if (!setup) return;
    current.setup = undefined;
    clearTimeout(setup.ceiling);
    this.#options.onEvent?.('set-up', current.owner);
    const worker = this.#worker;
    if (this.#options.limitBy !== 'cpu' || worker === undefined) return this.#arm(current);
    void Promise.all([setup.cpuStart, threadCpuMs(worker)]).then(([before, after]) => {
      if (this.#current !== current || current.setup) return;
      if (before !== undefined && after !== undefined) current.cpuStart += after - before;
      this.#lookAtCpu(current);
    });
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const { unavailable } = this.#options;
    const worker = new Worker(LOADER, {
      eval: true,
      argv: [this.#options.worker.href],
      workerData: this.#options.workerData,
    });
    const loaded = Promise.withResolvers<void>();
    this.#loaded = loaded.promise;
    // A thread that ends before it loaded: its job is failed by the exit below; nothing waits for the load.
    loaded.promise.catch(() => undefined);
    worker.once('exit', () => loaded.reject(new Error('the worker thread ended')));
    worker.on('message', (reply: R | SliceMessage | SetupMessage | LoadedMessage) => {
      if (isLoaded(reply)) loaded.resolve();
      else this.#answer(reply);
    });
    worker.on('error', (error) => this.#fail(unavailable('crashed', 'the worker thread failed', error)));
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#fail(unavailable('crashed', `the worker thread exited (${code})`));
    });
    this.#worker = worker;
    return worker;
  }

  #answer(reply: R | SliceMessage | SetupMessage): void {
    const current = this.#current;
    if (!current || current.job.id !== reply.id) return;
    if (isSlice(reply)) return this.#slice(current);
    if (isSetup(reply)) return reply.setup ? this.#setupBegins(current) : this.#setupEnds(current);
    this.#end(current);
    this.#lastReply = reply;
    if (reply.retire === true) this.#stop();
    current.resolve(reply);
  }

  /** The job under way fails with `error`; the worker is replaced, and the jobs waiting go on. */
  #fail(error: Error): void {
    const current = this.#current;
    if (current) {
      this.#end(current);
      current.reject(error);
    }
    this.#stop();
  }

  #end(current: Running<J, R>): void {
    clearTimeout(current.timer);
    clearTimeout(current.ceiling);
    clearTimeout(current.setup?.ceiling);
    this.#current = undefined;
    this.#options.onEvent?.('end', current.owner);
  }

  #stop(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#lastReply = undefined;
    clearTimeout(this.#idle);
    this.#idle = undefined;
    void worker?.terminate();
  }
}

/** Each thread's worker and limits, as JobThread takes them (long work is limited by its CPU time). */
export interface ThreadPoolOptions extends Pick<
  JobThreadOptions,
  'worker' | 'timeoutMs' | 'wallCeilingMs' | 'setupCeilingMs' | 'idleMs'
> {
  /** How its errors name it ("audio thread", "free voice"). */
  name: string;
  /** What it calls a job in its errors ("jobs", "lines"). */
  jobs: string;
  threads: number;
  /** Jobs waiting behind the one under way, per thread. */
  maxWaitingPerThread: number;
  /** Jobs one owner may have under way or waiting. */
  perOwner: number;
  /** Jobs one member (of an owner) may have under way or waiting; none when absent. */
  perMember?: number;
  /** The error a job that cannot run gets (the caller's own type, so its words reach the member). */
  unavailable: (reason: JobThreadFailure, message: string, options?: ErrorOptions & { limit?: number }) => Error;
  /** Its work class: short unless said (workClassOf). */
  workClass?: WorkClass;
}

/** What a pool's worker is given (`workerData`): its work class, by which it sets its own priority. */
interface PoolWorkerData {
  workClass: WorkClass;
}

export class ThreadPool<J extends object, R extends { id: number; retire?: boolean }> {
  readonly #threads: ReadonlyArray<JobThread<J, R>>;
  readonly #owners: FairShares;
  readonly #members: FairShares | undefined;
  readonly #workClass: WorkClass;

  constructor(options: ThreadPoolOptions) {
    const { name, jobs, perOwner, unavailable } = options;
    const workClass = options.workClass ?? 'short';
    this.#workClass = workClass;
    const workerData: PoolWorkerData = { workClass };
    this.#threads = Array.from(
      { length: options.threads },
      (_, thread) =>
        new JobThread<J, R>({
          worker: options.worker,
          maxWaiting: options.maxWaitingPerThread,
          timeoutMs: options.timeoutMs,
          ...(workClass === 'long'
            ? { limitBy: 'cpu' as const, ...(options.wallCeilingMs ? { wallCeilingMs: options.wallCeilingMs } : {}) }
            : {}),
          idleMs: options.idleMs,
          ...(options.setupCeilingMs === undefined ? {} : { setupCeilingMs: options.setupCeilingMs }),
          unavailable: (reason, message, cause) =>
            unavailable(reason, `${name}: ${message}`, cause === undefined ? undefined : { cause }),
          workerData,
          ...(workClass === 'long' ? { turn: longWorkTurn } : {}),
          onEvent: (event, owner) => {
            if (tracing()) traceWork({ pool: name, workClass, thread, owner, event });
          },
        }),
    );
    const busy = (reason: 'owner-busy' | 'member-busy', limit: number) => (words: string) =>
      unavailable(reason, `${name}: ${words}`, { limit });
    this.#owners = new FairShares({ perOwner, jobs, busy: busy('owner-busy', perOwner) });
    const { perMember } = options;
    this.#members =
      perMember === undefined
        ? undefined
        : new FairShares({ perOwner: perMember, who: 'this member', jobs, busy: busy('member-busy', perMember) });
  }

  /** Each live thread's state (JobThread `state`); threads ended while idle are left out. */
  async liveThreads(): Promise<Array<{ lastReply: R | undefined; memoryBytes: number }>> {
    const states = await Promise.all(this.#threads.map((thread) => thread.state()));
    return states.filter((state) => state !== undefined);
  }

  /** Runs `job` on the least loaded thread in `owner`'s share (and `member`'s, with `perMember`); `timeoutMs` overrides. */
  run(
    job: J,
    transfer: ArrayBuffer[] = [],
    owner = '',
    options: { timeoutMs?: number; member?: string } = {},
  ): Promise<R> {
    const thread = this.#threads.reduce((least, next) => (next.load < least.load ? next : least));
    const queued = () => this.#owners.run(owner, () => thread.run(job, transfer, owner, options.timeoutMs));
    const member = options.member ?? '';
    const reply = this.#members && member !== '' ? this.#members.run(`${owner}:${member}`, queued) : queued();
    if (this.#workClass === 'long') return reply;
    const done = shortWorkBegins();
    return reply.finally(done);
  }
}

/** One pool per class; `long` overrides what differs from `short` (threads, bounds, the member's ration). */
export function classedPools<J extends object, R extends { id: number; retire?: boolean }>(
  short: ThreadPoolOptions,
  long: Partial<ThreadPoolOptions> & { perMember: number },
): Record<WorkClass, ThreadPool<J, R>> {
  return {
    short: new ThreadPool<J, R>(short),
    long: new ThreadPool<J, R>({
      ...short,
      name: `${short.name} (long work)`,
      wallCeilingMs: LONG_WORK_WALL_CEILING_MS,
      ...long,
      workClass: 'long',
    }),
  };
}
