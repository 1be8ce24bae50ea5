// Capacity, not money: each seat's voice queue and each member's requests under way in a server, bounded by their
// estimated seconds before anything is held, made or paid (QueueBook, config.queue), and how often one member may ask
// for what costs no characters (FreeRequestRate). Money (src/core/quota/money.ts) asks them where an order is admitted.
import { Refusal } from '../refusal.ts';
import type { QueueBounds } from '../config.ts';

/** One accepted request counted until its outcome, when it leaves the figures; leave() is idempotent. */
export interface Admission {
  /** What a voice request added to its seat's queue. */
  readonly queued?: VoiceAdmission | undefined;
  leave(): void;
}

interface AdmissionRequest {
  guildId: string;
  userId: string;
  /** A voice request: its clips and estimated seconds join its seat's voice queue (`seat`: the bot's index). */
  queued?: VoiceAdmission;
  /** Which bounds may refuse it; a request is always counted. */
  enforce: { guild: boolean; member: boolean };
}

/** What a voice request adds to the queue of its seat (0 the main bot, then the helpers). */
export interface VoiceAdmission {
  seat: number;
  clips: number;
  seconds: number;
}

interface GuildQueue {
  /** Per seat: the clips and seconds waiting; an entry goes once empty. */
  seats: Map<number, { clips: number; seconds: number }>;
  members: Map<string, number>;
  /** Requests under way in this guild: the entry goes at 0. */
  requests: number;
}

/** The figures behind the bounds: the voice queue per seat, the member's requests per guild; kept while under way. */
export class QueueBook {
  /** None for a request already paid or whose front-end bounds its own backlog (auto-read); both for the rest. */
  static enforcementFor(order: { queueBounded: boolean; paid: boolean }): AdmissionRequest['enforce'] {
    const bounded = !order.paid && order.queueBounded;
    return { guild: bounded, member: bounded };
  }

  readonly #bounds: QueueBounds;
  readonly #guilds = new Map<string, GuildQueue>();

  constructor(bounds: QueueBounds) {
    this.#bounds = bounds;
  }

  admit(request: AdmissionRequest): Admission {
    const { guildId, userId, queued } = request;
    const queue: GuildQueue = this.#guilds.get(guildId) ?? { seats: new Map(), members: new Map(), requests: 0 };
    const mine = queue.members.get(userId) ?? 0;
    const { guildClips, guildSeconds, memberRequests } = this.#bounds;
    if (request.enforce.member && memberRequests > 0 && mine >= memberRequests)
      throw new Refusal({ code: 'queue-member-full', limit: memberRequests, queued: mine });
    const seat = queued && (queue.seats.get(queued.seat) ?? { clips: 0, seconds: 0 });
    // A lone request always fits (its length is bounded by the command's own maximum): the bound is on waiting.
    if (queued && seat && request.enforce.guild && seat.clips > 0) {
      if (guildClips > 0 && seat.clips + queued.clips > guildClips)
        throw new Refusal({ code: 'queue-guild-full', bound: 'clips', limit: guildClips, queued: seat.clips });
      if (guildSeconds > 0 && seat.seconds + queued.seconds > guildSeconds) {
        const waiting = Math.ceil(seat.seconds);
        throw new Refusal({ code: 'queue-guild-full', bound: 'seconds', limit: guildSeconds, queued: waiting });
      }
    }
    queue.members.set(userId, mine + 1);
    queue.requests += 1;
    if (queued && seat) {
      seat.clips += queued.clips;
      seat.seconds += queued.seconds;
      queue.seats.set(queued.seat, seat);
    }
    this.#guilds.set(guildId, queue);
    let gone = false;
    return {
      queued,
      leave: () => {
        if (gone) return;
        gone = true;
        if (queued && seat) {
          seat.clips -= queued.clips;
          seat.seconds = Math.max(0, seat.seconds - queued.seconds);
          if (seat.clips <= 0 && queue.seats.get(queued.seat) === seat) queue.seats.delete(queued.seat);
        }
        const left = (queue.members.get(userId) ?? 1) - 1;
        if (left > 0) queue.members.set(userId, left);
        else queue.members.delete(userId);
        queue.requests -= 1;
        if (queue.requests === 0 && this.#guilds.get(guildId) === queue) this.#guilds.delete(guildId);
      },
    };
  }

  /** What waits in one seat's voice queue (`seat`: its bot's index). */
  voiceQueue(guildId: string, seat: number): { clips: number; seconds: number } {
    const queue = this.#guilds.get(guildId)?.seats.get(seat);
    return { clips: queue?.clips ?? 0, seconds: queue?.seconds ?? 0 };
  }
}

// How often one member may ask for what costs no characters: a line in a free voice (eSpeak NG's or an engine's, one
// standing in for the paid voice too), a cache hit, another speed or volume, a replay, a file made into a voice
// message, a scene's preview, a /usage chart. None of it spends, so no budget sees it, yet each may cost a render and a
// cache entry every server shares. Per member per server in a sliding minute, in memory (a restart forgets it).
/** Members remembered at once; past it the oldest window is dropped (it can only make a member's count smaller). */
const MAX_MEMBERS = 10_000;
const WINDOW_MS = 60_000;

export class FreeRequestRate {
  readonly #perMinute: number;
  readonly #now: () => Date;
  /** When each member's recent free requests were taken, oldest first; at most `perMinute` each. */
  readonly #taken = new Map<string, number[]>();

  /** `perMinute` 0: no limit. */
  constructor(perMinute: number, now: () => Date) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Counts one free request of the member, or refuses it (Refusal free-rate) when their minute is full. */
  take(guildId: string, userId: string): void {
    if (this.#perMinute === 0) return;
    const key = `${guildId}:${userId}`;
    const now = this.#now().getTime();
    const times = (this.#taken.get(key) ?? []).filter((at) => now - at < WINDOW_MS);
    if (times.length >= this.#perMinute) {
      this.#taken.set(key, times);
      const oldest = times[0] ?? now;
      throw new Refusal({
        code: 'free-rate',
        limit: this.#perMinute,
        waitSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
      });
    }
    times.push(now);
    // Re-inserted: the Map's order is then the order of last use, and the first key the longest unused.
    this.#taken.delete(key);
    this.#taken.set(key, times);
    if (this.#taken.size > MAX_MEMBERS) {
      const oldest = this.#taken.keys().next();
      if (oldest.done !== true) this.#taken.delete(oldest.value);
    }
  }
}
