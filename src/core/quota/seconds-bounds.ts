// Speech bounded by the seconds it is estimated to last, before anything is held, made or paid (refusing costs
// nothing): what waits to be heard, per server the seconds of speech and the clips in its voice queue, per member the
// requests they have under way (QueueBook: the pipeline admits each request and releases it at its outcome); and a
// cap only the audio can prove (the seconds caps, below). One estimate of seconds serves both.
import { isEspeakVoice } from '../free-voice/free-voices.ts';
import { Refusal } from '../refusal.ts';
import { estimateFreeLineSeconds } from '../free-voice/free-line-estimate.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { LengthCapped } from '../audio/errors.ts';
import { MAX_FREE_LINE_SECONDS } from '../free-voice/free-voice-engine.ts';
import type { PartLimit } from '../characters.ts';

/** The operator's bounds (QUEUE_MAX_*); 0 = no limit. */
export interface QueueBounds {
  /** Estimated seconds of speech one server's voice queue may hold (what plays now included). */
  guildSeconds: number;
  /** Clips (parts) one server's voice queue may hold. */
  guildClips: number;
  /** Requests one member may have under way in one server (queued, playing or being made), any output. */
  memberRequests: number;
}

/**
 * Seconds of speech a text will take, estimated from its characters: the audio's real length is known only once
 * it has been synthesised (paid), and a bound that protects the month has to be decided before that. Typical TTS
 * reads English and other alphabetic scripts at about 15 characters a second (~150 words a minute), and Korean,
 * Japanese and Chinese at about 7 (a Hangul syllable, a kana or a kanji each carry a syllable or more). Spaces and
 * punctuation count at the alphabetic rate. Estimates err long rather than short for CJK so a queue in Korean or
 * Japanese is not under-counted.
 */
export function estimateSpeechSeconds(text: string): number {
  let seconds = 0;
  for (const char of text.normalize('NFC')) seconds += CJK.test(char) ? 1 / CJK_PER_SECOND : 1 / ALPHABETIC_PER_SECOND;
  return seconds;
}

/**
 * Seconds `text` of `request` will take as heard: its estimate at the voice's rate (eSpeak NG's at its own,
 * src/core/free-voice/free-line-estimate.ts, which reads Korean slower than a paid voice does; an engine's, which
 * speaks as people do, at natural speech's), stretched by the speed SayBot applies itself (AudioEffects.speed,
 * 0.5..2), which is known exactly, so no margin has to stand in for it.
 */
export function estimateRequestSeconds(request: SpeechRequest, text: string): number {
  if (request.kind === 'ready') return estimateSpeechSeconds(text);
  const spoken = isEspeakVoice(request.voice)
    ? estimateFreeLineSeconds(text, request.voice)
    : estimateSpeechSeconds(text);
  return spoken / (request.effects?.speed ?? 1);
}

const ALPHABETIC_PER_SECOND = 15;
const CJK_PER_SECOND = 7;
const CJK = /[\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** One accepted request in the books until its outcome; release() is idempotent. */
export interface Admission {
  release(): void;
}

export interface AdmissionRequest {
  guildId: string;
  userId: string;
  /**
   * A voice request: its clips and estimated seconds join the server's voice queue. Files and voice messages do not.
   */
  voice?: { clips: number; seconds: number };
  /**
   * Which bounds may refuse it. A request is always counted; one that is already paid (a clone's first line) or
   * whose front-end bounds itself (auto-read: its own backlog, at most two messages handed over) is never refused.
   */
  enforce: { guild: boolean; member: boolean };
}

/**
 * Which bounds may refuse a request: none for one already paid (refusing it would waste what was bought), none for
 * one whose front-end bounds its own backlog (`queueBounded` false: auto-read,
 * src/features/autoread/reading/reader.ts), both for everything else.
 */
export function enforcementFor(order: { queueBounded: boolean; paid: boolean }): AdmissionRequest['enforce'] {
  const bounded = !order.paid && order.queueBounded;
  return { guild: bounded, member: bounded };
}

interface GuildQueue {
  clips: number;
  seconds: number;
  /** Requests under way per member. */
  members: Map<string, number>;
  /** Requests under way in this guild, any target: the entry goes when it is 0. */
  requests: number;
}

/**
 * The running figures behind the bounds, per guild. Entries exist only while a guild has requests under way, so
 * the map is bounded by the guilds speaking now.
 */
export class QueueBook {
  readonly #bounds: QueueBounds;
  readonly #guilds = new Map<string, GuildQueue>();

  constructor(bounds: QueueBounds) {
    this.#bounds = bounds;
  }

  /** Counts the request in, or throws a Refusal naming the bound it would break (nothing is counted then). */
  admit(request: AdmissionRequest): Admission {
    const queue = this.#guilds.get(request.guildId) ?? {
      clips: 0,
      seconds: 0,
      members: new Map<string, number>(),
      requests: 0,
    };
    const mine = queue.members.get(request.userId) ?? 0;
    const { guildClips, guildSeconds, memberRequests } = this.#bounds;
    if (request.enforce.member && memberRequests > 0 && mine >= memberRequests) {
      throw new Refusal({ code: 'queue-member-full', limit: memberRequests, queued: mine });
    }
    const voice = request.voice;
    // A lone request always fits (its length is bounded by the command's own maximum): the bound is on waiting.
    if (voice && request.enforce.guild && queue.clips > 0) {
      if (guildClips > 0 && queue.clips + voice.clips > guildClips) {
        throw new Refusal({ code: 'queue-guild-full', bound: 'clips', limit: guildClips, queued: queue.clips });
      }
      if (guildSeconds > 0 && queue.seconds + voice.seconds > guildSeconds) {
        throw new Refusal({
          code: 'queue-guild-full',
          bound: 'seconds',
          limit: guildSeconds,
          queued: Math.ceil(queue.seconds),
        });
      }
    }
    queue.members.set(request.userId, mine + 1);
    queue.requests += 1;
    if (voice) {
      queue.clips += voice.clips;
      queue.seconds += voice.seconds;
    }
    this.#guilds.set(request.guildId, queue);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (voice) {
          queue.clips -= voice.clips;
          queue.seconds = Math.max(0, queue.seconds - voice.seconds);
        }
        const left = (queue.members.get(request.userId) ?? 1) - 1;
        if (left > 0) queue.members.set(request.userId, left);
        else queue.members.delete(request.userId);
        queue.requests -= 1;
        if (queue.requests === 0 && this.#guilds.get(request.guildId) === queue) this.#guilds.delete(request.guildId);
      },
    };
  }

  /** A guild's voice queue as the bounds see it (clips and estimated seconds waiting or playing). */
  voiceQueue(guildId: string): { clips: number; seconds: number } {
    const queue = this.#guilds.get(guildId);
    return { clips: queue?.clips ?? 0, seconds: queue?.seconds ?? 0 };
  }
}

// The seconds caps. A cap that only the audio can prove (seconds: a scene's 600 s, a free voice's line's 120 s) is checked before any
// work on the plan's estimate (estimateSpeechSeconds, the per-language rate the queue bounds use), with a margin for
// voices slower than that rate; audio that still proves longer is cut at the cap where it is made, never thrown
// away once paid or made (src/core/order/scene-file.ts, scene-mix.ts; a free line in the free voice's own thread,
// espeak-run.ts),
// and the member is told (the outcome's `cutAt`, `lineCutAt`).
/**
 * The share of a seconds cap kept back for audio slower than the estimate: an estimate passes up to
 * cap / (1 + ESTIMATE_MARGIN), 545 s of a 600 s scene. A scene's estimate reads English at 15 characters a second
 * and Korean, Japanese and Chinese at 7, which errs long for most voices; a free line's reads at eSpeak NG's own
 * measured rates (src/core/free-voice/free-line-estimate.ts). A voice slower than its estimate past the margin is cut.
 */
export const ESTIMATE_MARGIN = 0.1;

/** The longest estimate a cap of `cap` seconds lets through. */
export function estimateCeiling(cap: number): number {
  return cap / (1 + ESTIMATE_MARGIN);
}

/** A plan estimated over its cap (with the margin): refused before anything is held, made or paid. */
export class OverSecondsCapError extends Error {
  /** What the cap bounds: a whole scene, or one line of the free voice. */
  readonly capped: LengthCapped;
  /** The plan's estimate, seconds. */
  readonly estimate: number;
  /** The cap the audio would have to prove, seconds. */
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

/** Throws OverSecondsCapError when `estimate` seconds of a `capped`, with the margin, would pass `cap`. */
export function checkEstimatedSeconds(estimate: number, cap: number, capped: LengthCapped): void {
  if (!withinCap(estimate, cap)) throw new OverSecondsCapError(capped, estimate, cap);
}

function withinCap(estimate: number, cap: number): boolean {
  return estimate <= estimateCeiling(cap);
}

/**
 * One line of the free voice (a part: one eSpeak NG job) lasts at most MAX_FREE_LINE_SECONDS. Checked on its
 * estimate at eSpeak NG's own rate (src/core/free-voice/free-line-estimate.ts) before the job is queued, wherever the
 * free voice
 * `voiceId` is to speak it (chosen, standing in for money or for a failing service), so that the thread's time is
 * never spent on a line that would lose most of its audio at the cut.
 */
export function checkFreeLineSeconds(text: string, voiceId: string): void {
  checkEstimatedSeconds(estimateFreeLineSeconds(text, voiceId), MAX_FREE_LINE_SECONDS, 'free-line');
}

/** Whether the free voice `voiceId` may be asked to speak `text` as one line (checkFreeLineSeconds would pass it). */
export function fitsFreeLine(text: string, voiceId: string): boolean {
  return withinCap(estimateFreeLineSeconds(text, voiceId), MAX_FREE_LINE_SECONDS);
}

/**
 * What one part of a text the free voice `voiceId` speaks may hold (splitText): the seconds checkFreeLineSeconds
 * passes, so a long line is split into lines of its own rather than refused.
 */
export function freeLineLimit(voiceId: string): PartLimit {
  return {
    max: estimateCeiling(MAX_FREE_LINE_SECONDS),
    measure: (piece) => estimateFreeLineSeconds(piece, voiceId),
  };
}

/**
 * A plan's estimate of seconds (a scene's, shown at its preview and checked again by the pipeline at "Play it",
 * one function so the two never disagree): each line's pause before it and its whole text as heard (SayBot's own
 * speed counted), before the text is split into parts.
 */
export function estimatePlanSeconds(lines: ReadonlyArray<{ request: SpeechRequest; pauseBefore: number }>): number {
  return lines.reduce(
    (sum, line) => sum + line.pauseBefore + estimateRequestSeconds(line.request, line.request.text),
    0,
  );
}
