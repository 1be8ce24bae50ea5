// The clocks money follows, all UTC: every server and member sees the same reset time whatever their time zone, and
// the store keeps spends, holds and running totals under the same month and day keys (periodOf).

/** 'YYYY-MM': the key monthly spends are counted under. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** 'YYYY-MM-DD': the key daily spends are counted under. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The month and the day a moment counts in: the keys spends, holds and their running totals are kept under. */
export function periodOf(at: Date): { month: string; day: string } {
  return { month: monthOf(at), day: dayOf(at) };
}

/** 'YYYY-MM-DD HH:MM UTC': when the service gave a figure, to the minute. */
export function minuteOf(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The first day of next month, UTC: when the monthly quota starts over unless the service says otherwise. */
export function nextMonthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The next UTC midnight: when a daily budget starts over. */
export function nextDayStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
