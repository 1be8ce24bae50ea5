// Files and voice messages under way: from before a request is handed over until its reply is posted (or fails), each
// one holds a share, a few per server and a few over the bot. A request past them is refused before anything is
// accepted, deferred or made: its only answer is the member's private refusal, one response (a refusal after the
// deferral costs three requests: the deferral, its deletion and the follow-up). What a flood of one server's files may
// hold (rendered audio waiting for its upload, docs/benchmarks.md figure 21) is so bounded in number, whatever the
// rate, and another server's file is never refused for its share.
import { AudioBusyError } from '../../core/audio/errors.ts';

/**
 * Files and voice messages one server may have under way: as many as its free-voice lines (MAX_FREE_LINES_PER_GUILD
 * in src/core/free-voice/free-voice-engine.ts), so a flood of one-line free files is refused here, before its
 * deferral, rather than by the free voice's share after it.
 */
export const MAX_FILES_PER_GUILD = 4;
/** Files and voice messages under way over every server: the bound on rendered audio held, with each one's size. */
export const MAX_FILES = 32;

/**
 * One bot's shares (CommandContext.fileShares, made with the bot in src/app/saybot.ts): every front-end that posts a
 * file or a voice message for a member takes one. Per bot, not per process, so that two bots in one process (tests,
 * the bench) never count, nor refuse, each other's files.
 */
export class FileShares {
  readonly #perGuild: number;
  readonly #total: number;
  /** Shares held per server; an entry goes at 0, so the map holds only servers with a file under way. */
  readonly #guilds = new Map<string, number>();
  #held = 0;

  constructor(perGuild = MAX_FILES_PER_GUILD, total = MAX_FILES) {
    this.#perGuild = perGuild;
    this.#total = total;
  }

  /**
   * One of `guildId`'s shares, held until the returned release (idempotent) is called. Throws AudioBusyError, nothing
   * taken, when the server has its share ('owner-busy', with its limit) or the bot has ('busy'); unless `refuse` is
   * false (what was already paid for: a clone's first line), which is counted all the same.
   */
  take(guildId: string, refuse = true): () => void {
    const mine = this.#guilds.get(guildId) ?? 0;
    if (refuse && mine >= this.#perGuild)
      throw new AudioBusyError('owner-busy', `${mine} files are under way in this server`, { limit: this.#perGuild });
    if (refuse && this.#held >= this.#total) throw new AudioBusyError('busy', `${this.#held} files are under way`);
    this.#guilds.set(guildId, mine + 1);
    this.#held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
      const left = (this.#guilds.get(guildId) ?? 1) - 1;
      if (left > 0) this.#guilds.set(guildId, left);
      else this.#guilds.delete(guildId);
    };
  }

  /** Shares held: over the bot, or by one server. */
  held(guildId?: string): number {
    return guildId === undefined ? this.#held : (this.#guilds.get(guildId) ?? 0);
  }
}
