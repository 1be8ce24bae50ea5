// /dictionary end to end: the real bot against the local Discord (its CDN serves the import file) and the store;
// auto-read reads with it, and the sandbox Voice API shows the text it was sent.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness } from '../support/harness.ts';
import {
  ALICE as ADMIN,
  BOB as MEMBER,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';
import { postChat, spoken } from '../support/chat.ts';
import {
  GROWTH_ALLOWANCE,
  MAX_GROWTH_FACTOR,
  resultLimit,
} from '../../src/features/autoread/dictionary/dictionary-limits.ts';
import { withName } from '../../src/features/autoread/reading/spoken.ts';

const openHarness = useHarnessPerTest();

async function start(): Promise<Harness> {
  const harness = await openHarness({
    guilds: [
      londonWith([
        {
          id: ADMIN,
          username: 'alice',
          locale: 'en-US',
          permissions: PermissionFlagsBits.ManageGuild,
          voiceChannelId: VOICE,
        },
        { id: MEMBER, username: 'bob', locale: 'ja' },
      ]),
    ],
  });
  return harness;
}

const dictionary = (
  h: Harness,
  userId: string,
  subcommand: string,
  options: Record<string, string | number | { type: number; value: string }> = {},
) => runCommand(h, { guildId: GUILD, userId, name: 'dictionary', subcommand, options, locale: 'en-US' });

/** Hosts `json` on the local Discord's CDN and imports it as the `file` option. */
function importFile(h: Harness, json: string, filename = 'dictionary.json') {
  const attachment = h.discord.hostAttachment(Buffer.from(json), filename, 'application/json');
  return dictionary(h, ADMIN, 'import', { file: { type: 11, value: attachment.id } });
}

describe('/dictionary', () => {
  it('adds, replaces, lists, exports, removes and imports back', async () => {
    const h = await start();
    expect((await dictionary(h, ADMIN, 'list')).content).toBe(t('en-US', 'dictionary.empty'));
    expect((await dictionary(h, ADMIN, 'add', { word: 'SayBot', reading: 'say bot' })).content).toBe(
      'Added "SayBot": read as "say bot".',
    );
    expect((await dictionary(h, ADMIN, 'add', { word: 'saybot', reading: 'sei bot' })).content).toBe(
      '"saybot" is now read as "sei bot".',
    );
    expect((await dictionary(h, ADMIN, 'add', { word: '東京', reading: 'とうきょう' })).content).toContain('東京');
    expect((await dictionary(h, ADMIN, 'list')).content).toBe(
      'Dictionary (2 in all):\n1. saybot → sei bot\n2. 東京 → とうきょう',
    );

    const exported = await dictionary(h, MEMBER, 'export');
    expect(exported.content).toBe('The dictionary is attached (2 in all).');
    const file = exported.handle.responses.flatMap((r) => r.files).find((f) => f.name === 'dictionary.json');
    expect(file).toBeDefined();
    const json = file?.data.toString('utf8') ?? '';
    expect(JSON.parse(json)).toEqual({
      version: 1,
      entries: [
        { word: 'saybot', reading: 'sei bot' },
        { word: '東京', reading: 'とうきょう' },
      ],
    });

    expect((await dictionary(h, ADMIN, 'remove', { word: 'SAYBOT' })).content).toBe('Removed "saybot".');
    expect((await dictionary(h, ADMIN, 'remove', { word: 'nothing' })).content).toBe(
      '"nothing" is not in the dictionary.',
    );
    expect((await dictionary(h, ADMIN, 'list')).content).toBe('Dictionary (1 in all):\n1. 東京 → とうきょう');

    expect((await importFile(h, json)).content).toBe(
      'Imported the file (2 in all): the dictionary holds exactly these now.',
    );
    expect((await dictionary(h, ADMIN, 'list')).content).toBe(
      'Dictionary (2 in all):\n1. saybot → sei bot\n2. 東京 → とうきょう',
    );
  });

  it('refuses a bad import naming the first bad entry, and changes nothing', async () => {
    const h = await start();
    await dictionary(h, ADMIN, 'add', { word: 'kept', reading: 'still here' });
    const bad = JSON.stringify({
      version: 1,
      entries: [
        { word: 'fine', reading: 'ok' },
        { word: ' ', reading: 'x' },
        { word: 'also', reading: '' },
      ],
    });
    expect((await importFile(h, bad)).content).toBe('Nothing was changed: entry 2: the word is empty.');
    const twice = JSON.stringify({
      version: 1,
      entries: [
        { word: 'a', reading: 'x' },
        { word: 'A', reading: 'y' },
      ],
    });
    expect((await importFile(h, twice)).content).toBe('Nothing was changed: entry 2 repeats "A" (entry 1).');
    const tooMany = JSON.stringify({
      version: 1,
      entries: Array.from({ length: 501 }, (_, i) => ({ word: `w${i}`, reading: 'r' })),
    });
    expect((await importFile(h, tooMany)).content).toBe(
      'Nothing was changed: the file has 501 entries; at most 500 are allowed.',
    );
    expect((await importFile(h, 'not json at all')).content).toBe('Nothing was changed: the file is not JSON.');
    expect((await importFile(h, '{}', 'words.txt')).content).toBe(t('en-US', 'dictionary.import.notJsonFile'));
    expect((await dictionary(h, ADMIN, 'list')).content).toBe('Dictionary (1 in all):\n1. kept → still here');
  });

  it('refuses changes by a member without Manage Server, by the declared precondition, and lets them list', async () => {
    const h = await start();
    const refused = await runCommand(h, {
      guildId: GUILD,
      userId: MEMBER,
      name: 'dictionary',
      subcommand: 'add',
      options: { word: 'a', reading: 'b' },
    });
    expect(refused.content).toBe(t('ja', 'dictionary.permission'));
    expect((await dictionary(h, MEMBER, 'list')).content).toBe(t('en-US', 'dictionary.empty'));
  });

  it("declares the rules' limits, so Discord stops a longer word or reading; one at the limit is added", async () => {
    const h = await start();
    await expect(dictionary(h, ADMIN, 'add', { word: 'x'.repeat(51), reading: 'y' })).rejects.toThrow(
      /add\.word: at most 50 characters/,
    );
    await expect(dictionary(h, ADMIN, 'add', { word: 'x', reading: 'y'.repeat(101) })).rejects.toThrow(
      /add\.reading: at most 100 characters/,
    );
    expect((await dictionary(h, ADMIN, 'add', { word: 'x'.repeat(50), reading: 'y'.repeat(100) })).content).toContain(
      'x'.repeat(50),
    );
  });
});

describe('/dictionary patterns', () => {
  /** Posts `content` as alice in the read channel and returns what the Voice API was sent for it, once heard. */
  async function read(h: Harness, content: string): Promise<string[]> {
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    expect(await postChat(h, { guildId: GUILD, channelId: TEXT }, { id: ADMIN, username: 'alice' }, content)).toBe(
      true,
    );
    await h.discord.waitForAudio(GUILD, { minSeconds: 0.3, quietMs: 400 });
    return spoken(h, from);
  }

  it('reads a pattern entry in its place in the order, and /dictionary move changes what is read', async () => {
    const h = await start();
    expect(
      (await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'autoread', subcommand: 'start' })).content,
    ).toContain('Reading');
    expect((await dictionary(h, ADMIN, 'add', { word: 'SayBot', reading: 'say bot' })).content).toBe(
      'Added "SayBot": read as "say bot".',
    );
    expect(
      (await dictionary(h, ADMIN, 'add', { pattern: 'say bot v(\\d+)', reading: 'version $1 of the bot' })).content,
    ).toBe(
      'Added pattern `say bot v(\\d+)`: what it matches is read as "version $1 of the bot". Entries apply from the top of /dictionary list; it is last.',
    );
    expect((await dictionary(h, ADMIN, 'list')).content).toBe(
      'Dictionary (2 in all):\n1. SayBot → say bot\n2. pattern `say bot v(\\d+)` → version $1 of the bot',
    );
    // Below the word, the pattern sees the word's reading.
    expect(await read(h, 'SayBot v2')).toEqual(['alice said, version 2 of the bot']);

    expect((await dictionary(h, ADMIN, 'move', { pattern: 'say bot v(\\d+)', position: 1 })).content).toBe(
      'pattern `say bot v(\\d+)` is now number 1 of 2. Entries apply from the top.',
    );
    // Above it, the pattern sees the message as written: no match, and the word alone applies.
    expect(await read(h, 'SayBot v3')).toEqual([expect.stringMatching(/^(alice said, )?say bot v3$/)]);
  });

  it('keeps "hi" cheap whatever the entries say, and says when an entry\'s reading would be cut', async () => {
    const h = await start();
    await runCommand(h, { guildId: GUILD, userId: ADMIN, name: 'autoread', subcommand: 'start' });
    // Each character said fifty times, then each character read as a hundred: without a cap, thousands of characters.
    const fifty = await dictionary(h, ADMIN, 'add', { pattern: '.', reading: '$&'.repeat(50) });
    const cut = t('en-US', 'dictionary.readingCut', { factor: MAX_GROWTH_FACTOR, allowance: GROWTH_ALLOWANCE });
    expect(fifty.content).toMatch(/^Added pattern `\.`/);
    expect(fifty.content).toContain(cut);
    expect((await dictionary(h, ADMIN, 'add', { pattern: '(?:.)', reading: 'r'.repeat(100) })).content).toContain(cut);
    expect((await dictionary(h, ADMIN, 'add', { word: 'gg', reading: 'good game' })).content).toBe(
      'Added "gg": read as "good game".',
    );

    const from = h.sandbox.requests.length;
    const [said] = await read(h, 'hi');
    const billed = h.sandbox.requests
      .slice(from)
      .filter((r) => r.endpoint === 'tts')
      .reduce((sum, r) => sum + r.charactersBilled, 0);
    expect(billed).toBe([...(said ?? '')].length);
    // The name goes through the dictionary too: each within its own cap, with the words around them.
    const frame = [...withName('', '', 'en-US')].length;
    expect(billed).toBeGreaterThan(frame);
    expect(billed).toBeLessThanOrEqual(resultLimit([...'alice'].length) + resultLimit([...'hi'].length) + frame);
  });

  it("refuses a pattern RE2 cannot run, with the reason in the member's language, and changes nothing", async () => {
    const h = await start();
    expect((await dictionary(h, ADMIN, 'add', { pattern: '(a)\\1', reading: 'x' })).content).toBe(
      'Nothing was changed: the pattern cannot be used: back-references such as `\\1` are not supported: patterns run on RE2, which never backtracks.',
    );
    const inJapanese = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'dictionary',
      subcommand: 'add',
      options: { pattern: 'a(?=b)', reading: 'x' },
      locale: 'ja',
    });
    expect(inJapanese.content).toBe(
      t('ja', 'dictionary.refused', {
        problem: t('ja', 'dictionary.problem.badPattern', {
          syntax: t('ja', 'dictionary.pattern.lookAround', { part: '`(?=`' }),
        }),
      }),
    );
    const inKorean = await runCommand(h, {
      guildId: GUILD,
      userId: ADMIN,
      name: 'dictionary',
      subcommand: 'add',
      options: { pattern: '(a', reading: 'x' },
      locale: 'ko',
    });
    expect(inKorean.content).toBe('아무것도 바꾸지 않았습니다: 이 패턴은 쓸 수 없습니다: (가 닫히지 않았습니다.');
    expect((await dictionary(h, ADMIN, 'add', { pattern: '(a)', reading: '$2' })).content).toMatch(
      /^Nothing was changed: the reading uses `\$2`, a group the pattern does not have/,
    );
    expect((await dictionary(h, ADMIN, 'add', { word: 'a', pattern: 'b', reading: 'x' })).content).toBe(
      t('en-US', 'dictionary.wordOrPattern'),
    );
    expect((await dictionary(h, ADMIN, 'list')).content).toBe(t('en-US', 'dictionary.empty'));
  });

  it('exports and imports back words and patterns in their order', async () => {
    const h = await start();
    await dictionary(h, ADMIN, 'add', { pattern: '(\\d+)km', reading: '$1 kilometres' });
    await dictionary(h, ADMIN, 'add', { word: 'SayBot', reading: 'say bot' });
    await dictionary(h, ADMIN, 'add', { pattern: '(?i)lol', reading: 'laugh' });
    await dictionary(h, ADMIN, 'move', { word: 'saybot', position: 1 });
    const entries = [
      { word: 'SayBot', reading: 'say bot' },
      { pattern: '(\\d+)km', reading: '$1 kilometres' },
      { pattern: '(?i)lol', reading: 'laugh' },
    ];
    const exported = await dictionary(h, MEMBER, 'export');
    const json =
      exported.handle.responses
        .flatMap((r) => r.files)
        .find((f) => f.name === 'dictionary.json')
        ?.data.toString('utf8') ?? '';
    expect(JSON.parse(json)).toEqual({ version: 1, entries });

    await dictionary(h, ADMIN, 'remove', { pattern: '(?i)lol' });
    await dictionary(h, ADMIN, 'move', { word: 'SayBot', position: 2 });
    expect((await importFile(h, json)).content).toBe(
      'Imported the file (3 in all): the dictionary holds exactly these now.',
    );
    const again = await dictionary(h, MEMBER, 'export');
    expect(
      again.handle.responses
        .flatMap((r) => r.files)
        .find((f) => f.name === 'dictionary.json')
        ?.data.toString('utf8'),
    ).toBe(json);
  });
});
