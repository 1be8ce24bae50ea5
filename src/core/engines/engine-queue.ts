// The lines waiting for one engine, served fairly: at most `maxInFlight` sent at once (the owner's CPU), the next slot
// to the server served least recently (so a server's flood never delays another server's line by more than the
// renders already under way), at most `perGuild` lines of one server waiting or under way (its share; past it refused
// as busy), at most `maxWaiting` waiting in all, and none waiting longer than `maxWaitMs`. A line is cancellable by its
// signal: waiting, it leaves the queue; under way, its work sees the signal and stops.

export interface QueueOptions {
  maxInFlight: number;
  perGuild: number;
  maxWaiting: number;
  maxWaitMs: number;
}

export const DEFAULT_QUEUE: Readonly<QueueOptions> = Object.freeze({
  maxInFlight: 2,
  perGuild: 4,
  maxWaiting: 32,
  maxWaitMs: 120_000,
});

interface Ticket {
  start: () => void;
  /** Leaves the queue (an abort, a timeout, a close) and rejects with `error`. */
  drop: (error: unknown) => void;
}

interface GuildLines {
  waiting: Ticket[];
  inFlight: number;
  /** When it last had a line sent (the queue's own count); 0: not while it has had lines here. */
  lastServed: number;
}

export class FairQueue {
  readonly #options: QueueOptions;
  readonly #busy: (words: string) => Error;
  readonly #guilds = new Map<string, GuildLines>();
  #waiting = 0;
  #inFlight = 0;
  #served = 0;

  /** `busy` makes the error a line refused for room gets (the engine's own). */
  constructor(options: Partial<QueueOptions>, busy: (words: string) => Error) {
    this.#options = { ...DEFAULT_QUEUE, ...options };
    this.#busy = busy;
  }

  get waiting(): number {
    return this.#waiting;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Runs `work` when its turn comes; rejects at once when there is no room, or with the signal's reason if aborted. */
  run<T>(guildId: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    signal?.throwIfAborted();
    const { perGuild, maxWaiting, maxWaitMs } = this.#options;
    const guild = this.#guilds.get(guildId) ?? { waiting: [], inFlight: 0, lastServed: 0 };
    if (guild.waiting.length + guild.inFlight >= perGuild)
      return Promise.reject(this.#busy(`this server already has ${perGuild} lines waiting or being spoken`));
    if (this.#waiting >= maxWaiting) return Promise.reject(this.#busy(`${maxWaiting} lines are already waiting`));
    this.#guilds.set(guildId, guild);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => ticket.drop(signal?.reason);
      const timer = setTimeout(
        () => ticket.drop(this.#busy(`the line waited ${maxWaitMs} ms for its turn`)),
        maxWaitMs,
      );
      const ticket: Ticket = {
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          work()
            .then(resolve, reject)
            .finally(() => this.#finished(guildId));
        },
        drop: (error) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          const index = guild.waiting.indexOf(ticket);
          if (index < 0) return;
          guild.waiting.splice(index, 1);
          this.#waiting -= 1;
          this.#forgetIfIdle(guildId, guild);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      guild.waiting.push(ticket);
      this.#waiting += 1;
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#inFlight < this.#options.maxInFlight) {
      let next: GuildLines | undefined;
      for (const guild of this.#guilds.values())
        if (guild.waiting.length > 0 && (next === undefined || guild.lastServed < next.lastServed)) next = guild;
      const ticket = next?.waiting.shift();
      if (next === undefined || ticket === undefined) return;
      this.#waiting -= 1;
      this.#inFlight += 1;
      next.inFlight += 1;
      this.#served += 1;
      next.lastServed = this.#served;
      ticket.start();
    }
  }

  #finished(guildId: string): void {
    this.#inFlight -= 1;
    const guild = this.#guilds.get(guildId);
    if (guild !== undefined) {
      guild.inFlight -= 1;
      this.#forgetIfIdle(guildId, guild);
    }
    this.#pump();
  }

  #forgetIfIdle(guildId: string, guild: GuildLines): void {
    if (guild.waiting.length === 0 && guild.inFlight === 0) this.#guilds.delete(guildId);
  }

  /** Refuses every waiting line with `error` (the engines are closing). */
  clear(error: Error): void {
    for (const guild of [...this.#guilds.values()]) for (const ticket of [...guild.waiting]) ticket.drop(error);
  }
}
