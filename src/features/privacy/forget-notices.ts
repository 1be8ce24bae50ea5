// What `npm run forget` deleted reaches running bots through notices in the store, naming only keyed pseudonyms.
import { EventEmitter } from 'node:events';
import type { Logger } from '../../core/log.ts';
import type { ForgetNotice } from '../../core/store/privacy-store.ts';
import type { Store } from '../../core/store/types.ts';

/** How often a running bot reads the notices: a deletion reaches it within this (plus a store round trip). */
export const FORGET_NOTICE_POLL_MS = 2_000;
/** Notices already applied, remembered so one is applied once (notices live a minute in the store). */
const APPLIED_MAX = 1_000;

/** Whom a notice forgot, as found in this process: a member (in one server, or every one) or a server. */
export interface Forgotten {
  guildId?: string;
  userId?: string;
}

export interface ForgetNoticesOptions {
  store: Store;
  logger: Logger;
  /** The servers this process serves, and the members it holds anything of in memory (in one server, or all). */
  holds: { guilds(): Iterable<string>; members(guildId?: string): Iterable<string> };
  /** Drops what this process holds in memory of a forgotten member (userId) or server (guildId alone). */
  apply(forgotten: Forgotten): void;
  pollMs?: number;
}

interface ForgetNoticesEvents {
  /** A notice was read; `forgotten` is whom it named here (undefined: nobody this process holds). */
  applied: [forgotten: Forgotten | undefined];
}

export class ForgetNotices extends EventEmitter<ForgetNoticesEvents> {
  readonly #options: ForgetNoticesOptions;
  /** Tokens applied, oldest first; bounded by APPLIED_MAX. */
  readonly #applied = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;

  constructor(options: ForgetNoticesOptions) {
    super();
    this.#options = options;
  }

  /** Marks the notices already stored as seen, then reads new ones every FORGET_NOTICE_POLL_MS until close(). */
  async start(): Promise<void> {
    try {
      for (const notice of await this.#options.store.forgetNotices.recent()) this.#remember(notice.token);
    } catch (error) {
      // Start-up goes on: the notices are read again at the next turn (at worst one is applied to a fresh memory).
      this.#options.logger.warn({ err: error }, 'reading forget notices failed; the next read tries again');
    }
    this.#timer = setInterval(() => {
      this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
    }, this.#options.pollMs ?? FORGET_NOTICE_POLL_MS);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#reading;
  }

  async #read(): Promise<void> {
    const { store, logger, apply } = this.#options;
    try {
      for (const notice of await store.forgetNotices.recent()) {
        if (this.#applied.has(notice.token)) continue;
        this.#remember(notice.token);
        const forgotten = await this.#find(notice);
        if (forgotten) apply(forgotten);
        // Whom it forgot stays out of the log: only what kind of deletion reached this process.
        const scope =
          notice.memberKey === undefined ? 'server' : notice.guildKey === undefined ? 'member' : 'member-in-server';
        logger.info(
          { scope, held: forgotten !== undefined },
          'a deletion made by npm run forget reached this bot: what it held in memory of them is dropped',
        );
        this.emit('applied', forgotten);
      }
    } catch (error) {
      logger.warn({ err: error }, 'reading forget notices failed; the next read tries again');
    }
  }

  /** Whom the notice's pseudonyms stand for among what this process holds; undefined when it holds nothing of them. */
  async #find(notice: ForgetNotice): Promise<Forgotten | undefined> {
    const { store, holds } = this.#options;
    let guildId: string | undefined;
    if (notice.guildKey !== undefined) {
      guildId = await firstMatching(holds.guilds(), notice.guildKey, (id) => store.forgetNotices.guildKey(id));
      if (guildId === undefined) return undefined;
    }
    if (notice.memberKey === undefined) return guildId === undefined ? undefined : { guildId };
    const userId = await firstMatching(holds.members(guildId), notice.memberKey, (id) =>
      store.forgetNotices.memberKey(id),
    );
    if (userId === undefined) return undefined;
    return guildId === undefined ? { userId } : { guildId, userId };
  }

  #remember(token: string): void {
    this.#applied.add(token);
    for (const oldest of this.#applied) {
      if (this.#applied.size <= APPLIED_MAX) break;
      this.#applied.delete(oldest);
    }
  }
}

async function firstMatching(
  ids: Iterable<string>,
  key: string,
  keyOf: (id: string) => Promise<string>,
): Promise<string | undefined> {
  for (const id of new Set(ids)) if ((await keyOf(id)) === key) return id;
  return undefined;
}
