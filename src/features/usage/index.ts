// The usage feature's public surface: what its command modules (commands/), the app and other features use.
import './strings.ts';
export { MAX_MEMBERS, usageChartSvg } from './chart.ts';
export { ChartCache, chartKey } from './chart-cache.ts';
export { chartFontFamily, renderPng } from './render-png.ts';
export { monthFigures, type MonthFigures } from './month-figures.ts';
export { changeServerBudgets } from './budget-change.ts';
export { chartWords, memberLines, monthLines, planLines, usedUpLines } from './usage-lines.ts';
