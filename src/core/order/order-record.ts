// One order's record from acceptance to settlement (Order): what was asked, its phase, what acceptance decided, what
// its parts' fetches learnt, and its front-end's three events. The pipeline (src/core/order/pipeline.ts) runs it; only
// its own methods change it (test/structure/order-fields.test.ts).
import type { Refusal } from '../refusal.ts';
import type { SpeechRequest, StandIn } from '../settings/speech-request.ts';
import type { FetchedPart, OrderAccount } from '../sourcing/order-account.ts';
import type { Admission } from '../quota/capacity.ts';
import type { QuoteAllowance } from '../quota/ledger.ts';
import type { Charge } from '../quota/accounting.ts';
import type { StillAllowed } from './rights.ts';
import type {
  AcceptedTerms,
  Acceptance,
  FirstFrame,
  OrderEvents,
  OrderPhase,
  Requester,
  SpeechOrder,
  SpeechOutcome,
  SpeechTarget,
  SpokenLine,
  VoicePlace,
} from './order.ts';

/** The phases each phase may go on to: any other step is a bug, thrown. */
const NEXT: Readonly<Record<OrderPhase, readonly OrderPhase[]>> = {
  asked: ['accepted', 'refused'],
  accepted: ['sourcing'],
  sourcing: ['settled'],
  settled: [],
  refused: [],
};

/**
 * One order's record from acceptance to settlement, read and written by the pipeline's run: what was asked and the
 * rights it is held to, its phase, its charge and place once accepted, what its parts' fetches learnt, and its
 * front-end's three events. Only its own methods change it (test/structure/order-fields.test.ts).
 */
export class Order implements OrderAccount, OrderEvents {
  readonly asked: SpeechOrder;
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
  #standIn: StandIn | undefined;
  /** Each line a free voice stood in for (its line's request, one of `lines`), and why. */
  readonly #stoodIn = new Map<SpeechRequest, StandIn>();
  #lineCutAt: number | undefined;
  #restFailed: unknown;
  readonly #end = new AbortController();
  /** Aborted once it is settled or refused, or its paid voice is refused for money (a free voice stands in). */
  readonly #over = new AbortController();
  /**
   * What its parts counted free as in flight wait under (PartSource.needs): aborted once it is settled or refused, its
   * render ended or a free voice stands in. Not `ended`: a settled line may still go to the cache.
   */
  readonly waits = AbortSignal.any([this.#end.signal, this.#over.signal]);
  readonly #events = {
    accepted: Promise.withResolvers<Acceptance>(),
    firstAudio: Promise.withResolvers<FirstFrame>(),
    outcome: Promise.withResolvers<SpeechOutcome>(),
  };

  constructor(order: SpeechOrder) {
    this.asked = order;
    this.requester = order.requester;
    this.target = order.target;
    this.stillAllowed = order.stillAllowed;
    this.scene = 'scene' in order;
    this.followUp = 'request' in order && order.followUp === true;
    this.cachedOnly = 'request' in order && order.cachedOnly === true;
    this.sceneFormat = 'scene' in order ? order.sceneFormat : undefined;
    this.quoted = 'scene' in order ? order.quoted : undefined;
    this.accepted = this.#events.accepted.promise;
    this.firstAudio = this.#events.firstAudio.promise;
    this.outcome = this.#events.outcome.promise;
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

  get fallback(): Refusal | undefined {
    return this.#fallback;
  }

  get late(): QuoteAllowance | undefined {
    return this.#late;
  }

  get charge(): Charge {
    if (this.#charge === undefined) throw new Error('an order has no charge before it is accepted');
    return this.#charge;
  }

  get admission(): Admission {
    if (this.#admission === undefined) throw new Error('an order has no admission before it is accepted');
    return this.#admission;
  }

  get ahead(): number {
    return this.#ahead;
  }

  get playback(): VoicePlace | undefined {
    return this.#playback;
  }

  /** OrderAccount.standIn: the free voice that stood in for the failing service, once one did. */
  get standIn(): StandIn | undefined {
    return this.#standIn;
  }

  get stoodIn(): ReadonlyMap<SpeechRequest, StandIn> {
    return this.#stoodIn;
  }

  /** A free line cut at its cap (seconds), once one was. */
  get lineCutAt(): number | undefined {
    return this.#lineCutAt;
  }

  /** The failure after paid parts that left its file holding only those (partWay). */
  get restFailed(): unknown {
    return this.#restFailed;
  }

  get ended(): AbortSignal {
    return this.#end.signal;
  }

  /** Its lines as asked, split into parts. */
  split(lines: readonly SpokenLine[]): void {
    if (this.#phase !== 'asked') throw new Error(`an order is not split once ${this.#phase}`);
    this.#lines = lines;
  }

  /** Acceptance decided: from here its parts may be fetched. */
  accept(terms: AcceptedTerms): void {
    this.#enter('accepted');
    this.#lines = terms.lines;
    this.#fallback = terms.fallback;
    // Its paid voice refused, the flights its paid parts were counted free by wait for it no more.
    if (terms.fallback !== undefined) this.#over.abort();
    this.#late = terms.late;
    this.#charge = terms.charge;
    this.#admission = terms.admission;
    this.#ahead = terms.ahead ?? 0;
    this.#playback = terms.playback;
  }

  /** Its parts are fetched from here: what they learn is kept. */
  source(): void {
    this.#enter('sourcing');
  }

  /** Its front-end hears it was accepted: once its delivery is under way (OrderEvents.accepted). */
  tellAccepted(): void {
    const [first] = this.#lines;
    this.#events.accepted.resolve({
      parts: this.#lines.reduce((sum, line) => sum + line.texts.length, 0),
      ahead: this.#ahead,
      ...(this.#fallback === undefined || first === undefined
        ? {}
        : { fallback: { refusal: this.#fallback, request: first.request } }),
    });
  }

  /** Refused before anything was held or paid: audio handed in whole is let go, and the refusal is its outcome. */
  refuse(error: unknown): void {
    this.#enter('refused');
    this.#over.abort(error);
    for (const line of this.#lines) discard(line.request);
    this.#events.accepted.reject(error);
    this.#events.outcome.resolve({ kind: 'failed', error, secondsHeard: 0 });
  }

  /** Settled (its charge closed, its place given back): its front-end hears how it ended. */
  settled(outcome: SpeechOutcome): void {
    // Told first: a phase out of turn is a bug, thrown, but its front-end never waits for an outcome that will not come.
    this.#events.outcome.resolve(outcome);
    this.#over.abort();
    this.#enter('settled');
  }

  /** Ends its render now with `reason` (the first reason stays): the part it waits for is let go of. */
  end(reason: Error): void {
    this.#end.abort(reason);
  }

  /** What a part's fetch learnt (part-source.ts orderedPart); a part answering after delivery is over changes nothing. */
  learnt(part: FetchedPart, line: SpeechRequest): void {
    if (this.#phase !== 'sourcing') return;
    if (part.standIn !== undefined) this.#stoodIn.set(line, (this.#standIn = part.standIn));
    if (part.cutAt !== undefined) this.#lineCutAt = part.cutAt;
  }

  /** Its file holds only the parts paid before `failure` (src/core/quota/money.ts leavesPaidParts). */
  partWay(failure: unknown): void {
    if (this.#phase === 'sourcing') this.#restFailed = failure;
  }

  /** Its first frame went out: with the free voice that spoke it if the service failed. */
  heard(): void {
    this.#events.firstAudio.resolve(this.#standIn === undefined ? {} : { standIn: this.#standIn });
  }

  #enter(next: OrderPhase): void {
    if (!NEXT[this.#phase].includes(next)) throw new Error(`an order does not go from ${this.#phase} to ${next}`);
    this.#phase = next;
  }
}

/** Audio handed in whole that will not be played or posted is let go (its connection closed). */
export function discard(request: SpeechRequest): void {
  if (request.kind === 'ready') request.response.body.destroy();
}
