// The rights port: the three questions the core's order asks of whoever knows what a member and SayBot may do where
// an order has its effects (may it be accepted, may its next part play, may it be posted publicly). The core asks
// them in one place (src/core/order/rights-asker.ts); the speaking feature's gate answers them
// (src/features/speaking/gate.ts `gatePort`) and the app wires it in (src/app/start-saybot.ts). Types only, and no
// Discord in them: what an order does and where is the implementation's to declare.
import type { Revocation } from './revocation.ts';

/**
 * What an order does and where, as the port's implementation reads it. The core carries it from the front-end to
 * the port without reading it; its fields are declared by the implementation (declaration merging:
 * src/features/speaking/gate-types.ts), so the core names nothing of Discord.
 */
// oxlint-disable-next-line typescript/no-empty-object-type -- its fields are the implementation's
export interface OrderEffects {}

/** The port's word on an order before it is accepted: allowed (its answer public, or the member's alone), or not. */
export type RightsVerdict = { kind: 'allowed'; privately: boolean } | { kind: 'refused'; error: Error };

/** The three questions, each on an order's effects; each reads what is known now and never waits. */
export interface OrderRights {
  /** May an order with these effects be accepted, and must its answer be the member's alone? */
  mayAccept(effects: OrderEffects): RightsVerdict;
  /**
   * May its next part be fetched, or played, now? Asked before each, and whenever a right may have changed
   * (rights-asker.ts): a Revocation when what was accepted may no longer be said.
   */
  mayPlay(effects: OrderEffects): Revocation | undefined;
  /** Right before its file or voice message is posted: publicly, or only to the member who asked? */
  mayPost(effects: OrderEffects): 'publicly' | 'privately';
}

/** What the port said of an order the pipeline took, for its front-end to answer by. */
export interface RightsAnswered {
  /** Its answer is the member's alone (a post they may not make publicly), as the port said at acceptance. */
  privately: boolean;
  /** Asked again right before a file or voice message is posted: must it now be the member's alone? */
  postsPrivately(): boolean;
}
