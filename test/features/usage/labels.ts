// The chart's words in English, for the usage tests: `over` replaces some.
import type { UsageChartLabels } from '../../../src/features/usage/chart.ts';
import { chartFontFamily } from '../../../src/features/usage/chart-fonts.ts';

export const labels = (over: Partial<UsageChartLabels> = {}): UsageChartLabels => ({
  title: 'Characters in 2025-02 (UTC)',
  perDay: 'Per day',
  monthToDate: 'Spent this month',
  spent: 'Spent',
  saved: 'Saved by the cache',
  budget: 'Monthly budget',
  topMembers: 'Top members',
  noData: 'Nothing yet',
  number: (value) => new Intl.NumberFormat('en-US').format(value),
  fontFamily: chartFontFamily('en-US'),
  ...over,
});
