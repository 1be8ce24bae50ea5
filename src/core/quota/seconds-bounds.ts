// Speech bounded by its estimated seconds before anything is held, made or paid: each server's voice queue and each
// member's requests under way (QueueBook), and the seconds caps only the audio can prove (below).
import { isEspeakVoice } from '../voice-catalogue/voices.ts';
import { Refusal } from '../refusal.ts';
import { estimateFreeLineSeconds, MAX_FREE_LINE_SECONDS } from '../free-voice/free-voice-engine.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { LengthCapped } from '../audio/errors.ts';
import { estimateSpeechSeconds, type PartLimit } from '../characters.ts';

export { estimateSpeechSeconds };

/** The operator's bounds (QUEUE_MAX_*); 0 = no limit. */
export interface QueueBounds {
  /** Estimated seconds of speech one server's voice queue may hold (what plays now included). */
  guildSeconds: number;
  guildClips: number;
  /** Requests one member may have under way in one server (queued, playing or being made), any output. */
  memberRequests: number;
}

/**
 * Seconds `text` takes as heard: at its voice's rate (eSpeak NG's at its own, src/core/free-voice/free-voice-engine.ts;
 * an engine's at natural speech's), over the speed SayBot applies itself (known exactly: no margin stands in for it).
 */
export function estimateRequestSeconds(request: SpeechRequest, text: string): number {
  if (request.kind === 'ready') return estimateSpeechSeconds(text);
  return voiceSeconds(text, request.voice) / (request.effects?.speed ?? 1);
}

/** `text` at its voice's own rate: eSpeak NG's as measured, any other voice's (an engine's, a paid one's) natural speech's. */
function voiceSeconds(text: string, voiceId: string): number {
  return isEspeakVoice(voiceId) ? estimateFreeLineSeconds(text, voiceId) : estimateSpeechSeconds(text);
}

/** One accepted request counted until its outcome; release() is idempotent. */
export interface Admission {
  release(): void;
}

interface AdmissionRequest {
  guildId: string;
  userId: string;
  /** A voice request: its clips and estimated seconds join the server's voice queue. */
  voice?: { clips: number; seconds: number };
  /** Which bounds may refuse it; a request is always counted. */
  enforce: { guild: boolean; member: boolean };
}

/** None for a request already paid or whose front-end bounds its own backlog (auto-read); both for the rest. */
export function enforcementFor(order: { queueBounded: boolean; paid: boolean }): AdmissionRequest['enforce'] {
  const bounded = !order.paid && order.queueBounded;
  return { guild: bounded, member: bounded };
}

interface GuildQueue {
  clips: number;
  seconds: number;
  members: Map<string, number>;
  /** Requests under way in this guild: the entry goes at 0. */
  requests: number;
}

/** The figures behind the bounds, per guild, kept only while it has requests under way. */
export class QueueBook {
  readonly #bounds: QueueBounds;
  readonly #guilds = new Map<string, GuildQueue>();

  constructor(bounds: QueueBounds) {
    this.#bounds = bounds;
  }

  admit(request: AdmissionRequest): Admission {
    const { guildId, userId, voice } = request;
    const queue: GuildQueue = this.#guilds.get(guildId) ?? { clips: 0, seconds: 0, members: new Map(), requests: 0 };
    const mine = queue.members.get(userId) ?? 0;
    const { guildClips, guildSeconds, memberRequests } = this.#bounds;
    if (request.enforce.member && memberRequests > 0 && mine >= memberRequests)
      throw new Refusal({ code: 'queue-member-full', limit: memberRequests, queued: mine });
    // A lone request always fits (its length is bounded by the command's own maximum): the bound is on waiting.
    if (voice && request.enforce.guild && queue.clips > 0) {
      if (guildClips > 0 && queue.clips + voice.clips > guildClips)
        throw new Refusal({ code: 'queue-guild-full', bound: 'clips', limit: guildClips, queued: queue.clips });
      if (guildSeconds > 0 && queue.seconds + voice.seconds > guildSeconds) {
        const queued = Math.ceil(queue.seconds);
        throw new Refusal({ code: 'queue-guild-full', bound: 'seconds', limit: guildSeconds, queued });
      }
    }
    queue.members.set(userId, mine + 1);
    queue.requests += 1;
    if (voice) {
      queue.clips += voice.clips;
      queue.seconds += voice.seconds;
    }
    this.#guilds.set(guildId, queue);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (voice) {
          queue.clips -= voice.clips;
          queue.seconds = Math.max(0, queue.seconds - voice.seconds);
        }
        const left = (queue.members.get(userId) ?? 1) - 1;
        if (left > 0) queue.members.set(userId, left);
        else queue.members.delete(userId);
        queue.requests -= 1;
        if (queue.requests === 0 && this.#guilds.get(guildId) === queue) this.#guilds.delete(guildId);
      },
    };
  }

  voiceQueue(guildId: string): { clips: number; seconds: number } {
    const queue = this.#guilds.get(guildId);
    return { clips: queue?.clips ?? 0, seconds: queue?.seconds ?? 0 };
  }
}

// The seconds caps (a scene's 600 s, a free line's 120 s): checked on the estimate before any work, with a margin;
// audio that still proves longer is cut at the cap where it is made, never thrown away once paid, and the member is
// told (the outcome's `cutAt`, `lineCutAt`).
/** The share of a cap kept back for audio slower than its estimate: 545 s of a 600 s scene pass. */
export const ESTIMATE_MARGIN = 0.1;

export function estimateCeiling(cap: number): number {
  return cap / (1 + ESTIMATE_MARGIN);
}

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
  checkEstimatedSeconds(voiceSeconds(text, voiceId), MAX_FREE_LINE_SECONDS, 'free-line');
}

export function fitsFreeLine(text: string, voiceId: string): boolean {
  return voiceSeconds(text, voiceId) <= estimateCeiling(MAX_FREE_LINE_SECONDS);
}

/** What one free-voice part may hold (splitText): a long line is split rather than refused. */
export function freeLineLimit(voiceId: string): PartLimit {
  return {
    max: estimateCeiling(MAX_FREE_LINE_SECONDS),
    measure: (piece) => voiceSeconds(piece, voiceId),
  };
}

/** A plan's seconds (one function for a scene's preview and its "Play it" check): pauses and lines as heard. */
export function estimatePlanSeconds(lines: ReadonlyArray<{ request: SpeechRequest; pauseBefore: number }>): number {
  return lines.reduce(
    (sum, line) => sum + line.pauseBefore + estimateRequestSeconds(line.request, line.request.text),
    0,
  );
}
