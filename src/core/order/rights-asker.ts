// The core's one asker of the rights port (rights.ts): before an order is accepted, before each part is fetched and
// played (its `stillAllowed`, also asked by RightsWatch when a right may have changed), and before its post. A
// front-end that must answer before its order exists (/join, /clone's download) asks here too.
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

  /** `order` asked once before it is taken: refused, or held to the port before each part, before its stillAllowed. */
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

// Requests in voice and renders by guild, so an event that may take a right away asks again at once: otherwise
// rights are asked only between parts, and a part may last a minute.
/** One request in voice, from the moment its clips are made, or a render, until its outcome. */
export interface WatchedSpeech {
  readonly guildId: string;
  readonly userId: string;
  /** The pipeline's one check before each part: rejects with what ends the request (revocation.ts, a voice deleted). */
  check(): Promise<void>;
  /** Ends it now: the playing clip stops at its next packet (a render lets go of its part), the rest is dropped. */
  end(error: RightsRevokedError): void;
}

/**
 * The requests in voice by guild, bounded by what may wait in voice (src/core/quota/seconds-bounds.ts, auto-read's
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
