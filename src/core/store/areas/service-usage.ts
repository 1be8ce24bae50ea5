// The service's usage figures (its X-RateLimit-* headers), kept in the quota state's one row whatever answer carried
// them: a spend's 2xx (spends.ts) or a refusal (quota-state.ts `noteService`). Figures only: what they mean for the
// month (its mark, a part that cannot fit) is src/core/quota/'s business.
import type { ServiceUsage } from '../quota-store.ts';
import { orNull, type Db, type Dialect } from '../dialect.ts';
import { periodKeys } from './forget-carry-over.ts';

/** The service's usage figures as columns (NULL where it sent none). */
export const serviceColumns = (service: ServiceUsage) => ({
  service_used: orNull(service.used),
  service_limit: orNull(service.limit),
  service_remaining: orNull(service.remaining),
  service_reset_at: orNull(service.resetAt?.getTime()),
});

/**
 * Keeps the service's figures of an answer that arrived at `at`: the highest "used" and lowest "remaining" of the
 * month, since within one month "used" only grows and answers may arrive out of order (the row lock of the single row
 * serialises concurrent updates). A higher monthly limit than the one kept (a plan upgrade, characters bought) starts
 * the figures over from this answer's: what was left under the lower limit says nothing of the higher one.
 */
export async function noteServiceUsage(d: Dialect, trx: Db, service: ServiceUsage, at: Date): Promise<void> {
  const { month } = periodKeys(at);
  const {
    service_used: used,
    service_limit: limit,
    service_remaining: remaining,
    service_reset_at: resetAt,
  } = serviceColumns(service);
  const { greatest, least } = d;
  await trx
    .updateTable('quota_state')
    .set((eb) => {
      const sameMonth = eb('service_month', '=', month);
      // The same month under a limit no lower than this answer's: its extremes still hold.
      const sameWindow =
        limit === null
          ? sameMonth
          : eb.and([sameMonth, eb.or([eb('service_limit', 'is', null), eb('service_limit', '>=', limit)])]);
      /** The month's own value, or NULL in a new month. */
      const kept = (column: 'service_used' | 'service_limit' | 'service_remaining' | 'service_reset_at') =>
        eb.case().when(sameMonth).then(eb.ref(column)).end();
      const extreme = (fn: string, column: 'service_used' | 'service_remaining', value: number) =>
        eb
          .case()
          .when(sameWindow)
          .then(eb.fn<number>(fn, [eb.fn.coalesce(column, eb.val(value)), eb.val(value)]))
          .else(eb.val(value))
          .end();
      return {
        service_used: used === null ? kept('service_used') : extreme(greatest, 'service_used', used),
        service_limit: limit ?? kept('service_limit'),
        service_remaining:
          remaining === null ? kept('service_remaining') : extreme(least, 'service_remaining', remaining),
        service_reset_at: resetAt ?? kept('service_reset_at'),
        service_month: month,
        service_updated_at: at.getTime(),
      };
    })
    .where('id', '=', 1)
    .execute();
}
