// An order's rights. The port: the three questions an order asks of whoever knows what a member and SayBot may do
// (answered by src/features/speaking/gate.ts `gatePort`; no Discord in them). Its one asker (RightsAsker): before an
// order is accepted, before each part is fetched and played (its `stillAllowed`, also asked by RightsWatch when a
// right may have changed), and before its post; a front-end that must answer before its order exists (/join,
// /clone's download) asks here too. And what was taken away when speech accepted earlier may no longer be said
// (Revocation, RightsRevokedError): rights may be taken away while it waits or plays.

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
  /** The server is no longer one SayBot serves (ALLOWED_GUILDS). */
  | { code: 'not-served' };

/**
 * Asked before each part is fetched and plays, and when a right may have changed: whether what was accepted may still
 * be said (voice rights, auto-read's ignore list). A Revocation ends the playing part and drops the rest, unpaid.
 */
export type StillAllowed = () => Revocation | undefined | Promise<Revocation | undefined>;

/** A part, and the rest of its request, dropped because a right was taken away after acceptance. */
export class RightsRevokedError extends Error {
  readonly revocation: Revocation;

  constructor(revocation: Revocation) {
    super(`speech no longer allowed (${revocation.code})`);
    this.name = 'RightsRevokedError';
    this.revocation = revocation;
  }
}

/** Without a port (the core's own tests) an order is held to no rights but the pipeline's own. */
const ALLOWED: RightsVerdict = { kind: 'allowed', privately: false };

/** What of an order its rights read: its effects, and what it is held to besides them. */
interface Asked {
  effects?: OrderEffects | undefined;
  stillAllowed?: StillAllowed | undefined;
}

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

  /** `order` asked once before it is taken: refused, or held to the port before each part, before its stillAllowed. */
  admit<Order extends Asked>(
    order: Order,
  ): { kind: 'refused'; error: Error } | (RightsAnswered & { kind: 'allowed'; order: Order }) {
    const { effects } = order;
    if (effects === undefined) return { kind: 'allowed', order, privately: false, postsPrivately: () => false };
    const verdict = this.admits(effects);
    if (verdict.kind === 'refused') return verdict;
    const more = order.stillAllowed;
    return {
      kind: 'allowed',
      order: { ...order, stillAllowed: () => this.stillAllows(effects) ?? more?.() },
      privately: verdict.privately,
      postsPrivately: () => this.#port?.mayPost(effects) === 'privately',
    };
  }
}

// Requests in voice and renders by guild, so an event that may take a right away asks again at once: otherwise
// rights are asked only between parts, and a part may last a minute.
/** One request in voice, from the moment its clips are made, or a render, until its outcome. */
export interface WatchedSpeech {
  readonly guildId: string;
  readonly userId: string;
  /** The pipeline's one check before each part: rejects with what ends the request (a Revocation, a voice deleted). */
  check(): Promise<void>;
  /** Ends it now: the playing clip stops at its next packet (a render lets go of its part), the rest is dropped. */
  end(error: RightsRevokedError): void;
}

/**
 * The requests in voice by guild, bounded by what may wait in voice (src/core/quota/money.ts, auto-read's
 * backlog). An event asks again only its guild's (its member's) requests: bounded work per event, nothing polled.
 */
export class RightsWatch {
  readonly #byGuild = new Map<string, Set<WatchedSpeech>>();

  /** Watches `speech` until the returned function is called (at its outcome). */
  watch(speech: WatchedSpeech): () => void {
    let watched = this.#byGuild.get(speech.guildId);
    if (watched === undefined) {
      watched = new Set();
      this.#byGuild.set(speech.guildId, watched);
    }
    watched.add(speech);
    return () => {
      watched.delete(speech);
      if (watched.size === 0 && this.#byGuild.get(speech.guildId) === watched) this.#byGuild.delete(speech.guildId);
    };
  }

  /** A right may have been taken away here (from `userId`): each request is checked again now and ended if refused. */
  recheck(guildId: string, userId?: string): void {
    const watched = this.#byGuild.get(guildId);
    if (watched === undefined) return;
    for (const speech of watched) {
      if (userId !== undefined && speech.userId !== userId) continue;
      speech.check().catch((error: unknown) => {
        // A deleted voice or another failure is the next part's to report; only a right taken away ends it now.
        if (error instanceof RightsRevokedError && watched.has(speech)) speech.end(error);
      });
    }
  }
}
