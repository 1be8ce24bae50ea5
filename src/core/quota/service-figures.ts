// The month as the service counts it: the usage figures its answers carry (X-RateLimit-*: a 2xx's and a refusal's
// alike), kept with the time they arrived (store.quota, src/core/store/areas/service-usage.ts). What they tell: the
// whole bot's used and left, said as "the service's count" only when they are the service's own; and, while fresh,
// that a part longer than what is left will be refused, so it is not sent (it is told instead).
import { VoiceApiError, type UsageInfo } from '../api/errors.ts';
import type { QuotaState } from '../store/quota-store.ts';

/**
 * How long the service's figure of what is left is taken as still true enough to refuse a part without asking the
 * service: long enough that the /say after a refusal is answered at once (no request refused twice for the same
 * reason), short enough that characters bought or freed elsewhere (in the service's dashboard) are seen within a few
 * minutes even if no answer says so; every answer the service gives meanwhile dates the figure afresh. A refused part
 * costs nothing at the service, so the only cost of asking again after this is one more refusal.
 */
export const FRESH_FIGURES_MS = 5 * 60_000;

/** The usage figures of a failed call, when the answer is provably the service's own (retry.ts); else undefined. */
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
 * What is left by the service's last word, when that word is fresh (FRESH_FIGURES_MS) and leaves fewer than `needed`
 * but some: the part would be refused, so it is not sent. Nothing left at all is the used-up month's (a part sent then
 * has the service's 429 mark the month, and one request at a time asks whether it is back): not refused here.
 */
export function knownTooFew(
  service: QuotaState['service'],
  needed: number,
  now: Date,
): { left: number; at: Date; resetAt?: Date } | undefined {
  const left = service?.remaining;
  if (service === undefined || left === undefined || left <= 0 || needed <= left) return undefined;
  if (service.month !== now.toISOString().slice(0, 7)) return undefined;
  const age = now.getTime() - service.updatedAt.getTime();
  // Another process's clock may run a little ahead: a figure dated in the future is as fresh as its distance.
  if (Math.abs(age) > FRESH_FIGURES_MS) return undefined;
  return { left, at: service.updatedAt, ...(service.resetAt === undefined ? {} : { resetAt: service.resetAt }) };
}
