// Files and voice messages under way, from hand-over until posted, each hold a share: a few per owner and a few over
// the bot. Past them a request is refused before it is accepted or deferred (one response; after a deferral it costs
// three). So rendered audio awaiting upload (docs/benchmarks.md figure 21) is bounded in number whatever the rate, and
// no server's file is refused for another's. Outside servers the owner is the user: the user install's one
// pseudo-guild (USER_INSTALL_GUILD) is no shared place, and counted under it one user would refuse all others.
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';

/** Per member (or user outside servers): a flood needs many members, each refused past their own two. */
export const MAX_FILES_PER_MEMBER = 2;
/** Per server: room for a crowd, never the whole bot's, so another server's file is never refused for it. */
export const MAX_FILES_PER_GUILD = 16;
/** Files and voice messages under way over every server: the bound on rendered audio held, with each one's size. */
export const MAX_FILES = 32;

/** Whom a share is counted to: a server (and its member, when given), or outside servers the user. */
export type FileOwner = { guildId: string; userId?: string } | { userId: string };

/** A server, a member of it and a user never share a key, whatever their ids. */
const keyOf = (owner: FileOwner): string => ('guildId' in owner ? `guild:${owner.guildId}` : `user:${owner.userId}`);
const memberKey = (owner: FileOwner): string | undefined =>
  'guildId' in owner && owner.userId !== undefined ? `member:${owner.guildId}:${owner.userId}` : undefined;

/** One bot's shares (CommandContext.fileShares): per bot, not per process, so two bots in one process never mix. */
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
   * One of `owner`'s shares until the returned release (idempotent). Past the member's, user's, server's or bot's
   * share throws a UserError, nothing taken; unless `refuse` is false (already paid: a clone's first line).
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
