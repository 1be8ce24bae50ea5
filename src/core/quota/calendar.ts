// The clocks quotas follow. Everything is UTC: the service's month starts over on the 1st (UTC), and a daily
// budget at UTC midnight, so every server and every member sees the same reset time whatever their time zone.

/** 'YYYY-MM' of the UTC month `at` falls in: the key monthly spends are counted under. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** 'YYYY-MM-DD' of the UTC day `at` falls in: the key daily spends are counted under. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first day of next month, UTC: when the monthly quota starts over unless the service says otherwise. */
export function nextMonthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The next UTC midnight: when a daily budget starts over. */
export function nextDayStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
