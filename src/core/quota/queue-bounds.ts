// Bounds on what waits to be heard: per server, the seconds of speech and the clips in its voice queue; per member,
// the requests they have under way. Checked when a request is accepted, before anything is held or paid (a full
// queue costs nothing to refuse). Pure bookkeeping: the pipeline admits each request and releases it at its outcome.
import { isFreeVoice } from '../free-voice/free-voices.ts';
import { Refusal } from '../refusal.ts';
import { estimateFreeLineSeconds } from '../free-voice/free-line-estimate.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';

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
 * Seconds `text` of `request` will take as heard: its estimate at the voice's rate (a free voice's at eSpeak NG's
 * own, src/core/free-voice/free-line-estimate.ts, which reads Korean slower than a paid voice does), stretched by the
 * speed SayBot
 * applies itself (AudioEffects.speed, 0.5..2), which is known exactly, so no margin has to stand in for it.
 */
export function estimateRequestSeconds(request: SpeechRequest, text: string): number {
  if (request.kind === 'ready') return estimateSpeechSeconds(text);
  const spoken = isFreeVoice(request.voice)
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
