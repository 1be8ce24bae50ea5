// /dictionary end to end: the real bot against the local Discord (its CDN serves the import file) and the store.
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { t } from '../../src/bot/i18n.ts';
import { runCommand, startHarness, type Harness } from '../support/harness.ts';

const GUILD = '200000000000000002';
const ADMIN = '300000000000000011';
const MEMBER = '300000000000000012';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(): Promise<Harness> {
  harness = await startHarness({
    guilds: [{
      id: GUILD, name: 'London', preferredLocale: 'en-US', textChannelId: '210000000000000002',
      voiceChannels: [{ id: '220000000000000003', name: 'general' }],
      members: [
        { id: ADMIN, username: 'alice', locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
        { id: MEMBER, username: 'bob', locale: 'ja' },
      ],
    }],
  });
  return harness;
}

const dictionary = (h: Harness, userId: string, subcommand: string, options: Record<string, string | { type: number; value: string }> = {}) =>
  runCommand(h, { guildId: GUILD, userId, name: 'dictionary', subcommand, options, locale: 'en-US' });

/** Hosts `json` on the local Discord's CDN and imports it as the `file` option. */
function importFile(h: Harness, json: string, filename = 'dictionary.json') {
  const attachment = h.discord.hostAttachment(Buffer.from(json), filename, 'application/json');
  return dictionary(h, ADMIN, 'import', { file: { type: 11, value: attachment.id } });
}

describe('/dictionary', () => {
  it('adds, replaces, lists, exports, removes and imports back', async () => {
    const h = await start();
    expect((await dictionary(h, ADMIN, 'list')).content).toBe(t('en-US', 'dictionary.empty'));
    expect((await dictionary(h, ADMIN, 'add', { word: 'SayBot', reading: 'say bot' })).content).toBe('Added "SayBot": read as "say bot".');
    expect((await dictionary(h, ADMIN, 'add', { word: 'saybot', reading: 'sei bot' })).content).toBe('"saybot" is now read as "sei bot".');
    expect((await dictionary(h, ADMIN, 'add', { word: '東京', reading: 'とうきょう' })).content).toContain('東京');
    expect((await dictionary(h, ADMIN, 'list')).content).toBe('Dictionary (2 in all):\n• saybot → sei bot\n• 東京 → とうきょう');

    const exported = await dictionary(h, MEMBER, 'export');
    expect(exported.content).toBe('The dictionary is attached (2 in all).');
    const file = exported.handle.responses.flatMap((r) => r.files).find((f) => f.name === 'dictionary.json');
    expect(file).toBeDefined();
    const json = file?.data.toString('utf8') ?? '';
    expect(JSON.parse(json)).toEqual({ version: 1, entries: [{ word: 'saybot', reading: 'sei bot' }, { word: '東京', reading: 'とうきょう' }] });

    expect((await dictionary(h, ADMIN, 'remove', { word: 'SAYBOT' })).content).toBe('Removed "saybot".');
    expect((await dictionary(h, ADMIN, 'remove', { word: 'nothing' })).content).toBe('"nothing" is not in the dictionary.');
    expect((await dictionary(h, ADMIN, 'list')).content).toBe('Dictionary (1 in all):\n• 東京 → とうきょう');

    expect((await importFile(h, json)).content).toBe('Imported the file (2 in all): the dictionary holds exactly these now.');
    expect((await dictionary(h, ADMIN, 'list')).content).toBe('Dictionary (2 in all):\n• saybot → sei bot\n• 東京 → とうきょう');
  });

  it('refuses a bad import naming the first bad entry, and changes nothing', async () => {
    const h = await start();
    await dictionary(h, ADMIN, 'add', { word: 'kept', reading: 'still here' });
    const bad = JSON.stringify({ version: 1, entries: [{ word: 'fine', reading: 'ok' }, { word: ' ', reading: 'x' }, { word: 'also', reading: '' }] });
    expect((await importFile(h, bad)).content).toBe('Nothing was changed: entry 2: the word is empty.');
    const twice = JSON.stringify({ version: 1, entries: [{ word: 'a', reading: 'x' }, { word: 'A', reading: 'y' }] });
    expect((await importFile(h, twice)).content).toBe('Nothing was changed: entry 2 repeats "A" (entry 1).');
    const tooMany = JSON.stringify({ version: 1, entries: Array.from({ length: 501 }, (_, i) => ({ word: `w${i}`, reading: 'r' })) });
    expect((await importFile(h, tooMany)).content).toBe('Nothing was changed: the file has 501 entries; at most 500 are allowed.');
    expect((await importFile(h, 'not json at all')).content).toBe('Nothing was changed: the file is not JSON.');
    expect((await importFile(h, '{}', 'words.txt')).content).toBe(t('en-US', 'dictionary.import.notJsonFile'));
    expect((await dictionary(h, ADMIN, 'list')).content).toBe('Dictionary (1 in all):\n• kept → still here');
  });

  it('refuses changes by a member without Manage Server, by the declared precondition, and lets them list', async () => {
    const h = await start();
    const refused = await runCommand(h, { guildId: GUILD, userId: MEMBER, name: 'dictionary', subcommand: 'add', options: { word: 'a', reading: 'b' } });
    expect(refused.content).toBe(t('ja', 'dictionary.permission'));
    expect((await dictionary(h, MEMBER, 'list')).content).toBe(t('en-US', 'dictionary.empty'));
  });

  it('answers a word the rules refuse with the rule', async () => {
    const h = await start();
    expect((await dictionary(h, ADMIN, 'add', { word: 'x'.repeat(51), reading: 'y' })).content)
      .toBe('Nothing was changed: the word is longer than 50 characters.');
  });
});
