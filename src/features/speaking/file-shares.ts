// Files and voice messages under way: from before a request is handed over until its reply is posted (or fails), each
// one holds a share, a few per owner and a few over the bot. A request past them is refused before anything is
// accepted, deferred or made: its only answer is the member's private refusal, one response (a refusal after the
// deferral costs three requests: the deferral, its deletion and the follow-up). What a flood of one server's files may
// hold (rendered audio waiting for its upload, docs/benchmarks.md figure 21) is so bounded in number, whatever the
// rate, and another server's file is never refused for its share.
//
// The owner is the server; outside servers (the user install, user-install.ts) it is the user. Their requests all
// carry one pseudo-guild (USER_INSTALL_GUILD), which stands for no place people share: counted under it, one user's
// four DMs would refuse every other user of the install, anywhere. A user is also what spends there (their own daily
// budget and cooldown within the pseudo-guild), and the bot's bound still holds them all together.
import { AudioBusyError } from '../../core/audio/errors.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';

/**
 * Files and voice messages one server, or one user outside servers, may have under way: as many as its free-voice lines (MAX_FREE_LINES_PER_GUILD
 * in src/core/free-voice/free-voice-engine.ts), so a flood of one-line free files is refused here, before its
 * deferral, rather than by the free voice's share after it.
 */
export const MAX_FILES_PER_GUILD = 4;
/** Files and voice messages under way over every server: the bound on rendered audio held, with each one's size. */
export const MAX_FILES = 32;

/** Whom a share is counted to: a server, or outside servers (the user install) the user. */
export type FileOwner = { guildId: string } | { userId: string };

/** A server and a user never share a key, whatever their ids. */
const keyOf = (owner: FileOwner): string => ('guildId' in owner ? `guild:${owner.guildId}` : `user:${owner.userId}`);

/**
 * One bot's shares (CommandContext.fileShares, made with the bot in src/app/saybot.ts): every front-end that posts a
 * file or a voice message for a member takes one. Per bot, not per process, so that two bots in one process (tests,
 * the bench) never count, nor refuse, each other's files.
 */
export class FileShares {
  readonly #perOwner: number;
  readonly #total: number;
  /** Shares held per owner (keyOf); an entry goes at 0, so the map holds only owners with a file under way. */
  readonly #owners = new Map<string, number>();
  #held = 0;

  constructor(perOwner = MAX_FILES_PER_GUILD, total = MAX_FILES) {
    this.#perOwner = perOwner;
    this.#total = total;
  }

  /**
   * One of `owner`'s shares, held until the returned release (idempotent) is called. Throws, nothing taken, when a
   * server has its share (AudioBusyError 'owner-busy', with its limit), when a user has theirs (UserError
   * 'error.files.userBusy': their own, not a server's) or when the bot has (AudioBusyError 'busy'); unless `refuse` is
   * false (what was already paid for: a clone's first line), which is counted all the same.
   */
  take(owner: FileOwner, refuse = true): () => void {
    const key = keyOf(owner);
    const mine = this.#owners.get(key) ?? 0;
    if (refuse && mine >= this.#perOwner) {
      if ('userId' in owner) throw new UserError('error.files.userBusy', { limit: this.#perOwner });
      throw new AudioBusyError('owner-busy', `${mine} files are under way in this server`, { limit: this.#perOwner });
    }
    if (refuse && this.#held >= this.#total) throw new AudioBusyError('busy', `${this.#held} files are under way`);
    this.#owners.set(key, mine + 1);
    this.#held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
      const left = (this.#owners.get(key) ?? 1) - 1;
      if (left > 0) this.#owners.set(key, left);
      else this.#owners.delete(key);
    };
  }

  /** Shares held: over the bot, or by one owner. */
  held(owner?: FileOwner): number {
    return owner === undefined ? this.#held : (this.#owners.get(keyOf(owner)) ?? 0);
  }
}
