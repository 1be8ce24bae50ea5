import { describe, expect, it } from 'vitest';
import { countCharacters } from '../../../../src/core/characters.ts';
import { cleanMessage } from '../../../../src/features/autoread/text/cleanup.ts';
import type { CleanupContext } from '../../../../src/features/autoread/text/cleanup.ts';

const users = { '111': 'Alice', '222': '민수', '333': 'たろう', '444': '__Bob__' };
const roles = { '900': 'Moderators', '901': '운영진', '902': '管理人' };
const channels = { '500': 'general', '501': '잡담', '502': '雑談' };
const lookups = { users, roles, channels };

interface Case {
  name: string;
  content: string;
  context?: CleanupContext;
  expected: string;
}

const en: Case[] = [
  { name: 'plain text stays', content: 'Hello there, friend.', expected: 'Hello there, friend.' },
  { name: 'user mention', content: 'hi <@111>!', expected: 'hi Alice!' },
  { name: 'nickname mention', content: '<@!111> look', expected: 'Alice look' },
  { name: 'unknown user', content: 'ask <@999>', expected: 'ask someone' },
  { name: 'role mention', content: 'ping <@&900> now', expected: 'ping Moderators now' },
  { name: 'unknown role', content: '<@&1> please', expected: 'a role please' },
  { name: 'channel mention', content: 'go to <#500>', expected: 'go to general' },
  { name: 'unknown channel', content: 'see <#7>', expected: 'see a channel' },
  { name: 'display name kept as is (no markdown stripping)', content: 'thanks <@444>', expected: 'thanks __Bob__' },
  { name: '@everyone and @here', content: '@everyone and @here listen', expected: 'everyone and here listen' },
  { name: 'custom emoji', content: 'nice <:pog_champ:123456>', expected: 'nice pog champ' },
  { name: 'animated emoji', content: '<a:party:987> time', expected: 'party time' },
  { name: 'unicode emoji dropped', content: 'great job 👍🏽🎉', expected: 'great job' },
  { name: 'ZWJ family and flags dropped', content: 'family 👨‍👩‍👧 from 🇰🇷', expected: 'family from' },
  { name: 'keycap emoji dropped whole', content: 'step 1️⃣ done', expected: 'step done' },
  { name: 'emoji only is nothing', content: '😂😂😂', expected: '' },
  { name: 'short host kept', content: 'watch https://www.youtube.com/watch?v=abc', expected: 'watch youtube.com link' },
  { name: 'long host dropped', content: 'read https://subdomain.very-long-example.org/x', expected: 'read link' },
  { name: 'URL before sentence punctuation', content: 'see https://x.com/a.', expected: 'see x.com link.' },
  { name: 'suppressed embed URL', content: 'here <https://github.com/a/b>', expected: 'here github.com link' },
  {
    name: 'masked link reads its label',
    content: 'click [the docs](https://example.com/docs) now',
    expected: 'click the docs now',
  },
  { name: 'URL only', content: 'https://discord.com/channels/1/2', expected: 'discord.com link' },
  { name: 'code block', content: 'try this ```js\nconsole.log(1)\n``` ok', expected: 'try this code ok' },
  { name: 'unclosed code block', content: 'look ```\nlet x = 1', expected: 'look code' },
  { name: 'short inline code read', content: 'run `npm test` first', expected: 'run npm test first' },
  { name: 'long inline code named', content: 'use `const value = computeEverything(a, b, c)`', expected: 'use code' },
  { name: 'spoiler', content: 'the ending: ||he dies|| wow', expected: 'the ending: spoiler wow' },
  { name: 'spoiler between words', content: 'a||b||c', expected: 'a spoiler c' },
  { name: 'bold italic strike', content: '**bold** *it* ~~gone~~ __under__', expected: 'bold it gone under' },
  { name: 'underscore italics but not snake_case', content: '_quiet_ my_var_name', expected: 'quiet my_var_name' },
  { name: 'heading, quote and list', content: '# Title\n> quoted\n- item', expected: 'Title quoted item' },
  { name: 'subtext and block quote', content: '-# small\n>>> all of this', expected: 'small all of this' },
  { name: 'escaped markdown', content: '\\*not bold\\*', expected: 'not bold' },
  { name: 'laughing wwwww capped', content: 'lol wwwwwww', expected: 'lol www' },
  { name: 'exclamation capped', content: 'no!!!!!!', expected: 'no!!!' },
  { name: 'numbers not capped', content: 'it costs 1000000 won', expected: 'it costs 1000000 won' },
  { name: 'letters repeated within the cap kept', content: 'sooo good', expected: 'sooo good' },
  { name: 'slash command mention', content: 'use </say:123> please', expected: 'use say please' },
  { name: 'private-use characters removed', content: 'a\uE0001\uE001b', expected: 'a1b' },
  { name: 'whitespace collapsed', content: '  one \n\n two\tthree  ', expected: 'one two three' },
  { name: 'punctuation only is nothing', content: '...!?', expected: '' },
  { name: 'empty is nothing', content: '', expected: '' },
  { name: 'timestamp as a date', content: 'event <t:1700000000:F>', expected: 'event November 14, 2023' },
  {
    name: 'image attachment alone',
    content: '',
    context: { attachments: [{ filename: 'cat.PNG' }] },
    expected: 'image',
  },
  {
    name: 'text with a video',
    content: 'look',
    context: { attachments: [{ filename: 'clip', contentType: 'video/mp4' }] },
    expected: 'look, video',
  },
  {
    name: 'several attachments',
    content: '',
    context: { attachments: [{ filename: 'a.png' }, { filename: 'b.zip' }] },
    expected: '2 files',
  },
  {
    name: 'unknown file type',
    content: 'notes',
    context: { attachments: [{ filename: 'notes.xyz' }] },
    expected: 'notes, file',
  },
  { name: 'sticker', content: '', context: { stickerNames: ['Wave'] }, expected: 'sticker Wave' },
  { name: 'reply announced', content: 'agreed', context: { replyTo: 'Alice' }, expected: 'replying to Alice, agreed' },
  { name: 'reply with nothing to say is silent', content: '👍', context: { replyTo: 'Alice' }, expected: '' },
  { name: 'forward announced', content: 'news', context: { forwarded: true }, expected: 'forwarded message, news' },
  {
    name: 'forward of an image',
    content: '',
    context: { forwarded: true, attachments: [{ filename: 'x.jpg' }] },
    expected: 'forwarded message, image',
  },
  {
    name: 'long message cut at a word',
    content: 'one two three four five six seven eight nine ten',
    context: { maxLength: 30 },
    expected: 'one two three four, and so on',
  },
  { name: 'exactly at the limit not cut', content: 'abcde fghij', context: { maxLength: 11 }, expected: 'abcde fghij' },
];

const ko: Case[] = [
  { name: 'plain Korean', content: '안녕하세요 여러분', context: { language: 'ko' }, expected: '안녕하세요 여러분' },
  {
    name: 'mention with a particle attached',
    content: '<@222>님 안녕',
    context: { language: 'ko' },
    expected: '민수님 안녕',
  },
  { name: 'role mention', content: '<@&901> 확인 부탁', context: { language: 'ko' }, expected: '운영진 확인 부탁' },
  { name: 'channel mention', content: '<#501>에서 봐요', context: { language: 'ko' }, expected: '잡담에서 봐요' },
  { name: 'unknown user', content: '<@5>가 왔어요', context: { language: 'ko' }, expected: '누군가가 왔어요' },
  { name: 'ㅋㅋㅋㅋ capped', content: 'ㅋㅋㅋㅋㅋㅋㅋ 웃겨', context: { language: 'ko' }, expected: 'ㅋㅋㅋ 웃겨' },
  { name: 'ㅠㅠㅠㅠ capped', content: '슬퍼ㅠㅠㅠㅠㅠ', context: { language: 'ko' }, expected: '슬퍼ㅠㅠㅠ' },
  {
    name: 'link with short host',
    content: '이거 봐 https://youtu.be/xyz',
    context: { language: 'ko' },
    expected: '이거 봐 youtu.be 링크',
  },
  {
    name: 'link with long host',
    content: 'https://a-very-long-hostname.example.com',
    context: { language: 'ko' },
    expected: '링크',
  },
  { name: 'code block', content: '코드 ```\nx\n```', context: { language: 'ko' }, expected: '코드 코드' },
  { name: 'spoiler', content: '범인은 ||민수||', context: { language: 'ko' }, expected: '범인은 스포일러' },
  { name: 'emoji dropped', content: '좋아요 😍', context: { language: 'ko' }, expected: '좋아요' },
  { name: 'custom emoji name', content: '<:하트:1> 고마워', context: { language: 'ko' }, expected: '하트 고마워' },
  { name: 'bold stripped', content: '**중요** 공지', context: { language: 'ko' }, expected: '중요 공지' },
  {
    name: 'image',
    content: '',
    context: { language: 'ko', attachments: [{ filename: '사진.jpg' }] },
    expected: '이미지',
  },
  {
    name: 'files counted',
    content: '자료',
    context: { language: 'ko', attachments: [{ filename: 'a.pdf' }, { filename: 'b.pdf' }, { filename: 'c.pdf' }] },
    expected: '자료, 파일 3개',
  },
  { name: 'reply', content: '맞아', context: { language: 'ko', replyTo: '민수' }, expected: '민수님에게 답장, 맞아' },
  {
    name: 'forward',
    content: '',
    context: { language: 'ko', forwarded: true, stickerNames: ['안녕'] },
    expected: '전달된 메시지, 스티커 안녕',
  },
  { name: 'everyone', content: '@everyone 모여', context: { language: 'ko' }, expected: '모두 모여' },
  {
    name: 'long Korean cut at a space',
    content: '가나다라 마바사아 자차카타 파하가나 다라마바 사아자차',
    context: { language: 'ko', maxLength: 20 },
    expected: '가나다라 마바사아, 이하 생략',
  },
  {
    name: 'timestamp as a Korean date',
    content: '<t:1700000000:R>에 만나요',
    context: { language: 'ko' },
    expected: '2023년 11월 14일에 만나요',
  },
  {
    name: 'suppressed embed link',
    content: '여기 <https://naver.com/a>',
    context: { language: 'ko' },
    expected: '여기 naver.com 링크',
  },
];

const ja: Case[] = [
  {
    name: 'plain Japanese',
    content: 'こんにちは、みなさん。',
    context: { language: 'ja' },
    expected: 'こんにちは、みなさん。',
  },
  {
    name: 'mention with honorific attached',
    content: '<@333>さん、おはよう',
    context: { language: 'ja' },
    expected: 'たろうさん、おはよう',
  },
  { name: 'role mention', content: '<@&902>に連絡', context: { language: 'ja' }, expected: '管理人に連絡' },
  { name: 'channel mention', content: '<#502>で話そう', context: { language: 'ja' }, expected: '雑談で話そう' },
  { name: 'unknown channel', content: '<#1>へ', context: { language: 'ja' }, expected: 'チャンネルへ' },
  { name: 'wwww capped', content: '草wwwwww', context: { language: 'ja' }, expected: '草www' },
  { name: 'full-width ｗ capped', content: 'ｗｗｗｗｗ', context: { language: 'ja' }, expected: 'ｗｗｗ' },
  { name: 'long vowel mark capped', content: 'すごーーーーい', context: { language: 'ja' }, expected: 'すごーーーい' },
  {
    name: 'link',
    content: 'これ見て https://example.jp/a',
    context: { language: 'ja' },
    expected: 'これ見て example.jpのリンク',
  },
  {
    name: 'link with long host',
    content: 'https://very-long-subdomain.example.co.jp/',
    context: { language: 'ja' },
    expected: 'リンク',
  },
  { name: 'spoiler', content: '犯人は||たろう||です', context: { language: 'ja' }, expected: '犯人はネタバレです' },
  { name: 'code block', content: '```py\nprint(1)\n```', context: { language: 'ja' }, expected: 'コード' },
  { name: 'emoji dropped', content: 'ありがとう🙏✨', context: { language: 'ja' }, expected: 'ありがとう' },
  {
    name: 'custom emoji between words',
    content: 'いいね<:good:5>です',
    context: { language: 'ja' },
    expected: 'いいねgoodです',
  },
  {
    name: 'markdown stripped',
    content: '## お知らせ\n**明日**は休み',
    context: { language: 'ja' },
    expected: 'お知らせ 明日は休み',
  },
  { name: 'video', content: '', context: { language: 'ja', attachments: [{ filename: 'v.mov' }] }, expected: '動画' },
  {
    name: 'audio',
    content: '聞いて',
    context: { language: 'ja', attachments: [{ filename: 'voice.ogg' }] },
    expected: '聞いて、音声ファイル',
  },
  {
    name: 'reply',
    content: 'そうだね',
    context: { language: 'ja', replyTo: 'はなこ' },
    expected: 'はなこさんへの返信、そうだね',
  },
  {
    name: 'forward',
    content: 'ニュース',
    context: { language: 'ja', forwarded: true },
    expected: '転送されたメッセージ、ニュース',
  },
  { name: 'sticker', content: '', context: { language: 'ja-JP', stickerNames: ['ねこ'] }, expected: 'スタンプ ねこ' },
  {
    name: 'timestamp as a Japanese date',
    content: '<t:1700000000:d>に集合',
    context: { language: 'ja' },
    expected: '2023年11月14日に集合',
  },
  {
    name: 'masked link label without added spaces',
    content: '詳しくは[こちら](https://example.com/x)を見て',
    context: { language: 'ja' },
    expected: '詳しくはこちらを見て',
  },
  { name: 'unknown user', content: '<@5>が来た', context: { language: 'ja' }, expected: '誰かが来た' },
  {
    name: 'long Japanese cut after a comma',
    content: 'きょうはとてもいいてんきですね、さんぽにいきましょう、こうえんまで',
    context: { language: 'ja', maxLength: 24 },
    expected: 'きょうはとてもいいてんきですね、以下略',
  },
  {
    name: 'long Japanese without punctuation cut at the limit',
    content: 'あいうえおかきくけこさしすせそたちつてと',
    context: { language: 'ja', maxLength: 10 },
    expected: 'あいうえおか、以下略',
  },
];

describe('cleanMessage', () => {
  const all = [
    ...en.map((c) => ['en', c.name, c] as const),
    ...ko.map((c) => ['ko', c.name, c] as const),
    ...ja.map((c) => ['ja', c.name, c] as const),
  ];

  it('has at least 60 cases across en, ko and ja', () => {
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(ko.length).toBeGreaterThanOrEqual(15);
    expect(ja.length).toBeGreaterThanOrEqual(15);
  });

  it.each(all)('%s: %s', (_language, _name, { content, context, expected }) => {
    expect(cleanMessage(content, { ...lookups, ...context })).toBe(expected);
  });

  it('never speaks more than the limit, "and so on" included', () => {
    const long = 'word '.repeat(200);
    for (const maxLength of [30, 50, 200]) {
      const spoken = cleanMessage(long, { maxLength });
      expect([...spoken].length).toBeLessThanOrEqual(maxLength);
      expect(spoken.endsWith(', and so on')).toBe(true);
    }
  });

  it('cuts in the unit the service bills: NFC code points (U+FB2C is three), not as written', () => {
    const spoken = cleanMessage('\ufb2c '.repeat(60), { maxLength: 50 });
    expect(countCharacters(spoken)).toBeLessThanOrEqual(50);
    expect(spoken.endsWith(', and so on')).toBe(true);
  });

  it('cuts without "and so on" when the limit is too small to hold it', () => {
    expect(cleanMessage('word '.repeat(20), { maxLength: 10 })).toBe('word word');
    expect(cleanMessage('あいうえおかきくけこ', { language: 'ja', maxLength: 5 })).toBe('あいうえお');
  });

  it('uses 200 characters by default', () => {
    const spoken = cleanMessage('abc '.repeat(100));
    expect([...spoken].length).toBeLessThanOrEqual(200);
    expect([...spoken].length).toBeGreaterThan(150);
    expect(cleanMessage('abc '.repeat(40)).endsWith('and so on')).toBe(false);
  });
});
