// The month's figures as /usage gives them, for /usage and the dashboard's month page alike.
import type { FreeVoiceLines } from '../../core/store/free-voice-lines-store.ts';
import type { Accounting, UsageReport } from '../../core/quota/accounting.ts';
import { dayOf } from '../../core/calendar.ts';
import type { Store } from '../../core/store/types.ts';
import { MAX_MEMBERS, type ChartDay } from './chart.ts';

export interface MonthFigures {
  report: UsageReport;
  /** Lines free voices spoke this month: chosen by members, and in place of the paid voice; and by each engine. */
  free: FreeVoiceLines;
  /** Days with any use, in order. */
  days: readonly ChartDay[];
  /** The top members by characters (at most MAX_MEMBERS), by ID: each front-end names them its own way. */
  members: ReadonlyArray<{ userId: string; spent: number; saved: number }>;
  /** The last day the month-to-date line reaches: today by the accounting's clock. */
  through: string;
  /** Why the breakdown could not be read, when it could not (days and members are then empty). */
  breakdownFailed?: unknown;
}

export async function monthFigures(
  deps: { accounting: Accounting; store: Store },
  guildId: string,
  userId: string,
): Promise<MonthFigures> {
  const report = await deps.accounting.report(guildId, userId);
  const [free, breakdown] = await Promise.all([
    deps.store.freeVoiceLines.month(report.month, guildId),
    deps.store.spends.monthBreakdown(report.month, guildId, MAX_MEMBERS).then(
      (read) => ({ ...read, failed: undefined as unknown }),
      (failed: unknown) => ({ days: [], members: [], failed }),
    ),
  ]);
  return {
    report,
    free,
    days: breakdown.days,
    members: breakdown.members,
    // The day before the member's reset: the accounting clock's today.
    through: dayOf(new Date(report.member.resetAt.getTime() - 1)),
    ...(breakdown.failed === undefined ? {} : { breakdownFailed: breakdown.failed }),
  };
}
