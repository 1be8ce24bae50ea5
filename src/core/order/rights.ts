// An order's rights, as the core asks them: the port (OrderRights), answered by src/features/speaking/gate.ts
// `gatePort` (no Discord in these types): before an order is accepted, before each part is fetched and played (its
// `stillAllowed`, also asked by src/core/order/rights-watch.ts when a right may have changed), and before its post; a
// front-end that must answer before its order exists (/join, /clone's download) asks the same port. And what was
// taken away when speech accepted earlier may no longer be said (Revocation, RightsRevokedError): rights may be taken
// away while it waits or plays.

/** What an order does and where; fields declared by the implementation (src/features/speaking/gate-types.ts). */
// oxlint-disable-next-line typescript/no-empty-object-type -- its fields are the implementation's
export interface OrderEffects {}

/** The port's word on an order before it is accepted: allowed (its answer public, or the member's alone), or not. */
export type RightsVerdict = { kind: 'allowed'; privately: boolean } | { kind: 'refused'; error: Error };

/** What of an order its rights read: its effects, and what it is held to besides them. */
export interface RightsAsked {
  effects?: OrderEffects | undefined;
  stillAllowed?: StillAllowed | undefined;
}

/** An order's rights, each asked of its effects; each reads what is known now and never waits. */
export interface OrderRights {
  /** May an order with these effects be accepted, and must its answer be the member's alone? */
  allows(effects: OrderEffects): RightsVerdict;
  /** `allows`, thrown: for a front-end that must refuse before it builds its order (a scene's preview, /join). */
  requireAllowed(effects: OrderEffects): { privately: boolean };
  /** May what was accepted with these effects still be said, now (before a part is fetched or played)? */
  stillAllows(effects: OrderEffects): Revocation | undefined;
  /**
   * `order` asked once before it is taken: refused, or held to these rights before each part (before its own
   * stillAllowed), with whether its answer is the member's alone now and right before its post. An order that
   * declares no effects is held to nothing of them.
   */
  allow<Order extends RightsAsked>(
    order: Order,
  ): { kind: 'refused'; error: Error } | (RightsAnswered & { kind: 'allowed'; order: Order });
}

/** What the port said of an order the pipeline took, for its front-end to answer by. */
export interface RightsAnswered {
  /** Its answer is the member's alone (a post they may not make publicly), as the port said at acceptance. */
  privately: boolean;
  /** Asked again right before a file or voice message is posted: must it now be the member's alone? */
  postsPrivately(): boolean;
}

/**
 * The member's own voice rights (src/features/speaking/gate.ts): in the channel, not server-muted, not a Stage
 * listener, View Channel, Speak and Connect there, not timed out.
 */
export type MemberVoiceRight =
  'not-in-voice' | 'muted' | 'suppressed' | 'may-not-view' | 'may-not-speak' | 'may-not-connect' | 'timed-out';

/** What was taken away, in domain terms; the front-ends word it (src/features/speaking/failure-words.ts). */
export type Revocation =
  /** The member's own voice rights in the channel the speech plays in (src/features/speaking/gate.ts reads them). */
  | { code: MemberVoiceRight; channelId: string }
  /** Auto-read's managers asked it not to read this member. */
  | { code: 'ignored' }
  /** SayBot itself is no longer heard there (server-muted, or in a Stage's audience where it may not speak). */
  | { code: 'bot-unheard'; channelId: string; helperId?: string | undefined }
  /** SayBot is no longer in the server (kicked, or the server deleted). */
  | { code: 'not-served' };

/**
 * Asked before each part is fetched and plays, and when a right may have changed: whether what was accepted may still
 * be said (voice rights, in `voiceChannelId` when given: where it plays now; auto-read's ignore list). A Revocation
 * ends the playing part and drops the rest, unpaid.
 */
export type StillAllowed = (voiceChannelId?: string) => Revocation | undefined | Promise<Revocation | undefined>;

/** A part, and the rest of its request, dropped because a right was taken away after acceptance. */
export class RightsRevokedError extends Error {
  readonly revocation: Revocation;
  /** Paid requests had left for it before: the characters the books confirmed of them (its words say so), 0 if none. */
  readonly spent: number | undefined;
  /** Some of it had been heard: what was dropped is the rest. False for an order still queued, or not yet heard. */
  readonly started: boolean;

  constructor(revocation: Revocation, spent?: number, started = true) {
    super(`speech no longer allowed (${revocation.code})`);
    this.name = 'RightsRevokedError';
    this.revocation = revocation;
    this.spent = spent;
    this.started = started;
  }
}
