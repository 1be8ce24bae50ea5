import { randomUUID } from 'node:crypto';
import { Area, type Db, type Dialect } from '../dialect.ts';
import { carryOverGuild, carryOverMember, noticePseudonym, pseudonymKey } from './forget-carry-over.ts';
import {
  type ForgetRule,
  type PlannedStatement,
  forgottenMarker,
  planDescribeMember,
  planForgetGuild,
  planForgetMember,
} from '../forget-plan.ts';
import type { ForgetNotice, ForgetResult, PrivacyTrace } from '../privacy-store.ts';
import type { ClonedVoice } from '../voice-library-store.ts';
import { clonedVoiceOf } from './voice-library.ts';

/** Deletion on request: forget-plan.ts' rules, each deletion in one transaction: `store.privacy`. */
export class PrivacyArea extends Area {
  /** The core's rules and the features'. */
  readonly #rules: readonly ForgetRule[];

  constructor(dialect: Dialect, rules: readonly ForgetRule[]) {
    super(dialect);
    this.#rules = rules;
  }

  /** `first` runs before the rules and returns how many rows it took the ID off (counted as anonymised). */
  async #runAll(statements: PlannedStatement[], first?: (trx: Db) => Promise<number | void>): Promise<ForgetResult> {
    return this.d.transaction(undefined, async (trx) => {
      const carried = (await first?.(trx)) ?? 0;
      const result: ForgetResult = { deleted: 0, anonymised: carried };
      for (const s of statements) {
        const changed = Number((await s.query.execute(trx)).numAffectedRows ?? 0);
        if (s.action === 'delete') result.deleted += changed;
        else result.anonymised += changed;
      }
      return result;
    });
  }

  /** The voices a member cloned, in one guild or every guild; at most 1000 (a library holds far fewer). */
  async clonedVoicesOf(userId: string, guildId?: string): Promise<ClonedVoice[]> {
    const query = this.d.db.selectFrom('voice_library').selectAll().where('created_by', '=', userId);
    return (
      await (guildId === undefined ? query : query.where('guild_id', '=', guildId))
        .orderBy('created_at')
        .limit(1000)
        .execute()
    ).map(clonedVoiceOf);
  }

  /** Rows that keep this member's ID in this guild, per table and column; only those with rows. */
  async describeMember(guildId: string, userId: string): Promise<PrivacyTrace[]> {
    const traces: PrivacyTrace[] = [];
    for (const q of planDescribeMember(this.#rules, userId, guildId)) {
      const rows = Number((await q.query.execute(this.d.db)).rows[0]?.n ?? 0);
      if (rows > 0) traces.push({ table: q.table, column: q.column, rows, kept: q.kept });
    }
    return traces;
  }

  /** Forgets a member in one guild or every guild, in one transaction: own rows deleted, their ID elsewhere replaced by
   * a marker, managers' records kept unless `by` is the operator, and what their budgets count from carried under a
   * keyed pseudonym (forget-carry-over.ts). */
  async forgetMember(
    userId: string,
    guildId?: string,
    at = new Date(),
    by: 'member' | 'operator' = 'member',
  ): Promise<ForgetResult> {
    const key = await pseudonymKey(this.d);
    const plan = planForgetMember(this.#rules, userId, guildId, forgottenMarker(), by === 'operator');
    // What their budgets count from (the day, the last spend, the holds) first moves to pseudonyms.
    return this.#runAll(plan, (trx) => carryOverMember(trx, key, userId, guildId, at));
  }

  /** Forgets a guild in one transaction, its budgets' bases carried under pseudonyms (forget-carry-over.ts). */
  async forgetGuild(guildId: string, at = new Date()): Promise<ForgetResult> {
    const key = await pseudonymKey(this.d);
    const marker = forgottenMarker();
    return this.#runAll(planForgetGuild(this.#rules, guildId, marker), (trx) =>
      carryOverGuild(trx, key, guildId, marker, at),
    );
  }
}

/** The servers SayBot was removed from (table removed_guilds), until their grace period ends: `store.removedGuilds`. */
export class RemovedGuildArea extends Area {
  /** Records when SayBot was removed from the guild; a second removal keeps the first time. */
  async mark(guildId: string, at: Date): Promise<void> {
    await this.d.db
      .insertInto('removed_guilds')
      .values({ guild_id: guildId, removed_at: at.getTime() })
      .onConflict((oc) => oc.column('guild_id').doNothing())
      .execute();
  }

  /** SayBot is back in the guild: its data stays. True if a removal was pending. */
  async cancel(guildId: string): Promise<boolean> {
    const result = await this.d.db.deleteFrom('removed_guilds').where('guild_id', '=', guildId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Guilds removed at or before `cutoff`, oldest first, at most `limit`. */
  async removedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.d.db
      .selectFrom('removed_guilds')
      .select('guild_id')
      .where('removed_at', '<=', cutoff.getTime())
      .orderBy('removed_at')
      .orderBy('guild_id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.guild_id);
  }
}

/** How long a forget notice is kept: running bots read them every few seconds, so a minute is plenty. */
export const FORGET_NOTICE_TTL_MS = 60_000;
/** The most notices read at once (one is written per `npm run forget`). */
const NOTICES_READ_MAX = 100;

/** Deletions by `npm run forget` for running bots (`store.forgetNotices`): pseudonyms only, FORGET_NOTICE_TTL_MS. */
export class ForgetNoticeArea extends Area {
  /** Tells running bots of a deletion just made: a member (in a server, or every one) or a server. */
  async add(notice: { guildId?: string | undefined; userId?: string | undefined }, at = Date.now()): Promise<void> {
    await this.#expire(at);
    await this.d.db
      .insertInto('forget_notices')
      .values({
        token: randomUUID(),
        guild_key: notice.guildId === undefined ? null : await this.guildKey(notice.guildId),
        member_key: notice.userId === undefined ? null : await this.memberKey(notice.userId),
        at,
      })
      .execute();
  }

  /** The notices of the last FORGET_NOTICE_TTL_MS, oldest first (the older ones deleted). */
  async recent(now = Date.now()): Promise<ForgetNotice[]> {
    await this.#expire(now);
    const rows = await this.d.db
      .selectFrom('forget_notices')
      .selectAll()
      .orderBy('at')
      .orderBy('token')
      .limit(NOTICES_READ_MAX)
      .execute();
    return rows.map((row) => ({
      token: row.token,
      at: Number(row.at),
      ...(row.guild_key === null ? {} : { guildKey: row.guild_key }),
      ...(row.member_key === null ? {} : { memberKey: row.member_key }),
    }));
  }

  /** What a notice calls this server. */
  async guildKey(guildId: string): Promise<string> {
    return noticePseudonym(await pseudonymKey(this.d), 'guild', guildId);
  }

  /** What a notice calls this member. */
  async memberKey(userId: string): Promise<string> {
    return noticePseudonym(await pseudonymKey(this.d), 'member', userId);
  }

  async #expire(now: number): Promise<void> {
    await this.d.db
      .deleteFrom('forget_notices')
      .where('at', '<', now - FORGET_NOTICE_TTL_MS)
      .execute();
  }
}
