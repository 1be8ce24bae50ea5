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
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';

/**
 * Files and voice messages one member of a server, or one user outside servers, may have under way: a flood needs
 * many members to fill a server's share, and each of them is refused before the deferral past their own two.
 */
export const MAX_FILES_PER_MEMBER = 2;
/**
 * Files and voice messages one server may have under way: room for a crowd (ten members asking for the same line at
 * once each get their file), and never the whole bot's, so another server's file is never refused for it.
 */
export const MAX_FILES_PER_GUILD = 16;
/** Files and voice messages under way over every server: the bound on rendered audio held, with each one's size. */
export const MAX_FILES = 32;

/**
 * Whom a share is counted to: a server (and, when given, its member, who also has a share of their own), or outside
 * servers (the user install) the user.
 */
export type FileOwner = { guildId: string; userId?: string } | { userId: string };

/** A server, a member of it and a user never share a key, whatever their ids. */
const keyOf = (owner: FileOwner): string => ('guildId' in owner ? `guild:${owner.guildId}` : `user:${owner.userId}`);
const memberKey = (owner: FileOwner): string | undefined =>
  'guildId' in owner && owner.userId !== undefined ? `member:${owner.guildId}:${owner.userId}` : undefined;

/**
 * One bot's shares (CommandContext.fileShares, made with the bot in src/app/saybot.ts): every front-end that posts a
 * file or a voice message for a member takes one. Per bot, not per process, so that two bots in one process (tests,
 * the bench) never count, nor refuse, each other's files.
 */
export class FileShares {
  readonly #perOwner: number;
  readonly #perMember: number;
  readonly #total: number;
  /** Shares held per owner (keyOf); an entry goes at 0, so the map holds only owners with a file under way. */
  readonly #owners = new Map<string, number>();
  #held = 0;

  constructor(perOwner = MAX_FILES_PER_GUILD, total = MAX_FILES, perMember = MAX_FILES_PER_MEMBER) {
    this.#perOwner = perOwner;
    this.#perMember = perMember;
    this.#total = total;
  }

  /**
   * One of `owner`'s shares, held until the returned release (idempotent) is called. Throws a UserError, nothing
   * taken, past the member's share ('error.files.memberBusy'), a user's outside servers ('error.files.userBusy'), the
   * server's ('error.files.guildBusy', with its limit) or the bot's ('error.files.busy'); unless `refuse` is false
   * (what was already paid for: a clone's first line), which is counted all the same.
   */
  take(owner: FileOwner, refuse = true): () => void {
    const key = keyOf(owner);
    const member = memberKey(owner);
    if (refuse) this.#check(owner, key, member);
    const keys = member === undefined ? [key] : [key, member];
    for (const k of keys) this.#owners.set(k, (this.#owners.get(k) ?? 0) + 1);
    this.#held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
      for (const k of keys) {
        const left = (this.#owners.get(k) ?? 1) - 1;
        if (left > 0) this.#owners.set(k, left);
        else this.#owners.delete(k);
      }
    };
  }

  /** Refuses, nothing taken, an owner past their share: the member's own first, then the server's, then the bot's. */
  #check(owner: FileOwner, key: string, member: string | undefined): void {
    if (!('guildId' in owner)) {
      if ((this.#owners.get(key) ?? 0) >= this.#perMember)
        throw new UserError('error.files.userBusy', { limit: this.#perMember });
    } else {
      if (member !== undefined && (this.#owners.get(member) ?? 0) >= this.#perMember)
        throw new UserError('error.files.memberBusy', { limit: this.#perMember });
      const mine = this.#owners.get(key) ?? 0;
      // Refused before anything is made or sent: "nothing was charged", not the audio worker's "nothing twice".
      if (mine >= this.#perOwner) throw new UserError('error.files.guildBusy', { limit: this.#perOwner });
    }
    if (this.#held >= this.#total) throw new UserError('error.files.busy');
  }

  /** Shares held: over the bot, or by one owner (a server's, whoever holds them; a member's own when given). */
  held(owner?: FileOwner): number {
    if (owner === undefined) return this.#held;
    return this.#owners.get(memberKey(owner) ?? keyOf(owner)) ?? 0;
  }
}
