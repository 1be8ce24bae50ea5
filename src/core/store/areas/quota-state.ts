// The bot-wide quota state (`store.quota`): the service's latest figures (X-RateLimit-*, from any answer) and the
// used-up month's mark, kept between restarts. Marks and figures only, the figures kept under the month of
// src/core/calendar.ts they came in: what they mean, and when to set or clear a mark, is src/core/quota/'s decision.
import type { UsageInfo } from '../../api/errors.ts';
import type { QuotaMarkAccount, QuotaState } from '../quota-store.ts';
import { Area, dateOf, orNull, present, type Db } from '../dialect.ts';
import { monthOf } from '../../calendar.ts';

const NO_MARK = {
  exhausted_reset_at: null,
  exhausted_marked_at: null,
  exhausted_account: null,
  exhausted_plan: null,
  exhausted_limit: null,
};

/** The bot-wide quota state (one row of quota_state): `store.quota`. */
export class QuotaArea extends Area {
  async get(): Promise<QuotaState> {
    const row = await this.d.db.selectFrom('quota_state').selectAll().where('id', '=', 1).executeTakeFirst();
    const state: QuotaState = {};
    if (row?.exhausted_reset_at != null && row.exhausted_marked_at !== null) {
      const { exhausted_account: account, exhausted_plan: plan, exhausted_limit: limit } = row;
      state.exhausted = {
        resetAt: new Date(row.exhausted_reset_at),
        markedAt: new Date(row.exhausted_marked_at),
        ...present({ account, plan, limit }),
      };
    }
    if (row?.service_month != null && row.service_updated_at !== null) {
      const usage = present({
        limit: row.service_limit,
        used: row.service_used,
        remaining: row.service_remaining,
        resetAt: dateOf(row.service_reset_at),
      });
      state.service = { ...usage, month: row.service_month, updatedAt: new Date(row.service_updated_at) };
    }
    return state;
  }

  /** The service's figures from an answer that spent nothing (its 429 or 400), kept as a spend's are. */
  async noteService(service: UsageInfo, at = new Date()): Promise<void> {
    await noteServiceUsage(this.d.db, service, at);
  }

  /** Marks the monthly quota used up until `resetAt` (or until Accounting clears it), under `by`. */
  async markExhausted(resetAt: Date, at = new Date(), by: QuotaMarkAccount = {}): Promise<void> {
    await this.d.db
      .updateTable('quota_state')
      .set({
        exhausted_reset_at: resetAt.getTime(),
        exhausted_marked_at: at.getTime(),
        exhausted_account: orNull(by.account),
        exhausted_plan: orNull(by.plan),
        exhausted_limit: orNull(by.limit),
      })
      .where('id', '=', 1)
      .execute();
  }

  /** Removes the mark; true when there was one. */
  async clearExhausted(): Promise<boolean> {
    const result = await this.d.db
      .updateTable('quota_state')
      .set(NO_MARK)
      .where('id', '=', 1)
      .where('exhausted_marked_at', 'is not', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

/** The service's usage figures as columns (NULL where it sent none). */
export const serviceColumns = (service: UsageInfo) => ({
  service_used: orNull(service.used),
  service_limit: orNull(service.limit),
  service_remaining: orNull(service.remaining),
  service_reset_at: orNull(service.resetAt?.getTime()),
});

/** Keeps an answer's figures as the latest (a slightly high one costs nothing); a missing one kept within the month. */
export async function noteServiceUsage(trx: Db, service: UsageInfo, at: Date): Promise<void> {
  const month = monthOf(at);
  const given = serviceColumns(service);
  // An answer without figures says nothing of the month: the kept ones keep their own time.
  if (Object.values(given).every((value) => value === null)) return;
  await trx
    .updateTable('quota_state')
    .set((eb) => {
      /** The answer's value, else the month's own, or NULL in a new month. */
      const kept = (column: keyof typeof given) =>
        given[column] ?? eb.case().when('service_month', '=', month).then(eb.ref(column)).end();
      return {
        service_used: kept('service_used'),
        service_limit: kept('service_limit'),
        service_remaining: kept('service_remaining'),
        service_reset_at: kept('service_reset_at'),
        service_month: month,
        service_updated_at: at.getTime(),
      };
    })
    .where('id', '=', 1)
    .execute();
}
