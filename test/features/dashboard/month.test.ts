// The month page over HTTP: /usage's lines and its chart's figures for whoever asks (the whole plan's only for a
// manager), and the server's budgets changed by a manager as /budget changes them, in its words; a member's change
// and one without the CSRF token refused.
import { describe, expect, it } from 'vitest';
import { seoulWith, signedIn, managerAndMember, useDashboard } from '../../support/dashboard.ts';
import { runCommand } from '../../support/harness.ts';
import { SEOUL } from '../../support/world.ts';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';

const MANAGER = '360000000000000001';
const MEMBER = '360000000000000002';

const h = useDashboard({
  guilds: [seoulWith(managerAndMember({ id: MANAGER, username: 'manager' }, { id: MEMBER, username: 'member' }))],
  env: { BUDGET_GUILD_MONTHLY_CHARS: '100000' },
});

const base = `/servers/${SEOUL}/month`;
const usage = async (userId: string) =>
  (await runCommand(h, { guildId: SEOUL, userId, name: 'usage', locale: 'en-US' })).content.split('\n');
const unescape = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replaceAll('&lt;', '<');
const linesOf = (body: string) =>
  [...body.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => unescape(m[1] ?? '').trim()).filter((l) => l !== '');
const figuresOf = (body: string) =>
  JSON.parse(unescape(/data-figures="([^"]*)"/.exec(body)?.[1] ?? '{}')) as {
    days: { day: string; spent: number; saved: number }[];
    members: { name: string; spent: number }[];
    budget: number;
  };

describe('the month page', () => {
  it("shows each member /usage's lines and the chart's figures; the whole plan only to a manager", async () => {
    await runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'say', options: { text: 'Spend a few characters.' } });
    const member = await signedIn(h, MEMBER, base);
    const page = await member.get(base);
    const lines = linesOf(page.body);
    const fromUsage = (await usage(MEMBER)).slice(1);
    for (const line of lines) expect(fromUsage).toContain(line);
    expect(lines.some((line) => line.startsWith('This server:'))).toBe(true);
    expect(lines.some((line) => line.startsWith('Whole bot:'))).toBe(false);
    // The chart's figures add up to /usage's: the server's month, spent and saved.
    const spent = Number(/This server: ([\d,]+) characters spent/.exec(lines.join('\n'))?.[1]?.replaceAll(',', ''));
    expect(spent).toBeGreaterThan(0);
    const figures = figuresOf(page.body);
    expect(figures.days.reduce((sum, day) => sum + day.spent, 0)).toBe(spent);
    expect(figures.members[0]?.name).toBe('member');
    expect(figures.budget).toBe(100_000);
    expect(page.body).not.toContain(`${base}/budgets`);
    // The chart is drawn by the page's own script, never inline.
    expect(page.body).toContain('<script src="/static/month.js" defer></script>');
    expect(page.body).not.toMatch(/<script>/);
    expect((await member.get('/static/month.js')).body).toContain("getElementById('month-chart')");

    const manager = await signedIn(h, MANAGER, base);
    const managed = linesOf((await manager.get(base)).body);
    expect(managed.some((line) => line.startsWith('Whole bot:'))).toBe(true);
  });

  it('lets a manager lower the budgets as /budget does, refuses what /budget refuses, and refuses a member', async () => {
    const member = await signedIn(h, MEMBER, base);
    expect((await member.post(`${base}/budgets`, { guildMonthlyChars: '10' })).status).toBe(403);
    const manager = await signedIn(h, MANAGER, base);
    expect((await manager.post(`${base}/budgets`, { guildMonthlyChars: '10' }, { csrf: null })).status).toBe(403);
    expect((await usage(MEMBER)).join('\n')).toContain('monthly budget 100,000');

    const above = await manager.post(`${base}/budgets`, { guildMonthlyChars: '200000' });
    expect(above.status).toBe(400);
    const viaCommand = await runCommand(h, {
      guildId: SEOUL,
      userId: MANAGER,
      name: 'budget',
      options: { server_monthly_chars: 200000 },
      locale: 'en-US',
    });
    expect(unescape(above.body)).toContain(viaCommand.content.trim());

    const saved = await manager.post(`${base}/budgets`, { guildMonthlyChars: '5000', memberDailyChars: '' });
    expect(saved.body).toContain('budgets are saved');
    expect((await usage(MEMBER)).join('\n')).toContain('monthly budget 5,000');
    expect(figuresOf(saved.body).budget).toBe(5000);
    expect(saved.body).toMatch(/name="guildMonthlyChars"[^>]*value="5000"/);
    // Back as it was, so the other tests of this file see the budget they were started with, in any order.
    const restored = await manager.post(`${base}/budgets`, { guildMonthlyChars: '100000', memberDailyChars: '' });
    expect(figuresOf(restored.body).budget).toBe(100_000);
  });

  it('says the month the service said is used up, as /usage says it, to every member', async () => {
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
    try {
      await runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'say', options: { text: 'The month is over now.' } });
      const fromUsage = (await usage(MEMBER)).find((line) => line.includes('said the monthly quota is used up'));
      expect(fromUsage).toBeDefined();
      const member = await signedIn(h, MEMBER, base);
      expect(linesOf((await member.get(base)).body)).toContain(fromUsage);
    } finally {
      h.sandbox.setKeyUsed(h.apiKey, 0);
    }
  });
});
