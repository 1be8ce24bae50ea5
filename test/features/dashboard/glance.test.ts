// A server's first page over HTTP against the real bot: its figures at a glance are /usage's for the same member and
// server (the server's month and what is left of its budget, the member's day and what is left of theirs, and their
// month), read afresh at every visit, each a link to its page; the manager's figures (the budgets in force,
// auto-read's state) for a manager alone; what SayBot does in voice now, from its player.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { seoulWith, signedIn, managerAndMember, useDashboard } from '../../support/dashboard.ts';
import { startAutoRead } from '../../support/chat.ts';
import { runCommand } from '../../support/harness.ts';
import { LOUNGE, SEOUL, SEOUL_TEXT } from '../../support/world.ts';

const MANAGER = '380000000000000001';
const MEMBER = '380000000000000002';

const h = useDashboard({
  guilds: [
    seoulWith(
      managerAndMember(
        { id: MANAGER, username: 'manager', voiceChannelId: LOUNGE },
        { id: MEMBER, username: 'member' },
      ),
      'en-US',
    ),
  ],
  env: { BUDGET_GUILD_MONTHLY_CHARS: '100000', BUDGET_MEMBER_DAILY_CHARS: '5000', BUDGET_MEMBER_COOLDOWN_SECONDS: '0' },
  config: { voiceIdleTimeoutMs: 60_000 },
});

const home = `/servers/${SEOUL}`;
const unescape = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').replaceAll('&lt;', '<');
const usage = async (userId: string) =>
  (await runCommand(h, { guildId: SEOUL, userId, name: 'usage', locale: 'en-US' })).content;
const number = (text: string | undefined) => Number(text?.replaceAll(',', ''));

/** One figure of the page by its name: its link, value, detail and meter, as text. */
function figureOf(body: string, id: string) {
  const item = new RegExp(`<li class="glance-item" id="glance-${id}-item">([\\s\\S]*?)</li>`).exec(unescape(body))?.[1];
  if (item === undefined) return undefined;
  const meter = /<meter[^>]*max="(\d+)"[^>]*value="(\d+)"/.exec(item);
  return {
    href: /<a class="glance-link" href="([^"]*)"/.exec(item)?.[1],
    value: /<span class="glance-value">([^<]*)<\/span>/.exec(item)?.[1]?.trim(),
    detail: /<span class="glance-detail">([^<]*)<\/span>/.exec(item)?.[1]?.trim(),
    meter: meter === null ? undefined : { max: Number(meter[1]), value: Number(meter[2]) },
  };
}

/** /usage's figures for the server's month and the member's day. */
function usageFigures(text: string) {
  const server =
    /This server: ([\d,]+) characters spent, [\d,]+ saved by the cache; monthly budget ([\d,]+), ([\d,]+) left/.exec(
      text,
    );
  const today = /You today: ([\d,]+) characters; daily budget ([\d,]+), ([\d,]+) left/.exec(text);
  expect(server).not.toBeNull();
  expect(today).not.toBeNull();
  return {
    server: { spent: number(server?.[1]), budget: number(server?.[2]), left: number(server?.[3]) },
    today: { spent: number(today?.[1]), budget: number(today?.[2]), left: number(today?.[3]) },
  };
}

/** The page's figures for the same, read from its words. */
function pageFigures(body: string) {
  const server = figureOf(body, 'server-month');
  const today = figureOf(body, 'member-day');
  const spentOf = (value: string | undefined) => number(/^([\d,]+) characters$/.exec(value ?? '')?.[1]);
  const leftOf = (detail: string | undefined) => /^([\d,]+) left of ([\d,]+)$/.exec(detail ?? '');
  return {
    server: {
      spent: spentOf(server?.value),
      budget: number(leftOf(server?.detail)?.[2]),
      left: number(leftOf(server?.detail)?.[1]),
    },
    today: {
      spent: spentOf(today?.value),
      budget: number(leftOf(today?.detail)?.[2]),
      left: number(leftOf(today?.detail)?.[1]),
    },
    meters: { server: server?.meter, today: today?.meter },
  };
}

describe("a server's first page at a glance", () => {
  it("shows a member this month's characters as /usage says them, afresh at each visit, each figure a link to its page", async () => {
    const member = await signedIn(h, MEMBER, home);
    for (const text of ['A few characters to count.', 'And a few more, counted again.']) {
      await runCommand(h, { guildId: SEOUL, userId: MEMBER, name: 'say', options: { text } });
      const page = await member.get(home);
      expect(page.status).toBe(200);
      const shown = pageFigures(page.body);
      const said = usageFigures(await usage(MEMBER));
      expect(said.server.spent).toBeGreaterThan(0);
      expect(said.today.spent).toBeGreaterThan(0);
      expect({ server: shown.server, today: shown.today }).toEqual(said);
      expect(shown.meters).toEqual({
        server: { value: said.server.spent, max: said.server.budget },
        today: { value: said.today.spent, max: said.today.budget },
      });
    }
    const page = (await member.get(home)).body;
    // Their month too, as they spent it here (all of it today in this test): not the server's, not the manager's.
    await runCommand(h, { guildId: SEOUL, userId: MANAGER, name: 'say', options: { text: 'The manager speaks.' } });
    const after = (await member.get(home)).body;
    const today = usageFigures(await usage(MEMBER)).today.spent;
    expect(figureOf(after, 'member-month')).toMatchObject({
      value: `${today.toLocaleString('en-US')} characters`,
      href: `${home}/month`,
    });
    expect(pageFigures(after).server.spent).toBeGreaterThan(today);
    expect(figureOf(page, 'server-month')?.href).toBe(`${home}/month`);
    expect(figureOf(page, 'member-day')?.href).toBe(`${home}/month`);
    expect(figureOf(page, 'voice')?.href).toBe(`${home}/myvoice`);
    // What SayBot does in voice leads nowhere: no page is about what plays (it led to Scenes, which is not).
    expect(figureOf(page, 'in-voice')?.href).toBeUndefined();
    expect(figureOf(page, 'in-voice')?.value).toBe('Not in voice');
    // Their voice, as /myvoice set it.
    expect(figureOf(page, 'voice')?.value).toBe('Not chosen');
    await runCommand(h, {
      guildId: SEOUL,
      userId: MEMBER,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: 'voice-b-en-f-01' },
    });
    expect(figureOf((await member.get(home)).body, 'voice')?.value).toBe('voice-b-en-f-01');
    // A member sees neither the budgets nor auto-read, nor a link to the managers' pages.
    expect(figureOf(page, 'budgets')).toBeUndefined();
    expect(figureOf(page, 'autoread')).toBeUndefined();
    expect(page).not.toContain(`${home}/autoread`);
  });

  it("shows a manager the server's budgets and auto-read's state too, and what SayBot does in voice now", async () => {
    const manager = await signedIn(h, MANAGER, home);
    const before = (await manager.get(home)).body;
    expect(figureOf(before, 'budgets')).toEqual({
      href: `${home}/month`,
      value: '100,000 a month',
      detail: '5,000 a member a day; 0 s between requests.',
      meter: undefined,
    });
    // The budgets in force are /usage's.
    const said = usageFigures(await usage(MANAGER));
    expect([said.server.budget, said.today.budget]).toEqual([100_000, 5000]);
    expect(figureOf(before, 'autoread')?.href).toBe(`${home}/autoread`);

    await startAutoRead(h, SEOUL, MANAGER, { text: SEOUL_TEXT, voice: LOUNGE });
    // Auto-read joined the manager's voice channel: SayBot is in it (once the join is through), nothing playing.
    const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
    await poll(async () => figureOf((await manager.get(home)).body, 'in-voice')).toEqual({
      href: undefined,
      value: 'In lounge',
      detail: 'Quiet, nothing waiting.',
      meter: undefined,
    });
    expect(figureOf((await manager.get(home)).body, 'autoread')).toMatchObject({
      value: 'Reading',
      detail: '#general into lounge',
    });
    // A member who may not see that channel is not told its name.
    h.discord.setChannelOverwrites(SEOUL, LOUNGE, [{ id: MEMBER, type: 1, deny: PermissionFlagsBits.ViewChannel }]);
    const member = await signedIn(h, MEMBER, home);
    await poll(async () => figureOf((await member.get(home)).body, 'in-voice')?.value).toBe('In a voice channel');
    expect((await member.get(home)).body).not.toContain('lounge');
    h.discord.setChannelOverwrites(SEOUL, LOUNGE, []);

    // A /say of the manager's plays in that channel: SayBot speaks there while it plays.
    const spoken = runCommand(h, {
      guildId: SEOUL,
      userId: MANAGER,
      name: 'say',
      options: { text: 'A sentence long enough to be heard for a few seconds in the lounge, while the page is read.' },
    });
    await poll(async () => figureOf((await manager.get(home)).body, 'in-voice')?.detail).toMatch(
      /^Speaking; \d+ more waiting\.$/,
    );
    await spoken;

    await runCommand(h, { guildId: SEOUL, userId: MANAGER, name: 'autoread', subcommand: 'stop' });
    await runCommand(h, { guildId: SEOUL, userId: MANAGER, name: 'leave' });
    await poll(async () => figureOf((await manager.get(home)).body, 'in-voice')?.value).toBe('Not in voice');
  });
});
