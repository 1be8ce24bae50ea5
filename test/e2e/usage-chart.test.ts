import { readdir } from 'node:fs/promises';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/core/store/types.ts';
import { CHART_HEIGHT, CHART_WIDTH, LAYOUT } from '../../src/features/usage/chart.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { runCommand, startHarness, type Harness } from '../support/harness.ts';
import { decodePng, pixelAt } from '../features/usage/png.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000071';
const ALICE = '300000000000000701'; // Manage Server
const BOB = '300000000000000702';
const CAROL = '300000000000000703'; // owns the bot's application: the operator
const DAVE = '300000000000000704';
const VOICE_ID = 'voice-b-en-f-01';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Chart', { text: '210000000000000071', voice: '220000000000000071', voiceName: 'hall' }, [
    { id: ALICE, username: 'alice', permissions: PermissionFlagsBits.ManageGuild },
    { id: BOB, username: 'bob' },
    { id: CAROL, username: 'carol' },
    { id: DAVE, username: 'dave' },
  ]),
];

/** While set, the store refuses the chart's query (as a database that went away would). */
let breakdownFails = false;
const wrapStore = (store: Store): Store => {
  const spends = new Proxy(store.spends, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'monthBreakdown' && breakdownFails)
        return () => Promise.reject(new Error('connection terminated'));
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'spends') return spends;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
};

// The bot's clock: the 17th of a 31-day month, so no test can straddle a UTC midnight.
const NOW = new Date('2025-03-17T12:00:00Z');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    guilds,
    wrapStore,
    now: () => NOW,
    env: { BUDGET_BOT_MONTHLY_CHARS: '250000' },
    discord: { applicationOwnerId: CAROL },
  });
  await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'budget', options: { server_monthly_chars: 5_000 } });
  const entries = async () =>
    (await readdir(h.cacheDir, { recursive: true }).catch(() => [] as string[])).filter((f) => f.endsWith('.sbc'))
      .length;
  // Bob spends 54 characters; Alice spends 3 and is then served Bob's text from the cache (54 saved, not spent).
  const bobText = 'Bob has a good deal more to say than anyone else here.';
  expect(
    (
      await runCommand(h, {
        guildId: GUILD,
        userId: BOB,
        name: 'say',
        options: { text: bobText, voice: VOICE_ID, output: 'file' },
      })
    ).content,
  ).toMatch(/^Here is/);
  await vi.waitFor(async () => expect(await entries()).toBe(1), { timeout: 30_000 });
  expect(
    (
      await runCommand(h, {
        guildId: GUILD,
        userId: ALICE,
        name: 'say',
        options: { text: 'Hi.', voice: VOICE_ID, output: 'file' },
      })
    ).content,
  ).toMatch(/^Here is/);
  expect(
    (
      await runCommand(h, {
        guildId: GUILD,
        userId: ALICE,
        name: 'say',
        options: { text: bobText, voice: VOICE_ID, output: 'file' },
      })
    ).content,
  ).toMatch(/^Here is/);
});
afterAll(async () => {
  await h?.close();
});

const SPENT_BLUE = [0x4f, 0x6b, 0xed];
const SAVED_GREEN = [0x3f, 0xb6, 0x8b];
/** The colour in the middle of a member's bar, `fraction` of the way along it. */
const memberBar = (png: ReturnType<typeof decodePng>, rank: number, fraction: number) => {
  const { left, right, top } = LAYOUT.members;
  return pixelAt(png, Math.round(left + (right - left) * fraction), top + (rank - 1) * 62 + 29).slice(0, 3);
};

/** The bot's usage-chart-failed log lines so far: tests compare before and after, as they run in any order. */
const chartFailures = (): string[] =>
  h
    .logs()
    .split('\n')
    .filter((line) => line.includes('usage-chart-failed'));

describe('/usage chart', () => {
  it.each(['en-US', 'ko', 'ja'])(
    'attaches a PNG of the month to the private reply (%s): bars per day, top members',
    async (locale) => {
      const failuresBefore = chartFailures().length;
      const { handle, content } = await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'usage', locale });
      const reply = handle.responses.at(-1);
      expect((reply?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
      expect(content.length).toBeGreaterThan(0); // the figures in words stay
      expect(reply?.files.map((f) => f.name)).toEqual(['usage-2025-03.png']);

      const png = decodePng(reply?.files[0]?.data ?? Buffer.alloc(0));
      expect([png.width, png.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
      // Ranked by what they spent (as the server's total and the owner console's top spenders): Bob first (54, all
      // spent: 54/57 of the longest bar), Alice second (3 spent + 54 saved by the cache: the longest bar), no third.
      expect(memberBar(png, 1, 0.02)).toEqual(SPENT_BLUE);
      expect(memberBar(png, 1, 0.9)).toEqual(SPENT_BLUE);
      expect(memberBar(png, 1, 0.98)).not.toEqual(SPENT_BLUE);
      expect(memberBar(png, 2, 0.02)).toEqual(SPENT_BLUE);
      expect(memberBar(png, 2, 0.6)).toEqual(SAVED_GREEN);
      expect(memberBar(png, 3, 0.5)).toEqual([255, 255, 255]);
      // Today's bar: spent at its foot, saved on top; today is the only day with any.
      const { left, right, bottom } = LAYOUT.daily;
      const x = Math.round(left + ((right - left) / 31) * (17 - 0.5));
      expect(pixelAt(png, x, bottom - 2).slice(0, 3)).toEqual(SPENT_BLUE);
      const column = Array.from({ length: bottom - LAYOUT.daily.top }, (_, i) =>
        pixelAt(png, x, bottom - i)
          .slice(0, 3)
          .join(),
      );
      expect(column).toContain(SAVED_GREEN.join());
      expect(chartFailures()).toHaveLength(failuresBefore);
    },
  );

  it('still answers in words, without a picture, when the chart cannot be drawn, and logs it once', async () => {
    const failuresBefore = chartFailures().length;
    breakdownFails = true;
    try {
      const { handle, content } = await runCommand(h, { guildId: GUILD, userId: BOB, name: 'usage', locale: 'ko' });
      expect(content).toContain('이 서버:');
      expect(handle.responses.at(-1)?.files).toEqual([]);
      await vi.waitFor(() => expect(chartFailures().length).toBeGreaterThan(failuresBefore), { timeout: 20_000 });
      const lines = chartFailures().slice(failuresBefore);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40, userId: BOB, guildId: GUILD });
    } finally {
      breakdownFails = false;
    }
  });
});

describe('/usage figures', () => {
  it("shows the whole plan and the bot-wide budget to a manager and the operator only; a plain member sees their own and their server's", async () => {
    const manager = (await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'usage' })).content;
    expect(manager).toMatch(/^Whole bot: [\d,]+ of 300,000 used/m);
    // Bob's 54 and Alice's 3 are all SayBot spent this month.
    expect(manager).toContain(t('en-US', 'usage.botBudget', { limit: '250,000', left: '249,943' }));
    const member = (await runCommand(h, { guildId: GUILD, userId: BOB, name: 'usage' })).content;
    expect(member).not.toContain('Whole bot');
    expect(member).not.toContain('300,000');
    expect(member).not.toContain('250,000');
    expect(member).not.toContain('Bot-wide');
    expect(member).toMatch(
      /^This server: 57 characters spent, 54 saved by the cache; monthly budget 5,000, 4,943 left\.$/m,
    );
    expect(member).toMatch(/^You today: 54 characters/m);
    // The application's owner is the operator: the plan's figures, without Manage Server.
    const operator = (await runCommand(h, { guildId: GUILD, userId: CAROL, name: 'usage' })).content;
    expect(operator).toMatch(/^Whole bot: [\d,]+ of 300,000 used/m);
    expect(operator).toContain(t('en-US', 'usage.botBudget', { limit: '250,000', left: '249,943' }));
  });
});

describe('/usage chart under the free-request rate', () => {
  // Its own bot: one free request a minute per member, the clock held still.
  let rated: Harness;
  beforeAll(async () => {
    rated = await startHarness({ guilds, now: () => NOW, env: { BUDGET_MEMBER_FREE_PER_MINUTE: '1' } });
  });
  afterAll(async () => {
    await rated?.close();
  });

  const usage = (userId: string, locale: string) =>
    runCommand(rated, { guildId: GUILD, userId, name: 'usage', locale });
  const pictures = (handle: Awaited<ReturnType<typeof usage>>['handle']) =>
    handle.responses.at(-1)?.files.map((f) => f.name) ?? [];

  it('draws a chart once an hour per server and language: asked again it is not drawn (nor rationed) again', async () => {
    const first = await usage(BOB, 'en-US');
    expect(pictures(first.handle)).toEqual(['usage-2025-03.png']);
    // Bob's one free request of the minute went on that drawing; the same chart again costs none.
    const again = await usage(BOB, 'en-US');
    expect(pictures(again.handle)).toEqual(['usage-2025-03.png']);
    expect(again.handle.responses.at(-1)?.files[0]?.data).toEqual(first.handle.responses.at(-1)?.files[0]?.data);
    // Another member asking for the same chart is served the one drawn.
    expect(pictures((await usage(ALICE, 'en-US')).handle)).toEqual(['usage-2025-03.png']);
  });

  it("keeps a chart for the hour by the bot's clock, not the machine's: asked again as the machine's hour turns, it is not drawn (nor rationed) again", async () => {
    // Only Date is faked (timers run as they do): the machine's clock a second before an hour turns, then after it.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T10:59:59Z') });
    try {
      const first = await usage(DAVE, 'fr');
      expect(pictures(first.handle)).toEqual(['usage-2025-03.png']);
      vi.setSystemTime(new Date('2026-01-01T11:00:01Z'));
      const again = await usage(DAVE, 'fr');
      expect(pictures(again.handle)).toEqual(['usage-2025-03.png']);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers in words, without a picture and saying why, when drawing would pass the member's free-request rate", async () => {
    // A chart in Japanese is not drawn yet: drawing it is Carol's one free request of the minute.
    expect(pictures((await usage(CAROL, 'ja')).handle)).toEqual(['usage-2025-03.png']);
    // A Korean one would be a second drawing within the minute.
    const refused = await usage(CAROL, 'ko');
    expect(refused.handle.responses.at(-1)?.files).toEqual([]);
    expect(refused.content).toContain('이 서버:');
    expect(refused.content).toMatch(
      new RegExp(
        t('ko', 'usage.chart.freeRate', { limit: 1, seconds: 'SECONDS' })
          .replace(/[.()?*+[\]\\]/g, '\\$&')
          .replace('SECONDS', '\\d+'),
      ),
    );
    expect(rated.logs()).not.toContain('usage-chart-failed');
  });
});
