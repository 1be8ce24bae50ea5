// How long SayBot's view of a member is trusted: nothing tells of a kick or lost role without Guild Members, so about
// a minute (`trustMs`), and a change asks at once. One lookup per member and server at a time; bounded (`maxViews`).
import type { Membership } from './dashboard-types.ts';

export interface MemberViewLimits {
  /** How long a member's view is trusted before Discord is asked again. */
  trustMs: number;
  /** How long "not a member there" is kept (a member who joins waits at most this). */
  absentMs: number;
  /** Views kept at once, all members and servers together. */
  maxViews: number;
}

export const MEMBER_VIEW_LIMITS: MemberViewLimits = { trustMs: 60_000, absentMs: 10_000, maxViews: 10_000 };

/** Asks Discord now: the member as SayBot sees them there, or undefined when they are not one. */
export type MemberLookUp = (guildId: string, userId: string) => Promise<Membership | undefined>;

interface View {
  membership: Membership | undefined;
  /** When the question was asked (not answered): the answer is at least this fresh. */
  askedAt: number;
}

export class MemberViews {
  /** member -> server -> view; the member last asked about last (the order eviction follows). */
  readonly #views = new Map<string, Map<string, View>>();
  #count = 0;
  /** The lookup in flight per `${guildId}/${userId}`. */
  readonly #asking = new Map<string, Promise<Membership | undefined>>();
  readonly #lookUp: MemberLookUp;
  readonly #now: () => number;
  readonly #limits: MemberViewLimits;

  constructor(lookUp: MemberLookUp, now: () => number, limits: MemberViewLimits = MEMBER_VIEW_LIMITS) {
    this.#lookUp = lookUp;
    this.#now = now;
    this.#limits = limits;
  }

  /** The member in that server: the view while it is trusted, else (or `fresh`) Discord's answer now. */
  view(guildId: string, userId: string, fresh: boolean): Promise<Membership | undefined> {
    const known = this.#views.get(userId)?.get(guildId);
    if (!fresh && known !== undefined) {
      const trustedFor = known.membership === undefined ? this.#limits.absentMs : this.#limits.trustMs;
      if (this.#now() - known.askedAt < trustedFor) return Promise.resolve(known.membership);
    }
    return this.#ask(guildId, userId);
  }

  /** Discord said the member left, was banned or changed there: the next view asks again. */
  forget(guildId: string, userId: string): void {
    const views = this.#views.get(userId);
    if (views?.delete(guildId) === true) {
      this.#count -= 1;
      if (views.size === 0) this.#views.delete(userId);
    }
    this.#asking.delete(key(guildId, userId));
  }

  /** A new login: everything known of the member is asked again. */
  forgetMember(userId: string): void {
    this.#count -= this.#views.get(userId)?.size ?? 0;
    this.#views.delete(userId);
    for (const asked of [...this.#asking.keys()]) if (asked.endsWith(`/${userId}`)) this.#asking.delete(asked);
  }

  /** A server's roles, owner or presence changed: every view of it is asked again. */
  forgetServer(guildId: string): void {
    for (const [userId, views] of [...this.#views]) if (views.has(guildId)) this.forget(guildId, userId);
    for (const asked of [...this.#asking.keys()]) if (asked.startsWith(`${guildId}/`)) this.#asking.delete(asked);
  }

  /** Views held now (for tests of the bound). */
  get size(): number {
    return this.#count;
  }

  #ask(guildId: string, userId: string): Promise<Membership | undefined> {
    const asked = key(guildId, userId);
    const pending = this.#asking.get(asked);
    if (pending !== undefined) return pending;
    const askedAt = this.#now();
    // Only the lookup still registered when it answers is remembered: one forgotten meanwhile may be out of date.
    const current = () => this.#asking.get(asked) === asking;
    const asking: Promise<Membership | undefined> = this.#lookUp(guildId, userId).then(
      (membership) => {
        if (current()) {
          this.#asking.delete(asked);
          this.#remember(guildId, userId, { membership, askedAt });
        }
        return membership;
      },
      (error: unknown) => {
        if (current()) this.#asking.delete(asked);
        throw error;
      },
    );
    this.#asking.set(asked, asking);
    return asking;
  }

  #remember(guildId: string, userId: string, view: View): void {
    const views = this.#views.get(userId) ?? new Map<string, View>();
    this.#views.delete(userId);
    this.#views.set(userId, views);
    if (!views.has(guildId)) this.#count += 1;
    views.delete(guildId);
    views.set(guildId, view);
    while (this.#count > this.#limits.maxViews) {
      const [oldestMember, oldest] = this.#views.entries().next().value ?? [];
      const oldestServer = oldest?.keys().next().value;
      if (oldestMember === undefined || oldestServer === undefined) break;
      this.forget(oldestServer, oldestMember);
    }
  }
}

const key = (guildId: string, userId: string) => `${guildId}/${userId}`;
