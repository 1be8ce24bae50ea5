// The order's types: what a front-end gives the speech pipeline and gets back (re-exported by
// src/core/order/pipeline.ts; the order's record, `Order`, is src/core/order/order-record.ts).
import type { AudioFormat } from '../audio/codecs/format.ts';
import type { VoiceMessage } from '../voice-message/render.ts';
import type { MoneyTerms } from '../quota/money.ts';
import type { Refusal } from '../refusal.ts';
import type { StandIn, SpeechRequest } from '../settings/speech-request.ts';
import type { GuildPlayer, Turn } from '../voice/guild-player.ts';
import type { Seat } from '../voice/seats.ts';
import type { OrderEffects, StillAllowed } from './rights.ts';
import type { SceneLine, SceneTimeline } from './scene-types.ts';

export type { StillAllowed } from './rights.ts';

/** Who asked, where their spends are recorded, and which rules hold for them. Nothing Discord-interaction-specific. */
export interface Requester {
  guildId: string;
  userId: string;
  /** What asked ('say', 'autoread', ...): recorded with spends and logged; never decides anything. */
  command: string;
  /** Unique per request: logs and the player's item labels. */
  id: string;
  /** When the member asked (ms since epoch, e.g. Discord's createdTimestamp): the time-to-first-audio metric. */
  askedAt?: number | undefined;
  /** The rules it is held to, chosen where the request is made. */
  policy: RequestPolicy;
}

/** How a request is paced and bounded, and who may stop it: set by the front-end that makes it. */
export interface RequestPolicy {
  /** Waits out the member cooldown between paid requests (src/core/quota/accounting.ts); day and month budgets always hold. */
  memberCooldown: boolean;
  /** May be refused by the queue bounds and the free-request rate (src/core/quota/money.ts). */
  queueBounded: boolean;
  /** Its member may /stop its clips without a moderator's rights (src/features/player/player-control.ts). */
  requesterMayStop: boolean;
}

/** Where the audio goes. The front-end chooses it (member in voice or not, `output` option, server default). */
export type SpeechTarget =
  /** The pipeline takes the seat's player (src/core/voice/seats.ts), joins the channel and queues the parts there. */
  | { kind: 'voice'; channelId: string; seat: Seat }
  /** One file; over `sizeLimit` bytes (the interaction's attachment_size_limit) it is rendered as a voice message. */
  | { kind: 'file'; sizeLimit?: number }
  /** Every part joined into one Ogg Opus voice message (src/core/voice-message/render.ts); the front-end posts it. */
  | { kind: 'voice-message' };

/** What a front-end asks for: who, where, its rights beyond the pipeline's own, and one request or a scene's lines. */
export type SpeechOrder = {
  requester: Requester;
  target: SpeechTarget;
  /**
   * What it does and where, for the rights port (rights.ts), asked before acceptance, each part and its post. The
   * front-ends always declare it; absent, only the pipeline's own checks hold.
   */
  effects?: OrderEffects | undefined;
  /** What it is held to besides its effects' rights (auto-read's ignore list), asked with them before each part. */
  stillAllowed?: StillAllowed | undefined;
} & (
  | {
      request: SpeechRequest;
      /** The second half of a checked request (a clone's first line): spends recorded, not checked again. */
      followUp?: boolean;
      /**
       * Only from the cache (a reply's buttons replay what was paid): a part neither cached nor in flight is refused
       * (not-cached) before anything is held, and one evicted after acceptance is refused at its fetch, never paid.
       */
      cachedOnly?: boolean;
    }
  | {
      /** Many voices as one clip (/scene): held together, played as one clip, or mixed into one timed file. */
      scene: readonly SceneLine[];
      /** Posted as a file: WAV (the default) or MP3. */
      sceneFormat?: 'wav' | 'mp3' | undefined;
      /** The characters its member confirmed (the preview's quote): a part costing more is refused, never paid. */
      quoted?: number | undefined;
    }
);

/** What acceptance tells the front-end. */
export interface Acceptance {
  parts: number;
  ahead: number;
  /** Set when the paid voice was refused for money and the free voice speaks instead: why, and the request spoken. */
  fallback?: { refusal: Refusal; request: SpeechRequest };
}

/** What is known when the first frame goes out. */
export interface FirstFrame {
  /** The free voice that stood in for the failing service in this first part, and why. */
  standIn?: StandIn;
}

/** An order as its front-end sees it: three events (Order below is the whole order). */
export interface OrderEvents {
  /**
   * Resolves once the text is split, the free checks passed and the characters held; rejects with a Refusal, a
   * SpeechInputError or another typed error before anything is paid. Voice: the clips ahead; the join and the first
   * request are already under way, and the front-end acknowledges beside them, never before.
   */
  readonly accepted: Promise<Acceptance>;
  /** When the first frame goes out (voice only), with the free voice that spoke it if the service failed. */
  readonly firstAudio: Promise<FirstFrame>;
  /** How it ended. Never rejects: a failure or a refusal is an outcome (`failed`). */
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
  /** One voice message; `insteadOfFile`: a file was asked for but was over the size limit (its format, size, limit). */
  | {
      kind: 'voice-message';
      message: VoiceMessage;
      seconds: number;
      insteadOfFile?: { format: AudioFormat; bytes: number; limit: number };
      /** A scene's: when each line is heard in the voice message. */
      timeline?: SceneTimeline;
    }
) & {
  /** The free voice that spoke in place of a failing service or engine (its stand-in), and why: the front-end says so. */
  standIn?: StandIn;
  /** A scene's audio proved longer than its cap (seconds) and was cut there: the front-end says so. */
  cutAt?: number;
  /** A free voice's line proved longer than its cap (seconds, MAX_FREE_LINE_SECONDS) and was cut there: said so. */
  lineCutAt?: number;
  /** A scene cut in voice: how many of its lines were begun before the cut (a file's `timeline` says it). */
  linesBeforeCut?: number;
  /** What its paid calls spent: `paid`, `delivered` of it, `unconfirmed` (maybe charged). */
  spent?: { paid: number; delivered?: number; unconfirmed?: number };
  /** A file holding only the parts paid before a later one failed: why the rest is missing. */
  partWay?: unknown;
};

/** A reference clip for a new voice, checked by the front-end (src/features/voices/reference-clip.ts). */
export interface CloneClip {
  data: Uint8Array;
  filename: string;
  contentType: string;
}

/** One line of an order as spoken: its request, its text split into parts, after a pause (a scene's; 0 otherwise). */
export interface SpokenLine {
  request: SpeechRequest;
  texts: readonly string[];
  pauseBefore: number;
}

/** Voice only: the guild's player and the order's turn there, held from acceptance until it is over. */
export interface VoicePlace {
  player: GuildPlayer;
  turn: Turn;
}

/**
 * What acceptance decides (Money's `MoneyTerms`: the lines as they will be spoken, or a plain request refused for money
 * in their free-voice version, and what they are held and paid on), and its place in voice.
 */
export type AcceptedTerms = MoneyTerms<SpokenLine> & {
  /** Clips ahead of it in the guild's queue when it was accepted (voice). */
  ahead?: number;
  /** Voice only: where it is played, and its turn there. */
  playback?: VoicePlace | undefined;
};

/** `asked` (lines split), `accepted`, `sourcing`, `settled`; or `refused` at acceptance. Its outcome says how. */
export type OrderPhase = 'asked' | 'accepted' | 'sourcing' | 'settled' | 'refused';
