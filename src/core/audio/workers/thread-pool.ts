// A few job threads (job-thread.ts) as one pool: each job goes to the least loaded thread, and an owner (a server) has
// a share of the pool (./work-classes.ts FairShares) so its burst never holds up another's; long work also rations
// each member (`perMember`). Short work's jobs are counted so long work waits for them (./work-turns.ts) at lower
// priority (./thread-priority.ts). One pool per work class: classedPools.
import { JobThread, type JobThreadFailure, type JobThreadOptions } from './job-thread.ts';
import { FairShares, LONG_WORK_WALL_CEILING_MS, type WorkClass } from './work-classes.ts';
import { longWorkTurn, shortWorkBegins } from './work-turns.ts';
import { traceWork, tracing } from './work-trace.ts';

/** Each thread's worker and limits, as ./job-thread.ts takes them (long work is limited by its CPU time). */
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
  /** Its work class: short unless said (./work-classes.ts). */
  workClass?: WorkClass;
}

/** What a pool's worker is given (`workerData`): its work class, by which it sets its own priority. */
export interface PoolWorkerData {
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

  /** Each live thread's state (./job-thread.ts `state`); threads ended while idle are left out. */
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
