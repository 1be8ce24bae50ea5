// One order as the pipeline handles it, from the moment it is taken to its outcome: what was ordered and the rights
// it is held to; once accepted, its charge, its allowance and its place; what the part source learnt while fetching
// (the free voice that stood in, a line cut at its cap); and the three events its front-end awaits. Everything about
// one order lives here, so nothing is kept beside it under its charge and all of it goes when the order does.
import type { Charge } from '../quota/charge.ts';
import type { Refusal } from '../refusal.ts';
import type { GuildPlayer, HeldOrder } from '../voice/guild-player.ts';
import type { JobAccount, Lane, SpokenLine } from '../sourcing/job-account.ts';
import type { Admission } from '../quota/queue-bounds.ts';
import type { QuoteAllowance } from '../quota/quote-ceiling.ts';
import type { ServiceFallback, SpeechRequest } from '../settings/speech-request.ts';
import type {
  AcceptedJob,
  FirstFrame,
  JobEvents,
  Requester,
  SpeechOrder,
  SpeechOutcome,
  SpeechTarget,
  StillAllowed,
} from './speech-order.ts';

/** What acceptance settles: the lines as they will be spoken, and what they are held and paid on. */
export interface Taken {
  /** The order's lines, or (a plain request refused for money) their free-voice version. */
  lines: SpokenLine[];
  /** Why the paid voice was refused when the free voice speaks instead. */
  fallback?: Refusal | undefined;
  charge: Charge;
  /** Its place in the queue bounds' figures, released at its outcome. */
  admission: Admission;
  /** What it may still pay for parts counted free at acceptance (JobAccount.late). */
  late?: QuoteAllowance | undefined;
}

export class Job implements JobAccount, JobEvents {
  readonly requester: Requester;
  readonly target: SpeechTarget;
  /** The rights it is held to besides the pipeline's own checks (SpeechOrder.stillAllowed). */
  readonly stillAllowed: StillAllowed | undefined;
  /** A scene: its lines held together and spoken as one clip, file or voice message. */
  readonly scene: boolean;
  readonly followUp: boolean;
  readonly cachedOnly: boolean;
  readonly sceneFormat: 'wav' | 'mp3' | undefined;
  readonly quoted: number | undefined;
  /** Its lines split into parts: the order's until acceptance, then as spoken (Taken.lines). */
  lines: SpokenLine[] = [];
  fallback: Refusal | undefined;
  late: QuoteAllowance | undefined;
  freeVoice: ServiceFallback | undefined;
  lineCutAt: number | undefined;
  restFailed: unknown;
  /** Clips ahead of it in the guild's queue when it was accepted (voice). */
  ahead = 0;
  /** Voice only: the guild's player, its place in the guild's lane, and the player's hold on it until it is queued. */
  playback: { player: GuildPlayer; lane: Lane; held: HeldOrder } | undefined;
  #charge: Charge | undefined;
  #admission: Admission | undefined;
  readonly #end = new AbortController();
  readonly accepted: Promise<AcceptedJob>;
  readonly firstAudio: Promise<FirstFrame>;
  readonly outcome: Promise<SpeechOutcome>;
  #heard: (frame: FirstFrame) => void = () => undefined;

  /**
   * Takes `order` and runs it: `accept` splits, checks and holds it (calling take() on success), `deliver` speaks
   * or renders it; both are started here, after this turn, so that what they throw is the job's refusal.
   */
  constructor(order: SpeechOrder, run: { accept(job: Job): Promise<void>; deliver(job: Job): Promise<SpeechOutcome> }) {
    this.requester = order.requester;
    this.target = order.target;
    this.stillAllowed = order.stillAllowed;
    this.scene = 'scene' in order;
    this.followUp = 'request' in order && order.followUp === true;
    this.cachedOnly = 'request' in order && order.cachedOnly === true;
    this.sceneFormat = 'scene' in order ? order.sceneFormat : undefined;
    this.quoted = 'scene' in order ? order.quoted : undefined;
    this.firstAudio = new Promise<FirstFrame>((resolve) => (this.#heard = resolve));
    const accepting = Promise.resolve().then(() => run.accept(this));
    this.outcome = accepting.then(
      () => run.deliver(this),
      (error: unknown): SpeechOutcome => {
        for (const line of this.lines) discard(line.request);
        return { kind: 'failed', error, secondsHeard: 0 };
      },
    );
    this.accepted = accepting.then((): AcceptedJob => {
      const [first] = this.lines;
      return {
        parts: this.lines.reduce((sum, line) => sum + line.texts.length, 0),
        ahead: this.ahead,
        ...(this.fallback === undefined || first === undefined
          ? {}
          : { fallback: { refusal: this.fallback, request: first.request } }),
      };
    });
    // A front-end that only awaits the outcome learns of a refusal there; the process must not hear of it.
    this.accepted.catch(() => undefined);
  }

  /** The charge its parts are paid on; asked only once it is accepted. */
  get charge(): Charge {
    if (this.#charge === undefined) throw new Error('a job has no charge before it is accepted');
    return this.#charge;
  }

  /** Acceptance settled: from here its parts may be fetched. */
  take(taken: Taken): void {
    this.lines = taken.lines;
    this.fallback = taken.fallback;
    this.late = taken.late;
    this.#charge = taken.charge;
    this.#admission = taken.admission;
  }

  /** JobAccount.ended: aborted by end(). */
  get ended(): AbortSignal {
    return this.#end.signal;
  }

  /** Ends its render now with `reason` (the first reason stays): the part it waits for is let go of. */
  end(reason: Error): void {
    this.#end.abort(reason);
  }

  /** Its first frame went out: with the free voice that spoke it if the service failed. */
  heard(): void {
    this.#heard(this.freeVoice === undefined ? {} : { freeVoice: this.freeVoice });
  }

  /** Its outcome is settled: the charge closed and its place in the queue bounds given back. */
  settle(): void {
    this.#charge?.close();
    this.#admission?.release();
  }
}

/** Audio handed in whole that will not be played or posted is let go (its connection closed). */
export function discard(request: SpeechRequest): void {
  if (request.kind === 'ready') request.response.body.destroy();
}
