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
  guildId: string;
  long: boolean;
  /** Its turn came: it leaves the queue with its slot. */
  go: () => void;
  /** It leaves the queue without a slot, refused with `error`. */
  drop: (error: unknown) => void;
}

export class FairQueue {
  readonly #options: QueueOptions;
  readonly #busy: (words: string) => Error;
  /** The lines waiting, in the order they came. */
  readonly #waiting: Ticket[] = [];
  /** Each server with lines: how many it has waiting or under way, and when it last had one sent (the queue's count). */
  readonly #guilds = new Map<string, { lines: number; lastServed: number }>();
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
    const guild = this.#guilds.get(guildId) ?? { lines: 0, lastServed: 0 };
    if (guild.lines >= perGuild)
      return Promise.reject(this.#busy(`this server already has ${perGuild} lines waiting or being spoken`));
    if (this.#waiting.length >= maxWaiting)
      return Promise.reject(this.#busy(`${maxWaiting} lines are already waiting`));
    guild.lines += 1;
    this.#guilds.set(guildId, guild);
    return new Promise<() => void>((resolve, reject) => {
      const timer = setTimeout(
        () => ticket.drop(this.#busy(`the line waited ${maxWaitMs} ms for its turn`)),
        maxWaitMs,
      );
      const onAbort = (): void => ticket.drop(signal?.reason);
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiting.splice(this.#waiting.indexOf(ticket), 1);
      };
      const ticket: Ticket = {
        guildId,
        long,
        go: () => {
          leave();
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#finished(guildId, long);
          });
        },
        drop: (error) => {
          leave();
          this.#release(guildId);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(ticket);
      this.#pump();
    });
  }

  /** The next lines to send: each server's first, the least recently served's first, a long one only where a slot stays for short. */
  #pump(): void {
    const longSlots = Math.max(1, this.#options.maxInFlight - 1);
    const lastServed = (ticket: Ticket): number => this.#guilds.get(ticket.guildId)?.lastServed ?? 0;
    while (this.#inFlight < this.#options.maxInFlight) {
      const firsts = new Set<string>();
      let next: Ticket | undefined;
      for (const ticket of this.#waiting) {
        if (firsts.has(ticket.guildId)) continue;
        firsts.add(ticket.guildId);
        if (ticket.long && this.#longInFlight >= longSlots) continue;
        if (next === undefined || lastServed(ticket) < lastServed(next)) next = ticket;
      }
      if (next === undefined) return;
      this.#inFlight += 1;
      if (next.long) this.#longInFlight += 1;
      this.#guilds.get(next.guildId)!.lastServed = ++this.#served;
      next.go();
    }
  }

  #finished(guildId: string, long: boolean): void {
    this.#inFlight -= 1;
    if (long) this.#longInFlight -= 1;
    this.#release(guildId);
    this.#pump();
  }

  /** One line of `guildId` fewer; a server with none is forgotten. */
  #release(guildId: string): void {
    const guild = this.#guilds.get(guildId);
    if (guild !== undefined && (guild.lines -= 1) === 0) this.#guilds.delete(guildId);
  }

  /** Refuses every waiting line with `error` (the engines are closing). */
  clear(error: Error): void {
    for (const ticket of [...this.#waiting]) ticket.drop(error);
  }
}
