// The month as the service counts it: the usage figures its answers carry (X-RateLimit-*: a 2xx's and a refusal's
// alike), kept with the time they arrived (store.quota, src/core/store/areas/service-usage.ts). What they tell: the
// whole bot's used and left, said as "the service's count" only when they are the service's own; and that a request
// longer than what is left will likely be refused, so only one at a time goes out to find out (a hint, not a wall).
import { VoiceApiError, type UsageInfo } from '../api/errors.ts';
import type { QuotaState } from '../store/quota-store.ts';

/** The usage figures of a failed call, when the answer is provably the service's own (response.ts, the retry rule); else undefined. */
export function serviceFiguresOf(error: unknown): UsageInfo | undefined {
  if (!(error instanceof VoiceApiError) || error.status === undefined || error.rateLimit === undefined)
    return undefined;
  if (!error.fromService && error.charge !== 'not-charged') return undefined;
  const { retryAfterSeconds: _, ...usage } = error.rateLimit;
  return Object.keys(usage).length === 0 ? undefined : usage;
}

/** The service's figures for the whole bot's month, when it sent any this month: used, left, and when it said so. */
export interface ServiceCount {
  used: number;
  remaining: number;
  limit: number;
  at: Date;
}

/** What the kept figures say of `month`: used and left by the service's own count (`planLimit` if it sent none). */
export function serviceCount(
  service: QuotaState['service'],
  month: string,
  planLimit: number,
): ServiceCount | undefined {
  if (service?.month !== month) return undefined;
  const limit = service.limit ?? planLimit;
  const { used, remaining } = service;
  if (used === undefined && remaining === undefined) return undefined;
  return {
    used: used ?? Math.max(0, limit - (remaining ?? 0)),
    remaining: remaining ?? Math.max(0, limit - (used ?? 0)),
    limit,
    at: service.updatedAt,
  };
}

/**
 * What is left by the service's last word, when that word leaves fewer than `needed` but some: a hint that a request of
 * `needed` will be refused, so only one at a time goes out to find out (UsedUpMonth): characters bought or a new
 * month are seen at the next answer. The word lapses at its reset date, and one kept from before `since` (this start)
 * is not taken without a new answer. Nothing left at all is the used-up month's.
 */
export function knownTooFew(
  service: QuotaState['service'],
  needed: number,
  now: Date,
  since: Date,
): { left: number; resetAt?: Date } | undefined {
  const left = service?.remaining;
  if (service === undefined || left === undefined || left <= 0 || needed <= left) return undefined;
  if (service.month !== now.toISOString().slice(0, 7) || service.updatedAt < since) return undefined;
  if (service.resetAt !== undefined && service.resetAt <= now) return undefined;
  return { left, ...(service.resetAt === undefined ? {} : { resetAt: service.resetAt }) };
}
