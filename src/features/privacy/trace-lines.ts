// /privacy show's and the dashboard's "my data" lines: one per kind of record, the managers' records apart.
import { formatNumber, t, type MessageKey } from './strings.ts';
import { en } from './strings/en.ts';
import type { PrivacyTrace } from '../../core/store/privacy-store.ts';

/** The member's own records ("- settings: 2") and, apart, the managers' records about them that their deletion keeps. */
export function traceLines(locale: string, traces: readonly PrivacyTrace[]): { own: string[]; kept: string[] } {
  const perTable = new Map<string, number>();
  const keptPerTable = new Map<string, number>();
  for (const trace of traces) {
    const tally = trace.kept ? keptPerTable : perTable;
    tally.set(trace.table, (tally.get(trace.table) ?? 0) + trace.rows);
  }
  // Each table its words (`privacy.trace.<table>`, the kept ones `privacy.kept.<table>`); a table without any, its name.
  const lines = (tally: Map<string, number>, kind: 'trace' | 'kept') =>
    [...tally].map(([table, rows]) => {
      const key = `privacy.${kind}.${table}`;
      const what = key in en ? t(locale, key as MessageKey) : t(locale, 'privacy.trace.other', { table });
      return `- ${what}: ${formatNumber(locale, rows)}`;
    });
  return { own: lines(perTable, 'trace'), kept: lines(keptPerTable, 'kept') };
}
