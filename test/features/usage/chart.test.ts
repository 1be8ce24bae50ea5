import { describe, expect, it } from 'vitest';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  LAYOUT,
  niceMax,
  usageChartSvg,
  type UsageChartData,
} from '../../../src/features/usage/chart.ts';
import { chartFontFamily, renderPng } from '../../../src/features/usage/render-png.ts';
import { labels } from './labels.ts';
import { decodePng, pixelAt } from './png.ts';

// February 2025: 28 days. Day 3 spent only, day 10 both, day 20 saved only; the month so far spent 1,000.
const data: UsageChartData = {
  month: '2025-02',
  days: [
    { day: '2025-02-03', spent: 400, saved: 0 },
    { day: '2025-02-10', spent: 600, saved: 200 },
    { day: '2025-02-20', spent: 0, saved: 300 },
  ],
  budget: 1_500,
  members: [
    { name: 'Mina <@everyone> & co', spent: 700, saved: 100 },
    { name: '김민준', spent: 300, saved: 400 },
    { name: 'c', spent: 1, saved: 0 },
    { name: 'd', spent: 1, saved: 0 },
    { name: 'e', spent: 1, saved: 0 },
    { name: 'sixth', spent: 1, saved: 0 },
  ],
  through: '2025-02-21',
};

const num = (tag: string, attribute: string): number => Number(new RegExp(`\\s${attribute}="([^"]*)"`).exec(tag)?.[1]);
const tags = (svg: string, pattern: RegExp): string[] => svg.match(pattern) ?? [];

describe('usageChartSvg', () => {
  it("draws one bar per day with use, stacked spent under saved, at that day's place and to scale", () => {
    const svg = usageChartSvg(data, labels());
    const daily = /<g id="daily">.*?<\/g>/s.exec(svg)?.[0] ?? '';
    const spent = tags(daily, /<rect class="spent"[^>]*>/g);
    const saved = tags(daily, /<rect class="saved"[^>]*>/g);
    expect(spent.map((tag) => /data-day="([^"]+)"/.exec(tag)?.[1])).toEqual(['2025-02-03', '2025-02-10']);
    expect(saved.map((tag) => /data-day="([^"]+)"/.exec(tag)?.[1])).toEqual(['2025-02-10', '2025-02-20']);

    const { left, right, top, bottom } = LAYOUT.daily;
    const max = niceMax(800); // the tallest day: 600 + 200
    const slot = (right - left) / 28;
    const [day3, day10] = spent;
    // Day 10's bar sits in the 10th of 28 slots, and is 600/max of the panel high, standing on its floor.
    expect(num(day10 ?? '', 'x')).toBeGreaterThan(left + slot * 9);
    expect(num(day10 ?? '', 'x') + num(day10 ?? '', 'width')).toBeLessThan(left + slot * 10);
    expect(num(day10 ?? '', 'height')).toBeCloseTo(((bottom - top) * 600) / max, 1);
    expect(num(day10 ?? '', 'y') + num(day10 ?? '', 'height')).toBeCloseTo(bottom, 1);
    expect(num(day3 ?? '', 'height') / num(day10 ?? '', 'height')).toBeCloseTo(400 / 600, 2);
    // The saved part of day 10 stands on its spent part.
    expect(num(saved[0] ?? '', 'y') + num(saved[0] ?? '', 'height')).toBeCloseTo(num(day10 ?? '', 'y'), 1);
  });

  it('puts the budget line where the budget is on the month-to-date scale, and draws none without a budget', () => {
    const svg = usageChartSvg(data, labels());
    const line = /<line id="budget"[^>]*>/.exec(svg)?.[0] ?? '';
    const { top, bottom } = LAYOUT.cumulative;
    const max = niceMax(1_500); // above both the budget and the 1,000 spent
    expect(max).toBeGreaterThanOrEqual(1_500);
    expect(num(line, 'y1')).toBeCloseTo(bottom - ((bottom - top) * 1_500) / max, 1);
    expect(svg).toContain('Monthly budget 1,500');
    // The line of the month so far ends at the 21st, at 1,000 spent.
    const polyline = /<polyline id="spent-to-date"[^>]*>/.exec(svg)?.[0] ?? '';
    expect(num(polyline, 'data-value')).toBe(1_000);
    expect(/points="([^"]*)"/.exec(polyline)?.[1]?.split(' ')).toHaveLength(1 + 21);

    const without = usageChartSvg({ ...data, budget: 0 }, labels());
    expect(without).not.toContain('id="budget"');
    expect(without).not.toContain('Monthly budget');
  });

  it('names the top five members in order, escaped, with spent and saved apart', () => {
    const svg = usageChartSvg(data, labels());
    const names = tags(svg, /<text[^>]*class="name"[^>]*>[^<]*<\/text>/g).map((tag) => />([^<]*)</.exec(tag)?.[1]);
    expect(names).toEqual(['Mina &lt;@everyone&gt; &amp; co', '김민준', 'c', 'd', 'e']);
    expect(svg).not.toContain('sixth');
    const first = /<g class="member" data-rank="1">.*?<\/g>/s.exec(svg)?.[0] ?? '';
    expect(first).toMatch(/class="spent" data-value="700"/);
    expect(first).toMatch(/class="saved" data-value="100"/);
    // The figure is what they spent (700), as the server's total and the owner console's top spenders count.
    expect(first).toContain('>700<');
    expect(first).not.toContain('>800<');
  });

  it("prints the labels it is given (Korean, Japanese) and the reader's font order; says so when there is nothing", () => {
    const ko = usageChartSvg(
      data,
      labels({
        title: '2025-02 글자 사용량 (UTC)',
        topMembers: '상위 멤버',
        saved: '캐시로 절약',
        fontFamily: chartFontFamily('ko'),
      }),
    );
    expect(ko).toContain('>2025-02 글자 사용량 (UTC)<');
    expect(ko).toContain('>상위 멤버<');
    expect(ko).toContain('>캐시로 절약<');
    expect(ko).toContain(`font-family="&apos;Noto Sans KR&apos;, &apos;Noto Sans JP&apos;"`);
    const ja = usageChartSvg(
      data,
      labels({
        title: '2025-02 の文字数 (UTC)',
        perDay: '日別',
        number: (v) => new Intl.NumberFormat('ja').format(v),
        fontFamily: chartFontFamily('ja'),
      }),
    );
    expect(ja).toContain('>2025-02 の文字数 (UTC)<');
    expect(ja).toContain('>日別<');
    expect(ja).toContain(`font-family="&apos;Noto Sans JP&apos;, &apos;Noto Sans KR&apos;"`);

    const empty = usageChartSvg({ month: '2025-02', days: [], budget: 0, members: [] }, labels());
    expect(tags(empty, /<rect class="(spent|saved)"/g)).toHaveLength(0);
    expect(tags(empty, />Nothing yet</g)).toHaveLength(2);
  });
});

describe('renderPng', () => {
  it("gives a PNG of the chart's size whose pixels show the bars and the budget line where the SVG put them", async () => {
    const svg = usageChartSvg(data, labels({ fontFamily: chartFontFamily('ja'), title: '2025-02 の文字数 한국어' }));
    const png = decodePng(await renderPng(svg));
    expect([png.width, png.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);

    const line = /<line id="budget"[^>]*>/.exec(svg)?.[0] ?? '';
    const y = Math.round(num(line, 'y1'));
    const x = Math.round((LAYOUT.cumulative.left + LAYOUT.cumulative.right) / 2);
    // The dashed budget line is red somewhere along its row near the middle; white above it.
    const row = Array.from({ length: 14 }, (_, i) => pixelAt(png, x + i, y));
    expect(row.some(([r, g, b]) => r > 200 && g < 120 && b < 100)).toBe(true);
    expect(pixelAt(png, x, y - 6)).toEqual([255, 255, 255, 255]);

    const bar = /<rect class="spent" data-day="2025-02-10"[^>]*>/.exec(svg)?.[0] ?? '';
    const [r, g, b] = pixelAt(
      png,
      Math.round(num(bar, 'x') + num(bar, 'width') / 2),
      Math.round(num(bar, 'y') + num(bar, 'height') / 2),
    );
    expect([r, g, b]).toEqual([0x4f, 0x6b, 0xed]);

    // The title was drawn: dark pixels in its line.
    let ink = 0;
    for (let px = LAYOUT.daily.left; px < LAYOUT.daily.left + 300; px++)
      for (let py = 20; py < 46; py++) if (pixelAt(png, px, py)[0] < 100) ink++;
    expect(ink).toBeGreaterThan(200);
  });
});
