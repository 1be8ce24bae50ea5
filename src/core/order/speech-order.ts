// What a front-end gives the speech pipeline and gets back: the order (who asked and by which rules, what, where it
// goes, the rights it is held to), and its events: acceptance, first frame and one outcome.
// src/core/order/pipeline.ts re-exports them.
import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { AudioFormat } from '../audio/codecs/format.ts';
import type { VoiceMessage } from '../voice-message/render.ts';
import type { Refusal } from '../refusal.ts';
import type { Revocation } from './revocation.ts';
import type { OrderEffects } from './rights.ts';
import type { ServiceFallback, SpeechRequest } from '../settings/speech-request.ts';
import type { SceneLine, SceneTimeline } from './scene-types.ts';

/** Who asked, where their spends are recorded, and which rules hold for them. Nothing Discord-interaction-specific. */
export interface Requester {
  guildId: string;
  userId: string;
  /**
   * What asked: 'say' | 'emote' | 'clone' | 'autoread' | 'speak-message' ...: recorded with each spend (the
   * `command` column) and in logs, never read to decide anything (that is `policy`).
   */
  command: string;
  /** Unique per request: logs and the player's item labels. */
  id: string;
  /** When the member asked (ms since epoch, e.g. Discord's createdTimestamp): the time-to-first-audio metric. */
  askedAt?: number | undefined;
  /** The rules it is held to, chosen where the request is made. */
  policy: RequestPolicy;
}

/**
 * Asked before each part is fetched and again before it plays, and in voice whenever a right may have changed
 * (`rightsChanged`): whether what was accepted may still be said for this member now (their voice rights where it
 * plays, auto-read's ignore list). Undefined: it may. A Revocation ends the part playing and drops the rest of the
 * order; a part not fetched yet is never requested nor paid.
 */
export type StillAllowed = () => Revocation | undefined | Promise<Revocation | undefined>;

/** How a request is paced and bounded, and who may stop it: set by the front-end that makes it. */
export interface RequestPolicy {
  /**
   * Waits out the member cooldown between paid requests (src/core/quota/accounting.ts); the day and month budgets always
   * hold.
   */
  memberCooldown: boolean;
  /** May be refused by the queue bounds (src/core/quota/seconds-bounds.ts) and the free-request rate (src/core/quota/money.ts). */
  queueBounded: boolean;
  /** Its member may /stop its clips without a moderator's rights (src/features/player/player-control.ts). */
  requesterMayStop: boolean;
}

/** A member's own request (a command, a menu, a reply's button): every rule holds. */
export const MEMBER_REQUEST: Readonly<RequestPolicy> = {
  memberCooldown: true,
  queueBounded: true,
  requesterMayStop: true,
};

/** Where the audio goes. The front-end chooses it (member in voice or not, `output` option, server default). */
export type SpeechTarget =
  /** The pipeline takes the guild's player, joins (or moves to) the channel and queues the parts there. */
  | { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator }
  /** One file; over `sizeLimit` bytes (the interaction's attachment_size_limit) it is rendered as a voice message. */
  | { kind: 'file'; sizeLimit?: number }
  /**
   * Every part joined into one Ogg Opus voice message (src/core/voice-message/render.ts); posting it is the
   * front-end's.
   */
  | { kind: 'voice-message' };

/**
 * What a front-end asks the pipeline for: who, where, the rights it is held to besides the pipeline's own checks (a
 * deleted voice, the server still served), and what is to be said: one request, or a scene's lines held together.
 */
export type SpeechOrder = {
  requester: Requester;
  target: SpeechTarget;
  /**
   * What it does and where, for the rights port (rights.ts): asked before it is accepted, before each part and
   * before its post (rights-asker.ts). The front-ends' orders always declare it (src/features/speaking/hand-over.ts
   * `Order`); absent, the order is held to the pipeline's own checks alone.
   */
  effects?: OrderEffects | undefined;
  /** What it is held to besides its effects' rights (auto-read's ignore list), asked with them before each part. */
  stillAllowed?: StillAllowed | undefined;
} & (
  | {
      request: SpeechRequest;
      /**
       * The second half of a request whose characters were already checked (the first line of a clone whose service
       * answered without audio): its spends are recorded but not checked again, or the clone's own spend would put
       * the member in their cooldown before their own voice is heard.
       */
      followUp?: boolean;
      /**
       * Only from the cache (a reply's buttons replay what was already paid for): when a part is no longer cached or
       * in flight, the order is refused (SpeechInputError not-cached) before anything is held or paid; a part that
       * leaves the cache after acceptance (evicted, purged) is refused the same way at its fetch, never paid.
       */
      cachedOnly?: boolean;
    }
  | {
      /**
       * Many voices as one clip (/scene): its lines checked and held together (one hold, every budget), played in
       * voice as one clip of the guild's queue (each part requested as the one before it starts playing), or mixed
       * into one file or voice message whose lines are evened out in loudness and timed (`timeline`).
       */
      scene: readonly SceneLine[];
      /** Posted as a file: WAV (the default) or MP3. */
      sceneFormat?: 'wav' | 'mp3' | undefined;
      /**
       * The characters its member confirmed (the preview's quote): it never pays more. Parts that cost more now are
       * refused with QuoteExceededError before anything is held, a part paid late past it at its fetch.
       */
      quoted?: number | undefined;
    }
);

/** What acceptance tells the front-end. */
export interface Acceptance {
  parts: number;
  ahead: number;
  /**
   * Set when the paid voice was refused for money (the month, a budget) and the request is spoken in the free voice
   * instead (FREE_VOICE_FALLBACK): why, and the request as it is spoken. The front-end says so.
   */
  fallback?: { refusal: Refusal; request: SpeechRequest };
}

/** What is known when the first frame goes out. */
export interface FirstFrame {
  /** The free voice that stood in for the failing service in this first part, and why. */
  freeVoice?: ServiceFallback;
}

/** An order as its front-end sees it: three events (src/core/order/order.ts is the whole order). */
export interface OrderEvents {
  /**
   * Settles once the text is split, the free checks passed and the characters are held (budgets, month):
   * rejects with a Refusal (src/core/refusal.ts), a SpeechInputError or another typed error before anything is paid.
   * Voice: resolves with the clips ahead in the guild's queue. Joining voice and requesting the first part's
   * audio are already under way when it resolves; the front-end acknowledges the interaction side by side with
   * them, never before it.
   */
  readonly accepted: Promise<Acceptance>;
  /**
   * Resolves when the first frame goes out (voice only); never otherwise. With the free voice that speaks it when the
   * service failed (FREE_VOICE fallback), so the first words already name the voice heard.
   */
  readonly firstAudio: Promise<FirstFrame>;
  /**
   * How it ended. Never rejects: a failure of the service or of voice is an outcome, and so is a refusal
   * (`failed` with the error `accepted` rejected with, nothing heard).
   */
  readonly outcome: Promise<SpeechOutcome>;
}

export type SpeechOutcome = (
  | { kind: 'played' | 'skipped' | 'stopped' | 'cut-off'; seconds: number }
  | { kind: 'failed'; error: unknown; secondsHeard: number }
  | {
      kind: 'files';
      files: Array<{ data: Buffer; format: AudioFormat }>;
      seconds: number;
      /** A scene's: when each line is heard in the one file. */
      timeline?: SceneTimeline;
    }
  /**
   * The reply as one voice message; `seconds` is its declared duration. `insteadOfFile`: a file was asked for, but
   * it would have been over the target's size limit (its format, size and the limit, to tell the member why).
   */
  | {
      kind: 'voice-message';
      message: VoiceMessage;
      seconds: number;
      insteadOfFile?: { format: AudioFormat; bytes: number; limit: number };
      /** A scene's: when each line is heard in the voice message. */
      timeline?: SceneTimeline;
    }
) & {
  /** The free voice that spoke for the service when it failed (FREE_VOICE fallback), and why: the front-end says so. */
  freeVoice?: ServiceFallback;
  /** A scene's audio proved longer than its cap (seconds) and was cut there: the front-end says so. */
  cutAt?: number;
  /** A free voice's line proved longer than its cap (seconds, MAX_FREE_LINE_SECONDS) and was cut there: said so. */
  lineCutAt?: number;
  /** A scene cut in voice: how many of its lines were begun before the cut (a file's `timeline` says it). */
  linesBeforeCut?: number;
  /** Stopped, skipped or cut off in voice after paid requests were sent for it: their characters count, heard or not. */
  spentSome?: true;
  /**
   * A file or voice message holding only the parts paid for before a later one failed: why the rest is missing (a
   * PaidPartWayError with what was paid, or that part's own failure), said with it.
   */
  partWay?: unknown;
};

/** A reference clip for a new voice, checked by the front-end (src/features/voices/reference-clip.ts). */
export interface CloneClip {
  data: Uint8Array;
  filename: string;
  contentType: string;
}
