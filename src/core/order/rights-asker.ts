// The core's one asker of the rights port (rights.ts). An order's rights are asked here and nowhere else: before it
// is accepted (the pipeline's speak), before each of its parts is fetched and played (folded into its
// `stillAllowed`, which the RightsWatch below also asks when a right may have changed), and right before its post. A
// front-end that must answer before its order exists (a target chosen, /join, /clone's download) asks the same
// acceptance question here on the effects it will declare. What the answers mean is the port's implementation's
// (the speaking feature's gate), which the app gives the pipeline (SpeechPipelineOptions `rights`).
import type { OrderEffects, OrderRights, RightsAnswered, RightsVerdict } from './rights.ts';
import type { SpeechOrder } from './speech-order.ts';
import { RightsRevokedError, type Revocation } from './revocation.ts';

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
   * `order` asked once before it is taken: refused, or allowed and held to the port before each part, ahead of what
   * it adds itself (`stillAllowed`: auto-read's ignore list), with whether its answer is the member's alone. An order
   * that declares no effects is held to nothing here.
   */
  admit(
    order: SpeechOrder,
  ): { kind: 'refused'; error: Error } | (RightsAnswered & { kind: 'allowed'; order: SpeechOrder }) {
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

// Speech playing or queued in voice, and files and voice messages being made, by guild, so that an event saying a
// right may have been taken away (a member's voice state, a channel's or role's permissions, auto-read's ignore list,
// a server left) asks the one check again at once and silences what plays for that member, or lets go of the part a
// file waits for: rights are otherwise asked only between parts (revocation.ts), and a part may last a minute.
/** One request in voice, from the moment its clips are made, or a render, until its outcome. */
export interface WatchedSpeech {
  readonly guildId: string;
  readonly userId: string;
  /** The pipeline's one check before each part: rejects with what ends the request (revocation.ts, a voice deleted). */
  check(): Promise<void>;
  /**
   * Ends it now with this error: the clip playing stops at its next packet (a render lets go of the part it waits
   * for), the rest is dropped unrequested.
   */
  end(error: RightsRevokedError): void;
}

/**
 * The requests in voice by guild. Bounded by what may wait in voice: the queue bounds per guild and member
 * (src/core/quota/seconds-bounds.ts), auto-read's backlog; an entry leaves with its request's outcome. An event asks
 * again only the
 * requests of its guild (of its member, when it names one), each with the check that reads Discord's caches: bounded
 * work per event, nothing polled.
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

  /**
   * A right may have been taken away in this guild (from this member, when `userId` is given): each of its requests
   * in voice is checked again now, and one no longer allowed is ended. The check reads caches already current, so
   * the clip stops within the turn of the event that changed them.
   */
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
