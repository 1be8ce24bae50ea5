// /privacy show's and the dashboard's "my data" lines: one per kind of record, the managers' records apart.
import { formatNumber, t, type MessageKey } from './strings.ts';
import type { PrivacyTrace } from '../../core/store/privacy-store.ts';

const TRACE_KEYS: Readonly<Record<string, MessageKey>> = {
  member_defaults: 'privacy.trace.member_defaults',
  member_output_defaults: 'privacy.trace.member_output_defaults',
  presets: 'privacy.trace.presets',
  voice_library: 'privacy.trace.voice_library',
  clone_name_reservations: 'privacy.trace.clone_name_reservations',
  spends: 'privacy.trace.spends',
  budget_holds: 'privacy.trace.budget_holds',
  guild_budgets: 'privacy.trace.guild_budgets',
  auto_read: 'privacy.trace.auto_read',
  dictionary_entries: 'privacy.trace.dictionary_entries',
  auto_read_voice_pool: 'privacy.trace.auto_read_voice_pool',
  auto_read_member_voices: 'privacy.trace.auto_read_member_voices',
  auto_read_ignored: 'privacy.trace.auto_read_ignored',
  guild_output_defaults: 'privacy.trace.guild_output_defaults',
};

/** The managers' records about a member (kept by their deletion), per table. */
const KEPT_KEYS: Readonly<Record<string, MessageKey>> = {
  auto_read_ignored: 'privacy.kept.auto_read_ignored',
};

/** The member's own records ("- settings: 2") and, apart, the managers' records about them that their deletion keeps. */
export function traceLines(locale: string, traces: readonly PrivacyTrace[]): { own: string[]; kept: string[] } {
  const perTable = new Map<string, number>();
  const keptPerTable = new Map<string, number>();
  for (const trace of traces) {
    const tally = trace.kept ? keptPerTable : perTable;
    tally.set(trace.table, (tally.get(trace.table) ?? 0) + trace.rows);
  }
  const lines = (tally: Map<string, number>, keys: Readonly<Record<string, MessageKey>>) =>
    [...tally].map(([table, rows]) => {
      const key = keys[table];
      const what = key === undefined ? t(locale, 'privacy.trace.other', { table }) : t(locale, key);
      return `- ${what}: ${formatNumber(locale, rows)}`;
    });
  return { own: lines(perTable, TRACE_KEYS), kept: lines(keptPerTable, KEPT_KEYS) };
}
