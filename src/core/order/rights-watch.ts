// Requests in voice and renders by guild, so an event that may take a right away asks again at once: otherwise
// rights are asked only between parts, and a part may last a minute.
import { RightsRevokedError } from './rights.ts';

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
 * The requests in voice by guild, bounded by what may wait in voice (src/core/quota/capacity.ts' QueueBook, auto-read's
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
