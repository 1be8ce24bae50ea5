// A server's fair share of some work, and the one queue in turn for slots: ./job-thread.ts' pools and threads, engines.
/** Lines one server may have under way or waiting at one free voice (eSpeak NG's pool, each engine): its share. */
export const FREE_LINES_PER_GUILD = 4;

/** What a job's owner may hold of some work, and the slots its jobs wait for (./job-thread.ts' pools, the engines). */
export interface ShareOptions {
  /** Jobs one owner may have under way or waiting; an owner '' (none) has no share. */
  perOwner: number;
  /** The error a job refused for room gets, in the caller's own type; `words` say which room. */
  busy: (words: string) => Error;
  /** What the words call an owner and its jobs: `this server` and `lines` unless said. */
  who?: string;
  jobs?: string;
  /** Jobs under way at once (an engine's CPU); absent: each starts as it comes (a pool's threads queue it). */
  slots?: number;
  /** Jobs waiting for a slot, in all. */
  maxWaiting?: number;
  /** How long a job may wait for its slot. */
  maxWaitMs?: number;
}

interface Ticket {
  owner: string;
  long: boolean;
  /** Its turn came: it leaves the waiting line with its slot. */
  go: () => void;
  /** It leaves the waiting line without a slot, refused with `error`. */
  drop: (error: unknown) => void;
}

/**
 * Each owner's (a server's) fair share of a kind of work: at most `perOwner` jobs under way or waiting, each held until
 * its release (a thread's reply; an engine's line until its streamed audio ends), so a burst takes only its share.
 * With `slots`, jobs also wait for one of them in turn: the next slot to each owner's first job, the owner served least
 * recently first (so a flood never delays another owner's job by more than the jobs under way), long work never in the
 * last slot (short work waits for one short job at most), a waiting job cancellable by its signal.
 */
export class FairShares {
  readonly #options: Required<Omit<ShareOptions, 'slots'>> & { slots: number };
  /** Each owner with jobs: how many it has under way or waiting, and when it last had one go (the count of goes). */
  readonly #owners = new Map<string, { jobs: number; lastServed: number }>();
  /** The jobs waiting for a slot, in the order they came. */
  readonly #waiting: Ticket[] = [];
  #inFlight = 0;
  #longInFlight = 0;
  #served = 0;

  constructor(options: ShareOptions) {
    this.#options = {
      who: 'this server',
      jobs: 'lines',
      slots: Infinity,
      maxWaiting: Infinity,
      maxWaitMs: Infinity,
      ...options,
    };
  }

  /** Jobs taken and not yet released: under way or waiting for a slot. */
  get load(): number {
    return this.#inFlight + this.#waiting.length;
  }

  /** Counts a job of `owner` against its share from now: its release (once), or throws `busy` past the share. */
  hold(owner: string): () => void {
    const { perOwner, busy, who, jobs } = this.#options;
    const held = this.#owners.get(owner) ?? { jobs: 0, lastServed: 0 };
    if (owner !== '' && held.jobs >= perOwner)
      throw busy(`${who} already has ${perOwner} ${jobs} under way or waiting`);
    held.jobs += 1;
    this.#owners.set(owner, held);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if ((held.jobs -= 1) === 0) this.#owners.delete(owner);
    };
  }

  /** `work` run in `owner`'s share, counted until it ends. */
  async run<T>(owner: string, work: () => Promise<T>): Promise<T> {
    const release = this.hold(owner);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * A slot for a job of `owner` once its turn comes, in its share: resolves with its release, to call once the job is
   * done (its audio over). Rejects at once past the share or the waiting bound, later past `maxWaitMs` or with the
   * signal's reason when it fires while the job waits.
   */
  async take(owner: string, signal?: AbortSignal, long = false): Promise<() => void> {
    signal?.throwIfAborted();
    const { maxWaiting, jobs, busy } = this.#options;
    if (this.#waiting.length >= maxWaiting) throw busy(`${maxWaiting} ${jobs} are already waiting`);
    // Counted at the call, nothing awaited before: a pool picks its least loaded thread by `load`.
    const share = this.hold(owner);
    return new Promise<() => void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => ticket.drop(signal?.reason);
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiting.splice(this.#waiting.indexOf(ticket), 1);
      };
      const ticket: Ticket = {
        owner,
        long,
        go: () => {
          leave();
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#inFlight -= 1;
            if (long) this.#longInFlight -= 1;
            share();
            this.#pump();
          });
        },
        drop: (error) => {
          leave();
          share();
          reject(error);
        },
      };
      this.#waiting.push(ticket);
      this.#pump();
      if (!this.#waiting.includes(ticket)) return;
      signal?.addEventListener('abort', onAbort, { once: true });
      const { maxWaitMs } = this.#options;
      if (Number.isFinite(maxWaitMs))
        timer = setTimeout(() => ticket.drop(busy(`it waited ${maxWaitMs} ms for its turn`)), maxWaitMs);
    });
  }

  /** The next jobs to go: each owner's first, the least recently served's first, a long one only where a slot stays. */
  #pump(): void {
    const { slots } = this.#options;
    const longSlots = Math.max(1, slots - 1);
    const lastServed = (ticket: Ticket): number => this.#owners.get(ticket.owner)?.lastServed ?? 0;
    while (this.#inFlight < slots) {
      const firsts = new Set<string>();
      let next: Ticket | undefined;
      for (const ticket of this.#waiting) {
        // A long job that must wait for a long slot lets its owner's short work behind it go meanwhile.
        if (firsts.has(ticket.owner) || (ticket.long && this.#longInFlight >= longSlots)) continue;
        firsts.add(ticket.owner);
        if (next === undefined || lastServed(ticket) < lastServed(next)) next = ticket;
      }
      if (next === undefined) return;
      this.#inFlight += 1;
      if (next.long) this.#longInFlight += 1;
      this.#owners.get(next.owner)!.lastServed = ++this.#served;
      next.go();
    }
  }

  /** Refuses every waiting job with `error` (the work is closing). */
  clear(error: Error): void {
    for (const ticket of [...this.#waiting]) ticket.drop(error);
  }
}
