// The rights port: the three questions the order asks of whoever knows what a member and SayBot may do (asked in
// rights-asker.ts, answered by src/features/speaking/gate.ts `gatePort`). Types only, no Discord in them.
import type { Revocation } from './revocation.ts';

/** What an order does and where; fields declared by the implementation (src/features/speaking/gate-types.ts). */
// oxlint-disable-next-line typescript/no-empty-object-type -- its fields are the implementation's
export interface OrderEffects {}

/** The port's word on an order before it is accepted: allowed (its answer public, or the member's alone), or not. */
export type RightsVerdict = { kind: 'allowed'; privately: boolean } | { kind: 'refused'; error: Error };

/** The three questions, each on an order's effects; each reads what is known now and never waits. */
export interface OrderRights {
  /** May an order with these effects be accepted, and must its answer be the member's alone? */
  mayAccept(effects: OrderEffects): RightsVerdict;
  /** May its next part be fetched or played now? A Revocation when what was accepted may no longer be said. */
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
