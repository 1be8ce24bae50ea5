import { describe, expect, it } from 'vitest';
import {
  catchUpSpeed,
  messageText,
  nameDue,
  NoticeGate,
  shouldRead,
  spokenName,
  type MessageFacts,
  type SkipReason,
} from '../../../../src/features/autoread/reading/decide.ts';
import { NAME_WINDOW_MS, type ReadingBinding } from '../../../../src/features/autoread/reading/binding.ts';
import { AUTO_READ_DEFAULTS, type AutoReadSettings } from '../../../../src/features/autoread/store/auto-read-store.ts';
import { voiceChangeText, withName } from '../../../../src/features/autoread/reading/spoken.ts';
import { compileDictionary } from '../../../../src/features/autoread/dictionary/dictionary.ts';

const VOICE = 'v1';
const TEXT = 't1';
const binding = (settings: Partial<AutoReadSettings> = {}, language?: string): ReadingBinding => ({
  guildId: 'g',
  channelId: TEXT,
  voiceChannelId: VOICE,
  settings: { ...AUTO_READ_DEFAULTS, ...settings },
  ...(language === undefined ? {} : { language }),
});
const message = (over: Partial<MessageFacts> = {}): MessageFacts => ({
  guildId: 'g',
  channelId: TEXT,
  authorId: 'u1',
  authorName: 'Mina',
  bot: false,
  webhook: false,
  self: false,
  system: false,
  roleIds: ['r1'],
  voiceChannelId: VOICE,
  at: 1_000_000,
  content: 'hello',
  cleanup: {},
  ...over,
});

describe('which message is read', () => {
  const cases: Array<[string, Partial<MessageFacts>, Partial<AutoReadSettings>, SkipReason | 'read']> = [
    ["a member in the bot's voice channel, in the bound channel", {}, {}, 'read'],
    ['another channel', { channelId: 't2' }, {}, 'other-channel'],
    ["SayBot's own message", { self: true, bot: true }, { readBots: true }, 'self'],
    ['a system message', { system: true }, {}, 'system'],
    ['a bot, by default', { bot: true, voiceChannelId: null }, {}, 'bot'],
    ['a bot, when bots are read', { bot: true, voiceChannelId: null }, { readBots: true }, 'read'],
    ['a webhook, by default', { webhook: true, roleIds: [], voiceChannelId: null }, {}, 'webhook'],
    [
      'a webhook, when bots are read (no roles, not in voice)',
      { webhook: true, roleIds: [], voiceChannelId: null },
      { readBots: true, requiredRoleId: 'r9' },
      'read',
    ],
    ['a member outside voice, by default', { voiceChannelId: null }, {}, 'not-in-voice'],
    ['a member in another voice channel', { voiceChannelId: 'v2' }, {}, 'not-in-voice'],
    ['a member outside voice, when everyone is read', { voiceChannelId: null }, { onlyMembersInVoice: false }, 'read'],
    [
      'a member who may not speak in the voice channel read (muted, suppressed, no Speak)',
      { mayNotSpeak: true },
      {},
      'may-not-speak',
    ],
    [
      'a member who may not speak there, even when everyone is read',
      { mayNotSpeak: true, voiceChannelId: null },
      { onlyMembersInVoice: false },
      'may-not-speak',
    ],
    ['a member without the required role', {}, { requiredRoleId: 'r9' }, 'missing-role'],
    ['a member with the required role', { roleIds: ['r1', 'r9'] }, { requiredRoleId: 'r9' }, 'read'],
    ['the role checked before the seat', { voiceChannelId: null }, { requiredRoleId: 'r9' }, 'missing-role'],
    ["the voice channel's own chat when bound to it", { channelId: VOICE }, {}, 'other-channel'],
    ['a message starting with the skip prefix', { content: '  !! aside' }, { skipPrefix: '!!' }, 'skip-prefix'],
    ['the skip prefix elsewhere in the text', { content: 'wow !!' }, { skipPrefix: '!!' }, 'read'],
    [
      "a bot's message with the prefix, bots read",
      { bot: true, content: '!! log' },
      { skipPrefix: '!!', readBots: true },
      'skip-prefix',
    ],
    ['an @silent message, by default', { silent: true }, {}, 'read'],
    ['an @silent message, silent ones not read', { silent: true }, { readSilent: false }, 'silent'],
  ];
  it.each(cases)('%s', (_, facts, settings, expected) => {
    const verdict = shouldRead(message(facts), binding(settings));
    expect(verdict.read ? 'read' : verdict.why).toBe(expected);
  });

  it('never reads a member the managers ignore, before any other rule (bots included)', () => {
    const ignoring = { ...binding({ readBots: true }), ignored: new Set(['u1']) };
    expect(shouldRead(message(), ignoring)).toEqual({ read: false, why: 'ignored' });
    expect(
      shouldRead(message({ bot: true, content: '!! log' }), {
        ...ignoring,
        settings: { ...ignoring.settings, skipPrefix: '!!' },
      }),
    ).toEqual({ read: false, why: 'ignored' });
    expect(shouldRead(message({ authorId: 'u2' }), ignoring)).toEqual({ read: true });
  });

  it("reads the voice channel's own chat when that is the bound channel", () => {
    expect(shouldRead(message({ channelId: VOICE }), { ...binding(), channelId: VOICE })).toEqual({ read: true });
  });
});

describe('how fast a backlog is read', () => {
  const cases: Array<[string, { fasterAfter: number; maxSpeed: number; skipAfter: number }, number, number]> = [
    ['nothing waiting', { fasterAfter: 3, maxSpeed: 1.5, skipAfter: 10 }, 0, 1],
    ['exactly faster_after waiting', { fasterAfter: 3, maxSpeed: 1.5, skipAfter: 10 }, 3, 1],
    ['one past: a step of the ramp to skip_after', { fasterAfter: 3, maxSpeed: 1.5, skipAfter: 10 }, 4, 1.1],
    ['at skip_after: max_speed', { fasterAfter: 3, maxSpeed: 1.5, skipAfter: 10 }, 10, 1.5],
    ['never past max_speed (rounding up stops there)', { fasterAfter: 1, maxSpeed: 1.75, skipAfter: 0 }, 9, 1.75],
    ['no skipping: max_speed at once', { fasterAfter: 1, maxSpeed: 1.5, skipAfter: 0 }, 2, 1.5],
    ['faster_after 0: never faster', { fasterAfter: 0, maxSpeed: 2, skipAfter: 10 }, 50, 1],
  ];
  it.each(cases)('%s', (_, settings, waiting, expected) => {
    expect(catchUpSpeed(settings, waiting)).toBe(expected);
  });

  it('stays on the 0.05 grid of every speed, a max_speed stored off it included', () => {
    const speeds = new Set<number>();
    for (let waiting = 0; waiting <= 12; waiting++)
      speeds.add(catchUpSpeed({ fasterAfter: 1, maxSpeed: 1.37, skipAfter: 10 }, waiting));
    expect([...speeds].filter((speed) => Math.abs(speed * 20 - Math.round(speed * 20)) > 1e-9)).toEqual([]);
    expect(Math.max(...speeds)).toBe(1.35);
  });
});

describe('the words said for a message', () => {
  const dictionary = compileDictionary([
    { word: 'SayBot', reading: 'say bot' },
    { word: '草', reading: 'くさ' },
    { word: 'ㅋㅋ', reading: '크크' },
  ]);
  const cases: Array<
    [string, Partial<MessageFacts>, { lang?: string; sayName?: boolean; max?: number; files?: boolean }, string]
  > = [
    ['en: the name, then the text', {}, { lang: 'en' }, 'Mina said, hello'],
    [
      'ko: the name, then the text',
      { authorName: '민지', content: '안녕하세요' },
      { lang: 'ko' },
      '민지님, 안녕하세요',
    ],
    [
      'ja: the name, then the text',
      { authorName: 'ミナ', content: 'こんにちは' },
      { lang: 'ja-JP' },
      'ミナさん、こんにちは',
    ],
    ['no name when not due', {}, { sayName: false }, 'hello'],
    [
      'en: a URL gone, a mention by name',
      { content: 'look https://example.com/a/very/long/path <@2>', cleanup: { users: { '2': 'Bob' } } },
      { sayName: false },
      'look example.com link Bob',
    ],
    [
      'ko: a mention by name',
      { content: '<@2> 안녕', cleanup: { users: { '2': '철수' } } },
      { lang: 'ko', sayName: false },
      '철수 안녕',
    ],
    [
      'ja: a role and a channel by name',
      { content: '<@&5> は <#6> へ', cleanup: { roles: { '5': '運営' }, channels: { '6': '雑談' } } },
      { lang: 'ja', sayName: false },
      '運営 は 雑談 へ',
    ],
    [
      'en: the dictionary after clean-up, whole words',
      { content: 'I like **SayBot** and saybots' },
      { sayName: false },
      'I like say bot and saybots',
    ],
    ['ja: the dictionary inside a word', { content: 'それは草' }, { lang: 'ja', sayName: false }, 'それはくさ'],
    ['ko: the dictionary on a capped repeat', { content: 'ㅋㅋㅋㅋㅋㅋ' }, { lang: 'ko', sayName: false }, '크크ㅋ'],
    ['the dictionary on the name too', { authorName: 'SayBot' }, {}, 'say bot said, hello'],
    [
      'en: a long message cut at a word, "and so on"',
      { content: 'one two three four five six seven eight nine ten' },
      { sayName: false, max: 30 },
      'one two three four, and so on',
    ],
    [
      'ko: cut with 이하 생략',
      { content: '가나다라 마바사아 자차카타 파하가나 다라마바' },
      { lang: 'ko', sayName: false, max: 20 },
      '가나다라 마바사아, 이하 생략',
    ],
    [
      'ja: cut with 以下略',
      { content: 'あいうえおかきくけこさしすせそたちつてとなにぬねの' },
      { lang: 'ja', sayName: false, max: 20 },
      'あいうえおかきくけこさしすせそた、以下略',
    ],
    ['nothing left after clean-up: nothing said, not even the name', { content: '😀😀 ||| ~~' }, {}, ''],
    [
      'only an image: the file announced with the name',
      { content: '', cleanup: { attachments: [{ filename: 'cat.png' }] } },
      {},
      'Mina said, image',
    ],
    [
      'read_attachments off: an image alone says nothing, not even the name',
      { content: '', cleanup: { attachments: [{ filename: 'cat.png' }] } },
      { files: false },
      '',
    ],
    [
      'read_attachments off: the text, its files passed over',
      { content: 'look', cleanup: { attachments: [{ filename: 'a.png' }, { filename: 'b.txt' }] } },
      { files: false, sayName: false },
      'look',
    ],
    [
      'a reply, as clean-up announces it',
      { content: 'yes', cleanup: { replyTo: 'Bob' } },
      { sayName: false },
      'replying to Bob, yes',
    ],
    ['an emoji-only name: the text alone', { authorName: '🌸🌸' }, {}, 'hello'],
    [
      'a name cut to 32 characters',
      { authorName: 'abcdefghij'.repeat(5) },
      {},
      `${'abcdefghij'.repeat(3)}ab said, hello`,
    ],
  ];
  it.each(cases)('%s', (_, facts, o, expected) => {
    const settings = {
      ...(o.max === undefined ? {} : { maxLength: o.max }),
      ...(o.files === undefined ? {} : { readAttachments: o.files }),
    };
    const text = messageText(message(facts), binding(settings, o.lang), { sayName: o.sayName ?? true, dictionary });
    expect(text).toBe(expected);
  });

  it('a long message costs no more than maxLength plus the name', () => {
    const text = messageText(message({ content: 'word '.repeat(500) }), binding(), { sayName: true });
    expect([...text].length).toBeLessThanOrEqual(200 + 'Mina said, '.length);
  });
});

describe('when the name is said', () => {
  const cases: Array<[string, { userId: string; at: number } | undefined, string, number, boolean]> = [
    ['first message', undefined, 'u1', 0, true],
    ['same member within 60 s', { userId: 'u1', at: 0 }, 'u1', NAME_WINDOW_MS - 1, false],
    ['same member after 60 s', { userId: 'u1', at: 0 }, 'u1', NAME_WINDOW_MS, true],
    ['another member just before', { userId: 'u2', at: 0 }, 'u1', 1, true],
  ];
  it.each(cases)('%s', (_, last, userId, at, due) => {
    expect(nameDue(last, userId, at)).toBe(due);
  });
});

describe('spoken phrases', () => {
  it.each([
    ['en', 'joined', 'Mina joined'],
    ['en', 'left', 'Mina left'],
    ['ko', 'joined', 'Mina님이 들어왔어요'],
    ['ko', 'left', 'Mina님이 나갔어요'],
    ['ja', 'joined', 'Minaさんが入室しました'],
    ['ja', 'left', 'Minaさんが退室しました'],
    ['fr', 'joined', 'Mina joined'],
  ] as const)('%s %s', (language, change, expected) => {
    expect(voiceChangeText(change, 'Mina', language)).toBe(expected);
  });

  it("joins the name and the text with the language's pause", () => {
    expect(withName('ミナ', 'はい', 'ja')).toBe('ミナさん、はい');
    expect(withName('Mina', 'yes', undefined)).toBe('Mina said, yes');
  });

  it('cleans a display name for speaking', () => {
    expect(spokenName('**Mina** 🌸', 'en')).toBe('Mina');
    expect(spokenName('🌸', 'en')).toBe('');
  });
});

describe('the notice gate', () => {
  it('announces the first refusal, stays silent for the next, and re-arms on an accepted message', () => {
    const gate = new NoticeGate();
    expect(gate.silenced).toBe(false);
    expect(gate.refused()).toBe(true);
    expect(gate.refused()).toBe(false);
    expect(gate.refused()).toBe(false);
    expect(gate.silenced).toBe(true);
    gate.accepted();
    expect(gate.silenced).toBe(false);
    expect(gate.refused()).toBe(true);
  });

  it('an accepted message before any refusal changes nothing', () => {
    const gate = new NoticeGate();
    gate.accepted();
    expect(gate.refused()).toBe(true);
  });
});
