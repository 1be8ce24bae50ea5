// The core's one asker of the rights port (rights.ts). An order's rights are asked here and nowhere else: before it
// is accepted (the pipeline's speak), before each of its parts is fetched and played (folded into its
// `stillAllowed`, which rights-watch.ts also asks when a right may have changed), and right before its post. A
// front-end that must answer before its order exists (a target chosen, /join, /clone's download) asks the same
// acceptance question here on the effects it will declare. What the answers mean is the port's implementation's
// (the speaking feature's gate), which the app gives the pipeline (SpeechPipelineOptions `rights`).
import type { Revocation } from './revocation.ts';
import type { OrderEffects, OrderRights, RightsAnswered, RightsVerdict } from './rights.ts';
import type { OrderEvents, SpeechOrder } from './speech-order.ts';

/** Without a port (the core's own tests) an order is held to no rights but the pipeline's own. */
const ALLOWED: RightsVerdict = { kind: 'allowed', privately: false };

export class RightsAsker {
  readonly #port: OrderRights | undefined;

  constructor(port: OrderRights | undefined) {
    this.#port = port;
  }

  /** May an order with these effects be accepted, and must its answer be the member's alone? */
  admits(effects: OrderEffects): RightsVerdict {
    return this.#port?.mayAccept(effects) ?? ALLOWED;
  }

  /** `admits`, thrown: for a front-end that must refuse before it builds its order (a scene's preview, /join). */
  requireAdmitted(effects: OrderEffects): { privately: boolean } {
    const verdict = this.admits(effects);
    if (verdict.kind === 'refused') throw verdict.error;
    return verdict;
  }

  /** May what was accepted with these effects still be said, now (before a part is fetched or played)? */
  stillAllows(effects: OrderEffects): Revocation | undefined {
    return this.#port?.mayPlay(effects);
  }

  /**
   * `order` asked once, then taken (`take`: the pipeline's Order) when allowed, with the port asked before each part
   * ahead of what the order adds itself (`stillAllowed`: auto-read's ignore list). Refused: nothing accepted,
   * nothing paid, and its events say so as an order's do. An order that declares no effects is held to nothing here.
   */
  ask(order: SpeechOrder, take: (order: SpeechOrder) => OrderEvents): OrderEvents & RightsAnswered {
    const { effects } = order;
    if (effects === undefined) return { ...eventsOf(take(order)), privately: false, postsPrivately: () => false };
    const verdict = this.admits(effects);
    if (verdict.kind === 'refused') return refused(verdict.error);
    const more = order.stillAllowed;
    const taken = take({ ...order, stillAllowed: () => this.stillAllows(effects) ?? more?.() });
    return {
      ...eventsOf(taken),
      privately: verdict.privately,
      postsPrivately: () => this.#port?.mayPost(effects) === 'privately',
    };
  }
}

/** An order's three events, apart from the order. */
function eventsOf(order: OrderEvents): OrderEvents {
  return { accepted: order.accepted, firstAudio: order.firstAudio, outcome: order.outcome };
}

/** An order the port refused: nothing accepted, nothing paid; its outcome the refusal, as the pipeline's are. */
function refused(error: Error): OrderEvents & RightsAnswered {
  const accepted = Promise.reject(error);
  // Read by the front-end; an order nobody awaits must not end the process.
  accepted.catch(() => {});
  return {
    accepted,
    firstAudio: new Promise(() => {}),
    outcome: Promise.resolve({ kind: 'failed', error, secondsHeard: 0 }),
    privately: true,
    postsPrivately: () => true,
  };
}
