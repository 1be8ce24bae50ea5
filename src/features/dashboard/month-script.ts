// The month page's chart, drawn in the browser from the figures the page carries (data-figures: the same figures
// /usage draws its picture from, src/features/usage/month-figures.ts), served as /static/month.js: the Content
// Security Policy allows scripts from this origin only, never inline, and styles only from the stylesheet (the
// chart sets SVG attributes, never a style attribute). Without it the page's table gives the same figures.

export const MONTH_SCRIPT = `// The month's chart: per day (spent and saved by the cache), the month so far against the budget, the top members.
// Hover or focus a bar for its figures. Drawn from the page's data-figures; the table beside it holds the same.
(() => {
  const figure = document.getElementById('month-chart');
  if (!figure) return;
  const data = JSON.parse(figure.dataset.figures || '{}');
  const number = new Intl.NumberFormat(data.locale || 'en-US');
  const n = (value) => number.format(value);
  const SVG = 'http://www.w3.org/2000/svg';
  const W = 720;
  const H = 300;
  const PAD = { left: 64, right: 16, top: 16, bottom: 28 };
  const [year, month] = data.month.split('-').map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const byDay = new Map(data.days.map((d) => [d.day, d]));
  const dayKey = (d) => data.month + '-' + String(d).padStart(2, '0');
  const readout = document.getElementById('month-readout');
  const show = (text) => { if (readout) readout.textContent = text; };

  const el = (name, attrs, parent) => {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (parent) parent.appendChild(node);
    return node;
  };
  const nice = (value) => {
    const rough = Math.max(value, 1) / 4;
    const power = 10 ** Math.floor(Math.log10(rough));
    const step = [1, 2, 5, 10].map((m) => m * power).find((c) => c >= rough) || 10 * power;
    return Math.max(4, step * 4);
  };
  /** A panel: its SVG, its grid up to max, and y() for a value. */
  const panel = (title, max, grid = true) => {
    const svg = el('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'group', 'aria-label': title, class: 'chart' });
    const y = (value) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * value) / max;
    for (let i = 0; grid && i <= 4; i++) {
      const v = (max * i) / 4;
      el('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }, svg);
      const label = el('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, svg);
      label.textContent = n(v);
    }
    const heading = document.createElement('h3');
    heading.textContent = title;
    figure.appendChild(heading);
    figure.appendChild(svg);
    return { svg, y };
  };
  /** A bar with its figures on hover, focus and as its accessible name. */
  const bar = (svg, attrs, text) => {
    const rect = el('rect', { ...attrs, tabindex: 0, role: 'img', 'aria-label': text, 'data-figures': text }, svg);
    el('title', {}, rect).textContent = text;
    rect.addEventListener('mouseenter', () => show(text));
    rect.addEventListener('focus', () => show(text));
    return rect;
  };
  const slot = (W - PAD.left - PAD.right) / days;
  const x = (d) => PAD.left + slot * (d - 1);
  const L = data.labels;
  const dayText = (key, d) =>
    key + ': ' + L.spent + ' ' + n(d.spent) + ' · ' + L.saved + ' ' + n(d.saved);

  const daily = panel(L.perDay, nice(Math.max(0, ...data.days.map((d) => d.spent + d.saved))));
  for (let d = 1; d <= days; d++) {
    const key = dayKey(d);
    const figures = byDay.get(key) || { spent: 0, saved: 0 };
    const top = daily.y(figures.spent + figures.saved);
    const middle = daily.y(figures.spent);
    const bottom = daily.y(0);
    const text = dayText(key, figures);
    el('rect', { x: x(d) + 1, y: middle, width: slot - 2, height: bottom - middle, class: 'spent' }, daily.svg);
    el('rect', { x: x(d) + 1, y: top, width: slot - 2, height: middle - top, class: 'saved' }, daily.svg);
    // The whole day's column answers hover (an empty day too), drawn over its parts.
    bar(daily.svg, { x: x(d), y: PAD.top, width: slot, height: bottom - PAD.top, class: 'hit', 'data-day': key }, text);
    if (d === 1 || d % 5 === 0 || d === days) {
      const label = el('text', { x: x(d) + slot / 2, y: H - 8, 'text-anchor': 'middle', class: 'tick' }, daily.svg);
      label.textContent = String(d);
    }
  }

  // The month so far, day by day up to today, against the server's budget.
  let total = 0;
  const running = [];
  for (let d = 1; d <= days && dayKey(d) <= data.through; d++) {
    total += (byDay.get(dayKey(d)) || { spent: 0 }).spent;
    running.push({ d, total });
  }
  const cumulative = panel(L.monthToDate, nice(Math.max(total, data.budget)));
  if (data.budget > 0) {
    const yb = cumulative.y(data.budget);
    el('line', { x1: PAD.left, x2: W - PAD.right, y1: yb, y2: yb, class: 'budget' }, cumulative.svg);
    const label = el('text', { x: W - PAD.right, y: yb - 4, 'text-anchor': 'end', class: 'tick' }, cumulative.svg);
    label.textContent = L.budget + ' ' + n(data.budget);
  }
  const points = running.map((p) => x(p.d) + slot / 2 + ',' + cumulative.y(p.total)).join(' ');
  el('polyline', { points, class: 'line' }, cumulative.svg);
  for (const p of running)
    bar(
      cumulative.svg,
      { x: x(p.d), y: PAD.top, width: slot, height: H - PAD.top - PAD.bottom, class: 'hit', 'data-day': dayKey(p.d) },
      dayKey(p.d) + ': ' + L.monthToDate + ' ' + n(p.total) + (data.budget > 0 ? ' / ' + n(data.budget) : ''),
    );

  // The top members, most characters first.
  const most = nice(Math.max(0, ...data.members.map((m) => m.spent + m.saved)));
  // Bars across: no grid of heights; each bar is labelled with its name and figure.
  const members = panel(L.topMembers, most, false);
  const row = (H - PAD.top - PAD.bottom) / Math.max(5, data.members.length);
  data.members.forEach((m, i) => {
    const width = ((W - PAD.left - PAD.right) * (m.spent + m.saved)) / most;
    const y = PAD.top + row * i;
    const text = m.name + ': ' + L.spent + ' ' + n(m.spent) + ' · ' + L.saved + ' ' + n(m.saved);
    bar(members.svg, { x: PAD.left, y, width: Math.max(width, 2), height: row - 4, class: 'spent' }, text);
    const label = el('text', { x: PAD.left + 4, y: y + row / 2 + 2, class: 'name' }, members.svg);
    label.textContent = m.name + ' · ' + n(m.spent + m.saved);
  });
  if (data.members.length === 0) {
    const label = el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'tick' }, members.svg);
    label.textContent = L.noData;
  }
})();
`;

/** The chart's colours and marks, the voices page's buttons and the auto-read page's settings (appended to the one
 * stylesheet). */
export const STUDIO_STYLE = `
/* The month page's chart (/static/month.js). */
.chart { width: 100%; max-width: 48rem; height: auto; display: block; }
.chart .grid { stroke: GrayText; stroke-opacity: 0.3; }
.chart .tick, .chart .name { font-size: 11px; fill: currentColor; }
.chart .spent { fill: #4f6bed; }
.chart .saved { fill: #3fb68b; }
.chart .budget { stroke: #e0533d; stroke-dasharray: 6 4; }
.chart .line { fill: none; stroke: #4f6bed; stroke-width: 2; }
.chart .hit { fill: transparent; }
.chart text { pointer-events: none; }
.chart .hit:hover, .chart .hit:focus { fill: Highlight; fill-opacity: 0.15; outline: none; }
.readout { min-height: 1.5em; font-variant-numeric: tabular-nums; }
/* The voices page's buttons wrap within their cell. */
.voice-actions form { display: inline-block; margin: 0 0.3rem 0.3rem 0; }
/* One auto-read setting: its field, then what it does. */
.setting { display: grid; gap: 0.2rem; }
`;
