// The /usage chart is drawn in its worker thread, as long work: never on the main thread (resvg is made to fail
// there, and the chart is still drawn), and rationed per member (a member's second chart at once is refused while
// another member's is drawn), whether or not it costs anything.
import { describe, expect, it, vi } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH, usageChartSvg } from '../../../src/features/usage/chart.ts';
import {
  CHART_POOL,
  CHART_WALL_CEILING_MS,
  MAX_CHARTS_PER_MEMBER,
  renderPng,
} from '../../../src/features/usage/render-png.ts';
import { labels } from './labels.ts';
import { decodePng } from './png.ts';

vi.mock('@resvg/resvg-js', () => {
  const onMain = () => {
    throw new Error('a chart drawn on the main thread');
  };
  return { Resvg: onMain, renderAsync: onMain, render: onMain };
});

const svg = usageChartSvg(
  { month: '2025-02', days: [{ day: '2025-02-03', spent: 400, saved: 0 }], budget: 1_000, members: [] },
  labels(),
);
describe('the usage chart', () => {
  it('is drawn off the main thread', async () => {
    const png = decodePng(await renderPng(svg, { guild: 'G1', member: 'M1' }));
    expect([png.width, png.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
  });

  it("is long work: a member's charts past their ration at once are refused, another member's is drawn", async () => {
    const mine = Array.from({ length: MAX_CHARTS_PER_MEMBER + 1 }, () => renderPng(svg, { guild: 'G2', member: 'M2' }));
    const theirs = renderPng(svg, { guild: 'G2', member: 'M3' });
    const results = await Promise.allSettled(mine);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_CHARTS_PER_MEMBER);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { name: 'ChartBusyError', reason: 'member-busy' },
    });
    expect(decodePng(await theirs).width).toBe(CHART_WIDTH);
  });

  it('counts its limit in its own CPU time, as long work does, not the time a busy host kept its thread waiting', () => {
    // Its thread runs at long work's low priority: beside two busy processes a chart needing a tenth of a second of a
    // core waited past a 20 s wall-clock limit and /usage came without its PNG.
    expect(CHART_POOL.workClass).toBe('long');
    expect(CHART_POOL.wallCeilingMs).toBe(CHART_WALL_CEILING_MS);
    expect(CHART_WALL_CEILING_MS).toBeGreaterThan(CHART_POOL.timeoutMs);
  });
});
