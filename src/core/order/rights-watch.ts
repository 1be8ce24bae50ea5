// Speech playing or queued in voice, and files and voice messages being made, by guild, so that an event saying a
// right may have been taken away (a member's voice state, a channel's or role's permissions, auto-read's ignore list,
// a server left) asks the one check again at once and silences what plays for that member, or lets go of the part a
// file waits for: rights are otherwise asked only between parts (revocation.ts), and a part may last a minute.
import { RightsRevokedError } from './revocation.ts';

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
 * (src/core/quota/queue-bounds.ts), auto-read's backlog; an entry leaves with its request's outcome. An event asks
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
