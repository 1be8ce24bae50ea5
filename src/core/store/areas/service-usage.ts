// The service's usage figures (X-RateLimit-*) from any answer, kept in the quota state's row; what they mean for the
// month is src/core/quota/'s business.
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

/** Keeps an answer's figures as the latest (a slightly high one costs nothing); a missing one kept within the month. */
export async function noteServiceUsage(_d: Dialect, trx: Db, service: ServiceUsage, at: Date): Promise<void> {
  const { month } = periodKeys(at);
  const {
    service_used: used,
    service_limit: limit,
    service_remaining: remaining,
    service_reset_at: resetAt,
  } = serviceColumns(service);
  // An answer without figures says nothing of the month: the kept ones keep their own time.
  if (used === null && limit === null && remaining === null && resetAt === null) return;
  await trx
    .updateTable('quota_state')
    .set((eb) => {
      const sameMonth = eb('service_month', '=', month);
      /** The month's own value, or NULL in a new month. */
      const kept = (column: 'service_used' | 'service_limit' | 'service_remaining' | 'service_reset_at') =>
        eb.case().when(sameMonth).then(eb.ref(column)).end();
      return {
        service_used: used ?? kept('service_used'),
        service_limit: limit ?? kept('service_limit'),
        service_remaining: remaining ?? kept('service_remaining'),
        service_reset_at: resetAt ?? kept('service_reset_at'),
        service_month: month,
        service_updated_at: at.getTime(),
      };
    })
    .where('id', '=', 1)
    .execute();
}
