// The figures' markup in every case the running bot is slow to reach: SayBot joining, speaking with clips waiting,
// another shard's server; a figure without a limit has no meter, one near its limit is in the meter's "less good"
// region; the words in Korean and Japanese; and the owner console's empty server list with its install link, where it
// says to invite SayBot.
import { describe, expect, it } from 'vitest';
import type { UsageReport } from '../../../../src/core/quota/accounting.ts';
import type { Membership, SeatNow, VoiceNow } from '../../../../src/features/dashboard/dashboard-types.ts';
import type { ServerGlance } from '../../../../src/features/dashboard/glance-figures.ts';
import { consolePage, type ConsoleView } from '../../../../src/features/dashboard/pages/console-page.ts';
import { serverGlancePart } from '../../../../src/features/dashboard/pages/glance.ts';

const SERVER: Membership = {
  guildId: '200000000000000001',
  guildName: 'Seoul',
  guildLanguage: 'ko',
  manager: false,
  owner: false,
};

function report(guild: { spent: number; budget: number }, member: { spentToday: number; budget: number }): UsageReport {
  return {
    month: '2026-11',
    at: new Date('2026-11-15T12:00:00Z'),
    resetAt: new Date('2026-12-01T00:00:00Z'),
    guild: { ...guild, saved: 0 },
    botBudget: 0,
    bot: { used: 0, fromService: false, spent: 0, saved: 0, limit: 300_000, remaining: 300_000 },
    member: { ...member, resetAt: new Date('2026-11-27T00:00:00Z'), cooldownSeconds: 0 },
  };
}

const glance = (voiceNow: VoiceNow, more: Partial<ServerGlance> = {}): ServerGlance => ({
  voice: undefined,
  report: report({ spent: 950, budget: 1000 }, { spentToday: 10, budget: 0 }),
  memberMonth: 120,
  voiceNow,
  ...more,
});

const text = (markup: unknown) =>
  String(markup)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replaceAll('&#39;', "'")
    .trim();

describe('the figures at a glance', () => {
  it('says what SayBot does in voice: joining, speaking with clips waiting, out, on another shard', () => {
    const inVoice = (now: VoiceNow) =>
      text(/id="glance-in-voice-item">([\s\S]*?)<\/li>/.exec(String(serverGlancePart('en', SERVER, glance(now))))?.[1]);
    const lounge = { channelId: '1', channelName: 'lounge' };
    const one = (seat: Omit<SeatNow, 'bot' | 'main'>): VoiceNow => ({
      kind: 'seats',
      seats: [{ bot: 'SayBot', main: true, ...seat }],
    });
    expect(inVoice(one({ kind: 'joining', ...lounge, speaking: true, waiting: 0 }))).toBe(
      'SayBot in voice now Joining lounge Speaking; 0 more waiting.',
    );
    expect(inVoice(one({ kind: 'in', ...lounge, speaking: true, waiting: 3 }))).toBe(
      'SayBot in voice now In lounge Speaking; 3 more waiting.',
    );
    expect(inVoice(one({ kind: 'in', channelId: '99', channelName: undefined, speaking: false, waiting: 0 }))).toBe(
      'SayBot in voice now In 99 Quiet, nothing waiting.',
    );
    expect(inVoice({ kind: 'out' })).toBe('SayBot in voice now Not in voice');
    expect(inVoice({ kind: 'elsewhere' })).toBe('SayBot in voice now Not known here Another shard holds this server.');
  });

  it('lists every seat with helpers: its bot, its channel (hidden where the member may not see it), what it plays', () => {
    const seats: VoiceNow = {
      kind: 'seats',
      seats: [
        { kind: 'in', bot: 'SayBot', main: true, channelId: '1', channelName: 'lounge', speaking: true, waiting: 2 },
        {
          kind: 'joining',
          bot: 'SayBot 2',
          main: false,
          channelId: '',
          channelName: undefined,
          hidden: true,
          speaking: false,
          waiting: 0,
        },
        { kind: 'in', bot: 'SayBot 3', main: false, channelId: '3', channelName: 'study', speaking: false, waiting: 0 },
      ],
    };
    const inVoice = (locale: string) =>
      /id="glance-in-voice-item">([\s\S]*?<\/ul>)\s*<\/li>/.exec(
        String(serverGlancePart(locale, SERVER, glance(seats))),
      )?.[1] ?? '';
    const en = inVoice('en');
    expect(text(/<span class="glance-value">([\s\S]*?)<\/span>/.exec(en)?.[1])).toBe('Bots in voice: 3');
    const rows = [...en.matchAll(/<li class="glance-seat">([\s\S]*?)<\/li>/g)].map((row) => text(row[1]));
    expect(rows).toEqual([
      'SayBot In lounge Speaking; 2 more waiting.',
      'SayBot 2 Joining a voice channel Quiet, nothing waiting.',
      'SayBot 3 In study Quiet, nothing waiting.',
    ]);
    expect(text(inVoice('ja'))).toContain('ボイス中のボット 3 SayBot lounge にいます 話しています。あと 2 件待ち。');
    expect(text(inVoice('ko'))).toContain('음성 채널의 봇 3개 SayBot lounge에 있음 말하는 중, 2개 대기 중.');
    // A helper alone in voice is named too: members see which bot sits where.
    const single = String(serverGlancePart('en', SERVER, glance({ kind: 'seats', seats: seats.seats.slice(2) })));
    expect(text(single)).toContain('SayBot in voice now Bots in voice: 1 SayBot 3 In study Quiet, nothing waiting.');
  });

  it('draws a meter only against a limit, in its "less good" region past nine tenths; no manager figure for a member', () => {
    const markup = String(serverGlancePart('en', SERVER, glance({ kind: 'out' })));
    const meters = [...markup.matchAll(/<meter([^>]*)>/g)].map((match) => match[1] ?? '');
    // The server's month against its budget; the member's day has none.
    expect(meters).toHaveLength(1);
    expect(meters[0]).toMatch(/max="1000"[\s\S]*value="950"[\s\S]*low="900"[\s\S]*optimum="0"/);
    expect(text(markup)).toContain('You today 10 characters No daily budget');
    expect(markup).not.toContain('glance-budgets');
    expect(markup).not.toContain('/autoread');
  });

  it('speaks Korean and Japanese', () => {
    const manager = glance(
      { kind: 'out' },
      {
        voice: 'voice-b-ko-f-01',
        manager: {
          budgets: { guildMonthlyChars: 0, memberDailyChars: 2000, memberCooldownSeconds: 3 },
          autoread: { reading: true, binding: { text: 'general', voice: 'lounge' } },
        },
      },
    );
    const ko = text(serverGlancePart('ko', { ...SERVER, manager: true }, manager));
    expect(ko).toContain('한눈에 보기');
    expect(ko).toContain('이번 달 이 서버 950자 1,000자 중 50자 남음');
    expect(ko).toContain('서버 예산 한 달 제한 없음 멤버당 하루 2,000, 요청 사이 3초.');
    expect(ko).toContain('자동 읽기 읽는 중 #general → lounge');
    const ja = text(serverGlancePart('ja', { ...SERVER, manager: true }, manager));
    expect(ja).toContain('ひと目で');
    expect(ja).toContain('今月のこのサーバー 950 文字 1,000 のうち残り 50');
    expect(ja).toContain('自動読み上げ 読み上げ中 #general → lounge');
  });
});

const EMPTY_CONSOLE: ConsoleView = {
  summary: {
    plan: { used: 0, limit: 300_000, remaining: 300_000 },
    servers: { count: 0, served: 0 },
    key: {},
    cache: { maxBytes: 0, hits: 0, misses: 0 },
    freeThreads: 0,
    freeMemoryBytes: 0,
  },
  installUrl: 'https://discord.com/oauth2/authorize?client_id=42&scope=bot+applications.commands&permissions=1',
  plan: { name: 'creator', sandbox: true, lines: [], limit: 300_000, budget: 0 },
  servers: { total: 0, complete: true, page: 1, pages: 1, rows: [] },
  key: {},
  freeVoice: {
    installed: false,
    threads: 0,
    memoryBytes: 0,
    japanese: { installed: false, loadedThreads: 0 },
    setting: { chosen: false, fallback: false },
  },
  cache: { entries: 0, bytes: 0, maxBytes: 0, hits: 0, misses: 0 },
  access: { allowed: undefined, leaveAtStart: false, publicBot: false },
  doctor: undefined,
  helpers: [],
};

describe("the owner console's install link", () => {
  it('is where the console says to invite SayBot when it is in no server yet', () => {
    const view = EMPTY_CONSOLE;
    const markup = String(consolePage({ locale: 'en', member: { name: 'owner', csrf: 'x' } }, view));
    const empty = /<div class="empty">([\s\S]*?)<\/div>/.exec(markup)?.[1] ?? '';
    expect(text(empty)).toContain('SayBot is in no server yet: invite it with its install link.');
    expect(empty).toContain(
      'href="https://discord.com/oauth2/authorize?client_id=42&amp;scope=bot+applications.commands&amp;permissions=1"',
    );
    const summary = text(/aria-labelledby="summary-title">([\s\S]*?)<\/section>/.exec(markup)?.[1]);
    expect(summary).toContain('API key Not used yet');
    expect(summary).toContain('Cache hit rate Off');
    expect(summary).toContain('Servers 0 0 served of 0');
  });
});

describe("the owner console's helper bots", () => {
  const helpersOf = (locale: string, helpers: ConsoleView['helpers']) =>
    /aria-labelledby="helpers-title"[\s\S]*?<\/section>/.exec(
      String(consolePage({ locale, member: { name: 'owner', csrf: 'x' } }, { ...EMPTY_CONSOLE, helpers })),
    )?.[0] ?? '';

  it('lists each helper: online or not (a refused token said), its servers, its voice connections; never a token', () => {
    const markup = helpersOf('en', [
      { index: 1, name: 'SayBot 2', state: 'online', servers: 3, inVoice: 2 },
      { index: 2, name: undefined, state: 'refused', servers: 0, inVoice: 0 },
      { index: 3, name: undefined, state: 'offline', servers: 0, inVoice: 0 },
    ]);
    const rows = [...markup.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => text(row[1]));
    expect(rows).toEqual([
      'Helper Online Servers In voice',
      'SayBot 2 online 3 2',
      'Helper 2 (not logged in) token refused 0 0',
      'Helper 3 (not logged in) offline 0 0',
    ]);
    expect(text(helpersOf('ja', [{ index: 1, name: 'B', state: 'online', servers: 1, inVoice: 1 }]))).toContain(
      'ヘルパーボット',
    );
    expect(text(helpersOf('ko', [{ index: 1, name: 'B', state: 'offline', servers: 1, inVoice: 0 }]))).toContain(
      '도우미 봇',
    );
  });

  it('says how to add helpers when none is set', () => {
    expect(text(helpersOf('en', []))).toContain('No helper bots. With HELPER_BOT_TOKENS');
  });
});
