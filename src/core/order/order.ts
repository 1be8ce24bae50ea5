// One order from acceptance to settlement: what was ordered and the rights it is held to; its phase; once accepted,
// its charge, its allowance and its place; what its parts' fetches learnt (the free voice that stood in, a line cut at
// its cap) and the failure that left its file part-way; and the three events its front-end awaits. Only its own
// methods change it (test/structure/order-fields.test.ts): the part source and the renders return what they learn,
// and the order records it. Everything about one order lives here, so nothing is kept beside it under its charge and
// all of it goes when the order does.
import type { Charge } from '../quota/charge.ts';
import type { Admission } from '../quota/seconds-bounds.ts';
import type { QuoteAllowance } from '../quota/quote-ceiling.ts';
import { afterPaying } from '../quota/paid-part-way.ts';
import type { Refusal } from '../refusal.ts';
import type { ServiceFallback, SpeechRequest } from '../settings/speech-request.ts';
import type { FetchedPart, OrderAccount } from '../sourcing/order-account.ts';
import type { AcceptedTerms, SpokenLine, VoicePlace } from './order-types.ts';
import type {
  Acceptance,
  FirstFrame,
  OrderEvents,
  Requester,
  SpeechOrder,
  SpeechOutcome,
  SpeechTarget,
  StillAllowed,
} from './speech-order.ts';

/**
 * Where an order is: `asked` (taken, its lines split), then `accepted` (checked and held), `sourcing` (its parts
 * fetched and spoken or rendered), `delivered` (played, rendered or failed), `settled` (its charge closed, its place in
 * the queue bounds given back); or `refused` at acceptance. How it ended is its outcome's kind.
 */
export type OrderPhase = 'asked' | 'accepted' | 'sourcing' | 'delivered' | 'settled' | 'refused';

/** The phases each phase may go on to: any other step is a bug, thrown. */
const NEXT: Readonly<Record<OrderPhase, readonly OrderPhase[]>> = {
  asked: ['accepted', 'refused'],
  accepted: ['sourcing'],
  sourcing: ['delivered'],
  delivered: ['settled'],
  settled: [],
  refused: [],
};

/** What the pipeline does at each step of an order; the order calls them in turn and records what they return. */
export interface OrderRun {
  /** Its lines as asked, split into parts; a throw refuses it. */
  lines(): SpokenLine[];
  /** Checks and holds it (its lines as asked): what acceptance settles; a throw refuses it. */
  accept(order: Order): Promise<AcceptedTerms>;
  /** Speaks or renders it: how it ended, a failure included (it never throws). */
  deliver(order: Order): Promise<SpeechOutcome>;
  /** Its outcome, once it is settled and before its front-end hears of it (the pipeline's counts and logs). */
  done(order: Order, outcome: SpeechOutcome): void;
}

export class Order implements OrderAccount, OrderEvents {
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
  readonly accepted: Promise<Acceptance>;
  readonly firstAudio: Promise<FirstFrame>;
  readonly outcome: Promise<SpeechOutcome>;
  #phase: OrderPhase = 'asked';
  #lines: readonly SpokenLine[] = [];
  #fallback: Refusal | undefined;
  #late: QuoteAllowance | undefined;
  #charge: Charge | undefined;
  #admission: Admission | undefined;
  #ahead = 0;
  #playback: VoicePlace | undefined;
  #freeVoice: ServiceFallback | undefined;
  #lineCutAt: number | undefined;
  /** The failure after paid parts that left its file or voice message holding only those (partWay). */
  #restFailed: unknown;
  readonly #end = new AbortController();
  #heard: (frame: FirstFrame) => void = () => undefined;

  /**
   * Takes `order` and runs it through `run`: its lines, its acceptance, its delivery; started here, after this turn,
   * so that what they throw is the order's refusal.
   */
  constructor(order: SpeechOrder, run: OrderRun) {
    this.requester = order.requester;
    this.target = order.target;
    this.stillAllowed = order.stillAllowed;
    this.scene = 'scene' in order;
    this.followUp = 'request' in order && order.followUp === true;
    this.cachedOnly = 'request' in order && order.cachedOnly === true;
    this.sceneFormat = 'scene' in order ? order.sceneFormat : undefined;
    this.quoted = 'scene' in order ? order.quoted : undefined;
    this.firstAudio = new Promise<FirstFrame>((resolve) => (this.#heard = resolve));
    const accepting = Promise.resolve().then(async () => {
      this.#lines = run.lines();
      this.#take(await run.accept(this));
    });
    this.outcome = accepting.then(
      () => this.#deliver(run),
      (error: unknown) => this.#refused(error),
    );
    this.accepted = accepting.then((): Acceptance => {
      const [first] = this.#lines;
      return {
        parts: this.#lines.reduce((sum, line) => sum + line.texts.length, 0),
        ahead: this.#ahead,
        ...(this.#fallback === undefined || first === undefined
          ? {}
          : { fallback: { refusal: this.#fallback, request: first.request } }),
      };
    });
    // A front-end that only awaits the outcome learns of a refusal there; the process must not hear of it.
    this.accepted.catch(() => undefined);
  }

  get phase(): OrderPhase {
    return this.#phase;
  }

  /** Its lines split into parts: as asked until acceptance, then as spoken (AcceptedTerms.lines). */
  get lines(): readonly SpokenLine[] {
    return this.#lines;
  }

  /** Why the paid voice was refused when the free voice speaks instead (acceptance's). */
  get fallback(): Refusal | undefined {
    return this.#fallback;
  }

  /** OrderAccount.late. */
  get late(): QuoteAllowance | undefined {
    return this.#late;
  }

  /** The charge its parts are paid on; asked only once it is accepted. */
  get charge(): Charge {
    if (this.#charge === undefined) throw new Error('an order has no charge before it is accepted');
    return this.#charge;
  }

  /** Clips ahead of it in the guild's queue when it was accepted (voice). */
  get ahead(): number {
    return this.#ahead;
  }

  /** Voice only: the guild's player, its place in the guild's lane, and the player's hold on it until it is queued. */
  get playback(): VoicePlace | undefined {
    return this.#playback;
  }

  /** OrderAccount.freeVoice: the free voice that stood in for the failing service, once one did. */
  get freeVoice(): ServiceFallback | undefined {
    return this.#freeVoice;
  }

  /** OrderAccount.ended: aborted by end(). */
  get ended(): AbortSignal {
    return this.#end.signal;
  }

  /** Ends its render now with `reason` (the first reason stays): the part it waits for is let go of. */
  end(reason: Error): void {
    this.#end.abort(reason);
  }

  /**
   * What a part's fetch learnt (src/core/order/clips.ts orderedPart): the free voice that stood in for the service,
   * a free line cut at its cap. Kept while it is sourced; a part let go of that answers after its delivery is over
   * changes nothing.
   */
  learnt(part: FetchedPart): void {
    if (this.#phase !== 'sourcing') return;
    if (part.freeVoice !== undefined) this.#freeVoice = part.freeVoice;
    if (part.cutAt !== undefined) this.#lineCutAt = part.cutAt;
  }

  /**
   * Its file or voice message holds only the parts paid for before `failure` (src/core/quota/paid-part-way.ts
   * leavesPaidParts): its outcome says why the rest is missing.
   */
  partWay(failure: unknown): void {
    if (this.#phase === 'sourcing') this.#restFailed = failure;
  }

  /** Its first frame went out: with the free voice that spoke it if the service failed. */
  heard(): void {
    this.#heard(this.#freeVoice === undefined ? {} : { freeVoice: this.#freeVoice });
  }

  #enter(next: OrderPhase): void {
    if (!NEXT[this.#phase].includes(next)) throw new Error(`an order does not go from ${this.#phase} to ${next}`);
    this.#phase = next;
  }

  /** Acceptance settled: from here its parts may be fetched. */
  #take(terms: AcceptedTerms): void {
    this.#enter('accepted');
    this.#lines = terms.lines;
    this.#fallback = terms.fallback;
    this.#late = terms.late;
    this.#charge = terms.charge;
    this.#admission = terms.admission;
    this.#ahead = terms.ahead ?? 0;
    this.#playback = terms.playback;
  }

  /** Refused before anything was held or paid: audio handed in whole is let go, and the refusal is its outcome. */
  #refused(error: unknown): SpeechOutcome {
    this.#enter('refused');
    for (const line of this.#lines) discard(line.request);
    return { kind: 'failed', error, secondsHeard: 0 };
  }

  async #deliver(run: OrderRun): Promise<SpeechOutcome> {
    this.#enter('sourcing');
    let delivered: Awaited<ReturnType<OrderRun['deliver']>>;
    try {
      delivered = await run.deliver(this);
    } finally {
      // Whatever the delivery did, its charge is closed and its place in the queue bounds given back once.
      this.#enter('delivered');
      this.#settle();
    }
    const outcome = this.#told(delivered);
    run.done(this, outcome);
    return outcome;
  }

  /** Its charge closed and its place in the queue bounds given back. */
  #settle(): void {
    this.#enter('settled');
    this.#charge?.close();
    this.#admission?.release();
  }

  /** How it was delivered, with what its parts learnt and what it paid said with it. */
  #told(delivered: SpeechOutcome): SpeechOutcome {
    const { charge } = this;
    // Refused for money after parts of it were paid: told as paid part-way, whichever front-end asked.
    const result =
      delivered.kind === 'failed'
        ? { ...delivered, error: afterPaying(delivered.error, charge.paid, charge.written - charge.paid) }
        : delivered;
    const freeVoice = this.#freeVoice;
    const lineCutAt = this.#lineCutAt;
    const paidBefore = charge.paid;
    // A file or voice message of the parts paid for before a later one failed: said with why (paid part-way, once).
    const partWay =
      this.#restFailed === undefined || result.kind === 'failed'
        ? undefined
        : afterPaying(this.#restFailed, paidBefore);
    return {
      ...result,
      ...(partWay === undefined ? {} : { partWay }),
      ...(endedEarly(result.kind) && charge.written > 0 ? { spentSome: true as const } : {}),
      ...(freeVoice === undefined ? {} : { freeVoice: paidBefore > 0 ? { ...freeVoice, paidBefore } : freeVoice }),
      ...(lineCutAt === undefined || result.kind === 'failed' ? {} : { lineCutAt }),
    };
  }
}

/** Audio handed in whole that will not be played or posted is let go (its connection closed). */
export function discard(request: SpeechRequest): void {
  if (request.kind === 'ready') request.response.body.destroy();
}

/** An order in voice that ended before its end: what it spent is said with it (heard or not). */
function endedEarly(kind: SpeechOutcome['kind']): boolean {
  return kind === 'stopped' || kind === 'skipped' || kind === 'cut-off';
}
