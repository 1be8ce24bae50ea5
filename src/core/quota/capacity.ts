// Capacity: how much may wait, decided before anything is held, made or paid, for Money (src/core/quota/money.ts) to
// refuse first: each seat's voice queue and each member's requests under way in a server (QueueBook, config.queue),
// and the seconds caps an estimate is refused at (the estimates and their margin: src/core/characters.ts). No money is
// decided here: what may wait costs nothing to refuse.
import type { QueueBounds } from '../config.ts';
import { Refusal } from '../refusal.ts';
import { estimateCeiling, estimateRequestSeconds } from '../characters.ts';
import { MAX_FREE_LINE_SECONDS } from '../audio/workers/job-thread.ts';
import type { LengthCapped } from '../audio/errors.ts';

/** A plan estimated over its cap (with the margin): refused before anything is held, made or paid. */
export class OverSecondsCapError extends Error {
  readonly capped: LengthCapped;
  readonly estimate: number;
  readonly cap: number;

  constructor(capped: LengthCapped, estimate: number, cap: number) {
    super(
      `${capped} estimated at ${estimate.toFixed(1)} s, over ${estimateCeiling(cap).toFixed(1)} s (a cap of ${cap} s)`,
    );
    this.name = 'OverSecondsCapError';
    this.capped = capped;
    this.estimate = estimate;
    this.cap = cap;
  }
}

export function checkEstimatedSeconds(estimate: number, cap: number, capped: LengthCapped): void {
  if (estimate > estimateCeiling(cap)) throw new OverSecondsCapError(capped, estimate, cap);
}

/** A free line (one eSpeak NG or engine job) checked before it is queued, so no line is made to lose most of it at the cut. */
export function checkFreeLineSeconds(text: string, voiceId: string): void {
  checkEstimatedSeconds(
    estimateRequestSeconds({ kind: 'tts', text, voice: voiceId }, text),
    MAX_FREE_LINE_SECONDS,
    'free-line',
  );
}

// Each seat's voice queue and each member's requests under way in a server, bounded by their estimated seconds before
// anything is held, made or paid (config.queue).
/** One accepted request counted until its outcome; release() is idempotent. */
export interface Admission {
  release(): void;
}

interface AdmissionRequest {
  guildId: string;
  userId: string;
  /** A voice request: its clips and estimated seconds join its seat's voice queue (`seat`: the bot's index). */
  voice?: VoiceAdmission;
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
    const { guildId, userId, voice } = request;
    const queue: GuildQueue = this.#guilds.get(guildId) ?? { seats: new Map(), members: new Map(), requests: 0 };
    const mine = queue.members.get(userId) ?? 0;
    const { guildClips, guildSeconds, memberRequests } = this.#bounds;
    if (request.enforce.member && memberRequests > 0 && mine >= memberRequests)
      throw new Refusal({ code: 'queue-member-full', limit: memberRequests, queued: mine });
    const seat = voice && (queue.seats.get(voice.seat) ?? { clips: 0, seconds: 0 });
    // A lone request always fits (its length is bounded by the command's own maximum): the bound is on waiting.
    if (voice && seat && request.enforce.guild && seat.clips > 0) {
      if (guildClips > 0 && seat.clips + voice.clips > guildClips)
        throw new Refusal({ code: 'queue-guild-full', bound: 'clips', limit: guildClips, queued: seat.clips });
      if (guildSeconds > 0 && seat.seconds + voice.seconds > guildSeconds) {
        const queued = Math.ceil(seat.seconds);
        throw new Refusal({ code: 'queue-guild-full', bound: 'seconds', limit: guildSeconds, queued });
      }
    }
    queue.members.set(userId, mine + 1);
    queue.requests += 1;
    if (voice && seat) {
      seat.clips += voice.clips;
      seat.seconds += voice.seconds;
      queue.seats.set(voice.seat, seat);
    }
    this.#guilds.set(guildId, queue);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (voice && seat) {
          seat.clips -= voice.clips;
          seat.seconds = Math.max(0, seat.seconds - voice.seconds);
          if (seat.clips <= 0 && queue.seats.get(voice.seat) === seat) queue.seats.delete(voice.seat);
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
