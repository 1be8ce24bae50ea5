// The lines waiting for one engine, served fairly: at most `maxInFlight` sent at once (the owner's CPU), the next slot
// to the server served least recently (so a server's flood never delays another server's line by more than the
// renders already under way), at most `perGuild` lines of one server waiting or under way (its share; past it refused
// as busy), at most `maxWaiting` waiting in all, and none waiting longer than `maxWaitMs`. Short before long, as in
// SayBot's work classes (src/core/audio/workers/work-classes.ts): long lines never hold every slot, so a short line
// waits for one short render at most. A line is cancellable by its signal: waiting, it leaves the queue.

import { FREE_LINES_PER_GUILD } from '../audio/workers/work-classes.ts';

export interface QueueOptions {
  maxInFlight: number;
  perGuild: number;
  maxWaiting: number;
  maxWaitMs: number;
}

export const DEFAULT_QUEUE: Readonly<QueueOptions> = Object.freeze({
  maxInFlight: 2,
  // A server's share, as at eSpeak NG's pool.
  perGuild: FREE_LINES_PER_GUILD,
  maxWaiting: 32,
  maxWaitMs: 120_000,
});

interface Ticket {
  long: boolean;
  start: () => void;
}

interface GuildLines {
  waiting: Ticket[];
  inFlight: number;
  /** When it last had a line sent (the queue's own count). */
  lastServed: number;
}

export class FairQueue {
  readonly #options: QueueOptions;
  readonly #busy: (words: string) => Error;
  readonly #guilds = new Map<string, GuildLines>();
  readonly #drops = new Set<(error: unknown) => void>();
  #waiting = 0;
  #inFlight = 0;
  #longInFlight = 0;
  #served = 0;

  /** `busy` makes the error a line refused for room gets (the engine's own). */
  constructor(options: Partial<QueueOptions>, busy: (words: string) => Error) {
    this.#options = { ...DEFAULT_QUEUE, ...options };
    this.#busy = busy;
  }

  /**
   * A slot for a line of `guildId` once its turn comes: resolves with its release, to call once the line is done.
   * Rejects at once when there is no room, or with the signal's reason when it fires while the line waits.
   */
  take(guildId: string, signal: AbortSignal | undefined, long = false): Promise<() => void> {
    signal?.throwIfAborted();
    const { perGuild, maxWaiting, maxWaitMs } = this.#options;
    const guild = this.#guilds.get(guildId) ?? { waiting: [], inFlight: 0, lastServed: 0 };
    if (guild.waiting.length + guild.inFlight >= perGuild)
      return Promise.reject(this.#busy(`this server already has ${perGuild} lines waiting or being spoken`));
    if (this.#waiting >= maxWaiting) return Promise.reject(this.#busy(`${maxWaiting} lines are already waiting`));
    this.#guilds.set(guildId, guild);
    return new Promise<() => void>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#drops.delete(drop);
      };
      const drop = (error: unknown): void => {
        leave();
        guild.waiting.splice(guild.waiting.indexOf(ticket), 1);
        this.#waiting -= 1;
        this.#forgetIfIdle(guildId, guild);
        reject(error);
      };
      const onAbort = (): void => drop(signal?.reason);
      const timer = setTimeout(() => drop(this.#busy(`the line waited ${maxWaitMs} ms for its turn`)), maxWaitMs);
      const ticket: Ticket = {
        long,
        start: () => {
          leave();
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#finished(guildId, long);
          });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#drops.add(drop);
      guild.waiting.push(ticket);
      this.#waiting += 1;
      this.#pump();
    });
  }

  /** The next line to send: the least recently served server's first, a long one only where a slot stays for short. */
  #pump(): void {
    const longSlots = Math.max(1, this.#options.maxInFlight - 1);
    while (this.#inFlight < this.#options.maxInFlight) {
      let next: GuildLines | undefined;
      for (const guild of this.#guilds.values()) {
        const first = guild.waiting[0];
        if (first === undefined || (first.long && this.#longInFlight >= longSlots)) continue;
        if (next === undefined || guild.lastServed < next.lastServed) next = guild;
      }
      const ticket = next?.waiting.shift();
      if (next === undefined || ticket === undefined) return;
      this.#waiting -= 1;
      this.#inFlight += 1;
      if (ticket.long) this.#longInFlight += 1;
      next.inFlight += 1;
      this.#served += 1;
      next.lastServed = this.#served;
      ticket.start();
    }
  }

  #finished(guildId: string, long: boolean): void {
    this.#inFlight -= 1;
    if (long) this.#longInFlight -= 1;
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
    for (const drop of [...this.#drops]) drop(error);
  }
}
