// The /usage picture as SVG: a pure function of the month's figures and the words to print. It knows no
// language and no Discord; the command hands it localised labels and a number formatter.
import type { MonthBreakdown, SpendTotals } from '../../core/store/quota-store.ts';

/** A UTC day ('YYYY-MM-DD', inside the chart's month) with its totals. */
export type ChartDay = MonthBreakdown['days'][number];

export interface ChartMember extends SpendTotals {
  /** As the reader should see it (a display name); escaped here, so any text is safe. */
  name: string;
}

export interface UsageChartData {
  /** 'YYYY-MM' (UTC). */
  month: string;
  /** Days with any use; days left out had none. */
  days: readonly ChartDay[];
  /** The server's monthly budget in characters; 0: none (no line drawn). */
  budget: number;
  /** Most characters first; at most the first five are drawn. */
  members: readonly ChartMember[];
  /** The last day the month-to-date line reaches ('YYYY-MM-DD'); default: the month's last day. */
  through?: string;
}

export interface UsageChartLabels {
  title: string;
  perDay: string;
  monthToDate: string;
  spent: string;
  saved: string;
  budget: string;
  topMembers: string;
  /** Shown where a panel has nothing to draw. */
  noData: string;
  /** A count as the reader writes numbers. */
  number: (value: number) => string;
  /** CSS font-family list, preferred first (a Japanese reader wants Japanese forms of shared ideographs). */
  fontFamily: string;
}

export const CHART_WIDTH = 960;
export const CHART_HEIGHT = 540;
export const MAX_MEMBERS = 5;

const COLOURS = {
  spent: '#4f6bed',
  saved: '#3fb68b',
  budget: '#e0533d',
  text: '#1f2330',
  muted: '#6b7080',
  grid: '#e4e6ec',
  line: '#4f6bed',
};

/** The two panels on the left and the member list on the right, in pixels. */
export const LAYOUT = {
  daily: { left: 70, right: 640, top: 110, bottom: 300 },
  cumulative: { left: 70, right: 640, top: 360, bottom: 500 },
  members: { left: 690, right: 936, top: 110 },
} as const;

export function daysInMonth(month: string): number {
  const [year = 1970, m = 1] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m, 0)).getUTCDate();
}

const TICKS = 4;

/** A panel's top value: TICKS times a round step (1, 2 or 5 times a power of ten), at or above `value`. */
export function niceMax(value: number): number {
  const rough = Math.max(value, 1) / TICKS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power;
  return Math.max(TICKS, step * TICKS);
}

const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** About how wide `text` is in pixels at `size`: East Asian characters one em, others about 0.56. */
const widthOf = (text: string, size: number): number =>
  [...text].reduce((sum, char) => sum + (WIDE.test(char) ? size : size * 0.56), 0);

/** Shortens `text` to about `max` pixels at `size`, with an ellipsis. */
function fit(text: string, size: number, max: number): string {
  if (widthOf(text, size) <= max) return text;
  let out = '';
  for (const char of text) {
    if (widthOf(`${out}${char}…`, size) > max) break;
    out += char;
  }
  return `${out}…`;
}

const n2 = (value: number): string => (Math.round(value * 100) / 100).toString();

/** `content` at (x, y) in `size` px and `fill`; `lead`: attributes before the font's (an id, a class). */
function text(x: number, y: number, content: string, size: number, fill: string, anchor?: 'middle' | 'end', lead = '') {
  const at = anchor === undefined ? '' : ` text-anchor="${anchor}"`;
  return `<text x="${n2(x)}" y="${n2(y)}" ${lead}font-size="${size}" fill="${fill}"${at}>${escapeXml(content)}</text>`;
}

/** A bar of what was spent or saved, worth `value`; a day's bar names its day. */
function bar(kind: 'spent' | 'saved', value: number, x: number, y: number, width: number, height: number, day = '') {
  const dayAttr = day === '' ? '' : ` data-day="${day}"`;
  return `<rect class="${kind}"${dayAttr} data-value="${value}" x="${n2(x)}" y="${n2(y)}" width="${n2(width)}" height="${n2(height)}" fill="${COLOURS[kind]}"/>`;
}

/** Horizontal grid lines and their figures for a panel whose top value is `max`. */
function grid(
  panel: { left: number; right: number; top: number; bottom: number },
  max: number,
  labels: UsageChartLabels,
): string {
  const out: string[] = [];
  for (let i = 0; i <= TICKS; i++) {
    const y = panel.bottom - ((panel.bottom - panel.top) * i) / TICKS;
    out.push(
      `<line x1="${panel.left}" x2="${panel.right}" y1="${n2(y)}" y2="${n2(y)}" stroke="${COLOURS.grid}" stroke-width="1"/>`,
    );
    out.push(text(panel.left - 8, y + 4, labels.number((max * i) / TICKS), 11, COLOURS.muted, 'end'));
  }
  return out.join('');
}

function dayLabels(panel: { left: number; right: number; bottom: number }, days: number): string {
  const slot = (panel.right - panel.left) / days;
  const out: string[] = [];
  for (let d = 1; d <= days; d++) {
    if (d !== 1 && d % 5 !== 0 && d !== days) continue;
    if (d === days - 1 && days % 5 !== 0) continue;
    out.push(text(panel.left + slot * (d - 0.5), panel.bottom + 16, String(d), 11, COLOURS.muted, 'middle'));
  }
  return out.join('');
}

function dailyPanel(labels: UsageChartLabels, days: number, byDay: Map<number, ChartDay>): string {
  const panel = LAYOUT.daily;
  const max = niceMax(Math.max(0, ...[...byDay.values()].map((d) => d.spent + d.saved)));
  const slot = (panel.right - panel.left) / days;
  const width = Math.max(2, slot * 0.7);
  const scale = (panel.bottom - panel.top) / max;
  const bars: string[] = [];
  for (const [d, { day, spent, saved }] of byDay) {
    const x = panel.left + slot * (d - 1) + (slot - width) / 2;
    const spentHeight = spent * scale;
    const savedHeight = saved * scale;
    if (spent > 0) bars.push(bar('spent', spent, x, panel.bottom - spentHeight, width, spentHeight, day));
    if (saved > 0) bars.push(bar('saved', saved, x, panel.bottom - spentHeight - savedHeight, width, savedHeight, day));
  }
  return [
    `<g id="daily">`,
    text(panel.left, panel.top - 14, labels.perDay, 15, COLOURS.text),
    grid(panel, max, labels),
    ...bars,
    byDay.size === 0
      ? text((panel.left + panel.right) / 2, (panel.top + panel.bottom) / 2, labels.noData, 14, COLOURS.muted, 'middle')
      : '',
    dayLabels(panel, days),
    `</g>`,
  ].join('');
}

function cumulativePanel(
  data: UsageChartData,
  labels: UsageChartLabels,
  days: number,
  byDay: Map<number, ChartDay>,
): string {
  const panel = LAYOUT.cumulative;
  const through = data.through?.startsWith(data.month) ? Math.min(days, Number(data.through.slice(8, 10))) : days;
  const totals: number[] = [];
  let sum = 0;
  for (let d = 1; d <= through; d++) totals.push((sum += byDay.get(d)?.spent ?? 0));
  const max = niceMax(Math.max(sum, data.budget));
  const slot = (panel.right - panel.left) / days;
  const y = (value: number) => panel.bottom - ((panel.bottom - panel.top) * value) / max;
  // From zero at the month's start to each day's end.
  const points = [
    `${panel.left},${panel.bottom}`,
    ...totals.map((total, i) => `${n2(panel.left + slot * (i + 1))},${n2(y(total))}`),
  ];
  const out = [
    `<g id="cumulative">`,
    text(panel.left, panel.top - 14, labels.monthToDate, 15, COLOURS.text),
    grid(panel, max, labels),
    `<polyline id="spent-to-date" data-value="${sum}" points="${points.join(' ')}" fill="none" stroke="${COLOURS.line}" stroke-width="2.5" stroke-linejoin="round"/>`,
  ];
  if (data.budget > 0) {
    const by = y(data.budget);
    out.push(
      `<line id="budget" data-value="${data.budget}" x1="${panel.left}" x2="${panel.right}" y1="${n2(by)}" y2="${n2(by)}" stroke="${COLOURS.budget}" stroke-width="2" stroke-dasharray="8 5"/>`,
      text(panel.right, by - 6, `${labels.budget} ${labels.number(data.budget)}`, 12, COLOURS.budget, 'end'),
    );
  }
  // The month's figure beside the line's end (above it when the end is at the right edge).
  const end = panel.left + slot * through;
  out.push(
    through > days - 3
      ? text(end, y(sum) - 8, labels.number(sum), 12, COLOURS.line, 'end')
      : text(end + 6, y(sum) + 4, labels.number(sum), 12, COLOURS.line),
  );
  out.push(dayLabels(panel, days), `</g>`);
  return out.join('');
}

function membersPanel(data: UsageChartData, labels: UsageChartLabels): string {
  const panel = LAYOUT.members;
  const members = data.members.slice(0, MAX_MEMBERS);
  const max = Math.max(1, ...members.map((m) => m.spent + m.saved));
  const width = panel.right - panel.left;
  const out = [`<g id="members">`, text(panel.left, panel.top - 14, labels.topMembers, 15, COLOURS.text)];
  members.forEach((member, i) => {
    const top = panel.top + i * 62;
    const spentWidth = (width * member.spent) / max;
    const savedWidth = (width * member.saved) / max;
    out.push(
      `<g class="member" data-rank="${i + 1}">`,
      text(panel.left, top + 14, fit(member.name, 14, width - 70), 14, COLOURS.text, undefined, 'class="name" '),
      // What they spent, as the month's total and the owner console count it; the bar shows the saved beside.
      text(panel.right, top + 14, labels.number(member.spent), 12, COLOURS.muted, 'end'),
      `<rect x="${panel.left}" y="${top + 22}" width="${width}" height="14" fill="${COLOURS.grid}"/>`,
      member.spent > 0 ? bar('spent', member.spent, panel.left, top + 22, spentWidth, 14) : '',
      member.saved > 0 ? bar('saved', member.saved, panel.left + spentWidth, top + 22, savedWidth, 14) : '',
      `</g>`,
    );
  });
  if (members.length === 0) out.push(text(panel.left, panel.top + 20, labels.noData, 14, COLOURS.muted));
  out.push(`</g>`);
  return out.join('');
}

function legend(labels: UsageChartLabels, budget: boolean): string {
  const items: Array<[string, string, boolean]> = [
    [labels.spent, COLOURS.spent, false],
    [labels.saved, COLOURS.saved, false],
  ];
  if (budget) items.push([labels.budget, COLOURS.budget, true]);
  const out = ['<g id="legend">'];
  let x = LAYOUT.daily.left;
  for (const [label, colour, dashed] of items) {
    out.push(
      dashed
        ? `<line x1="${x}" x2="${x + 16}" y1="68" y2="68" stroke="${colour}" stroke-width="2" stroke-dasharray="5 3"/>`
        : `<rect x="${x}" y="62" width="12" height="12" fill="${colour}"/>`,
    );
    out.push(text(x + 22, 73, label, 13, COLOURS.text));
    x += 22 + widthOf(label, 13) + 24;
  }
  out.push('</g>');
  return out.join('');
}

/** The month's use as an SVG document, CHART_WIDTH x CHART_HEIGHT. */
export function usageChartSvg(data: UsageChartData, labels: UsageChartLabels): string {
  const days = daysInMonth(data.month);
  const byDay = new Map<number, ChartDay>();
  for (const day of data.days) {
    if (!day.day.startsWith(data.month)) continue;
    byDay.set(Number(day.day.slice(8, 10)), day);
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${escapeXml(labels.fontFamily)}">`,
    `<rect width="${CHART_WIDTH}" height="${CHART_HEIGHT}" fill="#ffffff"/>`,
    text(LAYOUT.daily.left, 40, labels.title, 22, COLOURS.text, undefined, 'id="title" '),
    legend(labels, data.budget > 0),
    dailyPanel(labels, days, byDay),
    cumulativePanel(data, labels, days, byDay),
    membersPanel(data, labels),
    '</svg>',
  ].join('');
}
