// The month page's chart, served as /static/month.js (deferred): drawn in the browser from the figures the page
// carries (data-figures: the same figures /usage draws its picture from, src/features/usage/month-figures.ts). The
// Content Security Policy allows scripts from this origin only, never inline, and styles only from the stylesheet
// (the chart sets SVG attributes, never a style attribute). Without it the page's table gives the same figures.
//
// The month's chart: per day (spent and saved by the cache), the month so far against the budget, the top members.
// Hover over a bar (tap it on a touch screen) for its figures. Drawn from the page's data-figures at the figure's own width (redrawn when it
// changes), so its words keep their size on a phone; each panel is one picture named by its figures in words, and
// the table below holds every day's.
(() => {
  const figure = document.getElementById('month-chart');
  if (!figure) return;
  const data = JSON.parse(figure.dataset.figures || '{}');
  const number = new Intl.NumberFormat(data.locale || 'en-US');
  const n = (value) => number.format(value);
  const SVG = 'http://www.w3.org/2000/svg';
  const [year, month] = data.month.split('-').map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const byDay = new Map(data.days.map((d) => [d.day, d]));
  const dayKey = (d) => data.month + '-' + String(d).padStart(2, '0');
  const readout = document.getElementById('month-readout');
  const show = (text) => {
    if (readout) readout.textContent = text;
  };
  const L = data.labels;

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

  const draw = (W) => {
    figure.replaceChildren();
    const narrow = W < 560;
    const FULL = narrow ? 200 : 260;
    const PAD = { left: narrow ? 44 : 64, right: 12, top: 12, bottom: 26 };
    /** A panel: one picture named by its figures in words, its grid up to max, and y() for a value. */
    const panel = (title, words, max, grid = true, H = FULL) => {
      const box = document.createElement('div');
      box.className = 'chart-panel';
      const heading = document.createElement('h3');
      heading.textContent = title;
      box.appendChild(heading);
      const svg = el('svg', {
        viewBox: '0 0 ' + W + ' ' + H,
        width: W,
        height: H,
        role: 'img',
        'aria-label': title + ': ' + words,
        class: 'chart',
      });
      const y = (value) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * value) / max;
      for (let i = 0; grid && i <= 4; i++) {
        const v = (max * i) / 4;
        el('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }, svg);
        el('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = n(v);
      }
      box.appendChild(svg);
      figure.appendChild(box);
      return { svg, y };
    };
    /** Where the pointer shows a bar's figures (the panel's name says them all to a screen reader). */
    const hit = (svg, attrs, text) => {
      const rect = el('rect', { ...attrs, class: 'hit' }, svg);
      rect.addEventListener('mouseenter', () => show(text));
      rect.addEventListener('click', () => show(text));
      return rect;
    };
    const slot = (W - PAD.left - PAD.right) / days;
    const x = (d) => PAD.left + slot * (d - 1);
    const gap = slot > 8 ? 1 : 0.5;

    const spent = data.days.reduce((sum, d) => sum + d.spent, 0);
    const saved = data.days.reduce((sum, d) => sum + d.saved, 0);
    const daily = panel(
      L.perDay,
      L.spent + ' ' + n(spent) + ' · ' + L.saved + ' ' + n(saved),
      nice(Math.max(0, ...data.days.map((d) => d.spent + d.saved))),
    );
    for (let d = 1; d <= days; d++) {
      const key = dayKey(d);
      const figures = byDay.get(key) || { spent: 0, saved: 0 };
      const top = daily.y(figures.spent + figures.saved);
      const middle = daily.y(figures.spent);
      const bottom = daily.y(0);
      el(
        'rect',
        { x: x(d) + gap, y: middle, width: slot - 2 * gap, height: bottom - middle, rx: 1, class: 'spent' },
        daily.svg,
      );
      el(
        'rect',
        { x: x(d) + gap, y: top, width: slot - 2 * gap, height: middle - top, rx: 1, class: 'saved' },
        daily.svg,
      );
      // The whole day's column answers hover (an empty day too), drawn over its parts.
      hit(
        daily.svg,
        { x: x(d), y: PAD.top, width: slot, height: bottom - PAD.top, 'data-day': key },
        key + ': ' + L.spent + ' ' + n(figures.spent) + ' · ' + L.saved + ' ' + n(figures.saved),
      );
      if (d === 1 || d % (narrow ? 10 : 5) === 0 || d === days)
        el('text', { x: x(d) + slot / 2, y: FULL - 8, 'text-anchor': 'middle', class: 'tick' }, daily.svg).textContent =
          String(d);
    }

    // The month so far, day by day up to today, against the server's budget.
    let total = 0;
    const running = [];
    for (let d = 1; d <= days && dayKey(d) <= data.through; d++) {
      total += (byDay.get(dayKey(d)) || { spent: 0 }).spent;
      running.push({ d, total });
    }
    const against = data.budget > 0 ? ' / ' + L.budget + ' ' + n(data.budget) : '';
    const cumulative = panel(L.monthToDate, n(total) + against, nice(Math.max(total, data.budget)));
    if (data.budget > 0) {
      const yb = cumulative.y(data.budget);
      el('line', { x1: PAD.left, x2: W - PAD.right, y1: yb, y2: yb, class: 'budget' }, cumulative.svg);
      el('text', { x: W - PAD.right, y: yb - 4, 'text-anchor': 'end', class: 'tick' }, cumulative.svg).textContent =
        L.budget + ' ' + n(data.budget);
    }
    const points = running.map((p) => x(p.d) + slot / 2 + ',' + cumulative.y(p.total)).join(' ');
    el('polyline', { points, class: 'line' }, cumulative.svg);
    for (const p of running)
      hit(
        cumulative.svg,
        { x: x(p.d), y: PAD.top, width: slot, height: FULL - PAD.top - PAD.bottom, 'data-day': dayKey(p.d) },
        dayKey(p.d) + ': ' + L.monthToDate + ' ' + n(p.total) + (data.budget > 0 ? ' / ' + n(data.budget) : ''),
      );

    // The top members, most characters first: bars across, each labelled with its name and figure.
    const most = nice(Math.max(0, ...data.members.map((m) => m.spent + m.saved)));
    const named = data.members.map((m) => m.name + ' ' + n(m.spent + m.saved)).join(', ');
    // As tall as its rows (one saying there is no one when no one spent anything), not a day chart's height.
    const row = narrow ? 28 : 32;
    const membersHeight = PAD.top + row * Math.max(1, data.members.length) + 8;
    const members = panel(L.topMembers, data.members.length === 0 ? L.noData : named, most, false, membersHeight);
    data.members.forEach((m, i) => {
      const width = ((W - PAD.left - PAD.right) * (m.spent + m.saved)) / most;
      const y = PAD.top + row * i;
      el('rect', { x: PAD.left, y, width: Math.max(width, 2), height: row - 4, rx: 2, class: 'spent' }, members.svg);
      hit(
        members.svg,
        { x: PAD.left, y, width: W - PAD.left - PAD.right, height: row - 4 },
        m.name + ': ' + L.spent + ' ' + n(m.spent) + ' · ' + L.saved + ' ' + n(m.saved),
      );
      el('text', { x: PAD.left + 6, y: y + row / 2 + 2, class: 'name' }, members.svg).textContent =
        m.name + ' · ' + n(m.spent + m.saved);
    });
    if (data.members.length === 0)
      el(
        'text',
        { x: W / 2, y: PAD.top + row / 2 + 4, 'text-anchor': 'middle', class: 'tick' },
        members.svg,
      ).textContent = L.noData;
  };

  // Drawn at the figure's width, and again when it changes (a phone turned, a window resized).
  let drawn = 0;
  const fit = () => {
    const width = Math.max(280, Math.min(760, Math.floor(figure.clientWidth)));
    if (width !== drawn) draw((drawn = width));
  };
  fit();
  new ResizeObserver(fit).observe(figure);
})();
