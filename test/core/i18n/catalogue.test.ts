import { ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyCommandModule, CommandModule, MessageMenuModule } from '../../../src/core/interactions/command.ts';
import { isMessageMenu } from '../../../src/core/interactions/router.ts';
import { loadCommandModules } from '../../../src/app/command-modules.ts';
import { featureStringsModules, loadFeatureStrings } from '../../../src/app/feature-strings.ts';
import { addMessages, messagesParts, t, type MessageKey } from '../../../src/core/i18n/catalogue.ts';
import { forAdminsByDefault } from '../../../src/core/interactions/preconditions.ts';
import type { VoiceMessageFallbackReason } from '../../../src/features/speaking/voice-message-post.ts';

/** A text's {placeholders}, a count's plural (`{count, plural, one {…} other {…}}`) named as its count. */
const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)(?:\}|, plural,|, number\})/g)].map((m) => m[1]).sort();

// Every part of the catalogue: the core's and each feature's (registered by its strings module).
await loadFeatureStrings();
const parts = [...messagesParts()];
/** Every English text of every part, by key. */
const en: Readonly<Record<string, string>> = Object.fromEntries(parts.flatMap(([, part]) => Object.entries(part.en)));

describe('the catalogue', () => {
  it('has a part for the core and for every feature, and no key in two parts', () => {
    expect(parts.map(([name]) => name).sort()).toEqual(['core', ...featureStringsModules().keys()].sort());
    const count = parts.reduce((sum, [, part]) => sum + Object.keys(part.en).length, 0);
    expect(Object.keys(en)).toHaveLength(count);
  });

  it('gives every key of every part a text in en, ko and ja, and nothing else', () => {
    // Replies and what Discord shows for the commands alike.
    expect(Object.keys(en)).toEqual(
      expect.arrayContaining(['error.internal', 'command.say', 'option.text', 'choice.output.file']),
    );
    for (const [name, part] of parts) {
      const keys = Object.keys(part.en).sort();
      for (const [language, catalogue] of Object.entries(part)) {
        expect(Object.keys(catalogue).sort(), `${name} ${language}`).toEqual(keys);
        for (const key of keys)
          expect((catalogue as Record<string, string>)[key]?.trim(), `${name} ${language} ${key}`).toBeTruthy();
      }
    }
  });

  it('uses the same {placeholders} in every language', () => {
    for (const [name, part] of parts) {
      for (const [key, text] of Object.entries(part.en)) {
        expect(placeholders(part.ko[key] ?? ''), `${name} ko ${key}`).toEqual(placeholders(text));
        expect(placeholders(part.ja[key] ?? ''), `${name} ja ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('groups a `{name, number}` count as the reader writes numbers, as /usage does, in en, ja and ko', () => {
    for (const locale of ['en-US', 'ja', 'ko']) {
      const worded = t(locale, 'quota.tooFewLeft', { left: 300_000, needed: 1_234_567, reset: '2026-12-01' });
      expect(worded, locale).toContain('300,000');
      expect(worded, locale).toContain('1,234,567');
      expect(worded, locale).not.toMatch(/300000|1234567/);
    }
  });

  it('refuses to render a key no part has, naming it', () => {
    expect(() => t('ko', 'no.such.key' as MessageKey)).toThrow(/"no\.such\.key"/);
  });

  it("words every reason postVoiceMessage falls back to a file for, with the file's facts", () => {
    const reasons: VoiceMessageFallbackReason[] = [
      'no-permission',
      'not-allowed-here',
      'too-large',
      'refused',
      'member-no-permission',
      'slowmode',
    ];
    for (const reason of reasons) {
      expect(placeholders(t('en-US', `voiceMessage.fallback.${reason}`)), reason).toEqual(
        expect.arrayContaining(['format', 'seconds', 'voice']),
      );
    }
    expect(placeholders(t('en-US', 'voiceMessage.fallback.too-large'))).toEqual(
      expect.arrayContaining(['limit', 'size']),
    );
  });
});

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every option (and subcommand) in a command definition, with the path that leads to it. */
function* optionsOf(node: Json, path: string): Generator<{ path: string; option: Json }> {
  for (const option of Array.isArray(node['options']) ? node['options'].filter(isObject) : []) {
    const here = `${path} ${String(option['name'])}`;
    yield { path: here, option };
    yield* optionsOf(option, here);
  }
}

describe('the command definitions', () => {
  let all: Map<string, AnyCommandModule>;
  let commands: Map<string, CommandModule>;
  let menus: Map<string, MessageMenuModule>;
  beforeAll(async () => {
    all = await loadCommandModules();
    commands = new Map([...all].flatMap(([name, c]) => (isMessageMenu(c) ? [] : [[name, c] as const])));
    menus = new Map([...all].flatMap(([name, c]) => (isMessageMenu(c) ? [[name, c] as const] : [])));
  });

  it('offer Speak', () => {
    expect(menus.has('Speak')).toBe(true);
  });

  it('name message menus from the catalogue (menu.<name>), with no description, in servers only', () => {
    const english = new Set(Object.values(en) as string[]);
    for (const [name, menu] of menus) {
      const json = menu.data.toJSON();
      expect(json.type, name).toBe(ApplicationCommandType.Message);
      expect(english.has(json.name), `${name}: name`).toBe(true);
      expect(Object.keys(json.name_localizations ?? {}).sort(), `${name}: name`).toEqual(['ja', 'ko']);
      expect(json, name).not.toHaveProperty('description');
      expect(json.contexts, name).toEqual([InteractionContextType.Guild]);
    }
    expect(menus.get('Speak')?.data.toJSON().name_localizations).toEqual({
      ko: t('ko', 'menu.speak'),
      ja: t('ja', 'menu.speak'),
    });
  });

  it('name and describe every command, subcommand, option and choice in ko and ja, from the catalogue', () => {
    const english = new Set(Object.values(en) as string[]);
    for (const command of commands.values()) {
      const json = command.data.toJSON() as unknown as Json;
      const nodes = [
        { path: `/${json['name'] as string}`, option: json },
        ...optionsOf(json, `/${json['name'] as string}`),
      ];
      for (const { path, option } of nodes) {
        expect(english.has(option['name'] as string), `${path}: name`).toBe(true);
        expect(english.has(option['description'] as string), `${path}: description`).toBe(true);
        expect(Object.keys(option['name_localizations'] as Json).sort(), `${path}: name`).toEqual(['ja', 'ko']);
        expect(Object.keys(option['description_localizations'] as Json).sort(), `${path}: description`).toEqual([
          'ja',
          'ko',
        ]);
        for (const choice of Array.isArray(option['choices']) ? option['choices'].filter(isObject) : []) {
          expect(english.has(choice['name'] as string), `${path}: choice ${String(choice['value'])}`).toBe(true);
        }
      }
    }
  });

  it('give an option the same localised name in every command that has it', () => {
    const seen = new Map<string, { path: string; names: unknown }>();
    for (const command of commands.values()) {
      const json = command.data.toJSON() as unknown as Json;
      for (const { path, option } of optionsOf(json, `/${json['name'] as string}`)) {
        if (option['type'] === 1) continue;
        const name = option['name'] as string;
        const first = seen.get(name);
        if (first === undefined) seen.set(name, { path, names: option['name_localizations'] });
        else expect(option['name_localizations'], `${path} and ${first.path}`).toEqual(first.names);
      }
    }
    expect(seen.get('exaggeration')).toBeDefined();
  });

  it('show a command or menu to Manage Server members by default exactly when its requirements say so', () => {
    const admins: string[] = [];
    for (const [name, command] of all) {
      const shown = command.data.toJSON().default_member_permissions;
      expect(shown ?? null, `/${name}`).toBe(
        forAdminsByDefault(command.requires) ? PermissionFlagsBits.ManageGuild.toString() : null,
      );
      if (shown) admins.push(name);
    }
    expect(admins.sort()).toEqual(['autoread', 'budget', 'clone']);
  });

  it('declare preconditions only for subcommands that exist', () => {
    for (const [name, command] of commands) {
      const subcommands = (command.data.toJSON().options ?? []).filter((o) => o.type === 1).map((o) => o.name);
      for (const sub of Object.keys(command.requires?.subcommands ?? {}))
        expect(subcommands, `/${name} ${sub}`).toContain(sub);
    }
  });
});

// A part of this test's own: a count's words in each language, as the dashboard's and the replies' texts write them.
// Registered after the catalogue's parts are read above, so that those hold only the app's.
addMessages('translate-test', {
  en: {
    'test.hits':
      'Since it started: {hits, plural, one {# hit} other {# hits}}, {misses, plural, one {# miss} other {# misses}}.',
    'test.entries': '{count, plural, =0 {No entries} one {# entry} other {# entries}} (at most {max})',
  },
  ko: { 'test.hits': '시작 이후: 적중 {hits}, 실패 {misses}.', 'test.entries': '항목 {count}개 (최대 {max}개)' },
  ja: { 'test.hits': '起動以来: ヒット {hits}、ミス {misses}。', 'test.entries': '{count} 件 (最大 {max} 件)' },
});
const key = (name: string) => name as MessageKey;

describe('t: a count in words', () => {
  it('picks the branch Intl.PluralRules gives the count in English: one, other, an exact =N first', () => {
    expect(t('en-US', key('test.hits'), { hits: 1, misses: 2 })).toBe('Since it started: 1 hit, 2 misses.');
    expect(t('en-US', key('test.hits'), { hits: 0, misses: 1 })).toBe('Since it started: 0 hits, 1 miss.');
    expect(t('en-US', key('test.entries'), { count: 0, max: 500 })).toBe('No entries (at most 500)');
    expect(t('en-US', key('test.entries'), { count: 1, max: 500 })).toBe('1 entry (at most 500)');
  });

  it('writes the count as the reader writes numbers, and takes a count already written so', () => {
    expect(t('en-US', key('test.entries'), { count: 1234, max: 500 })).toBe('1,234 entries (at most 500)');
    expect(t('en-US', key('test.hits'), { hits: '1', misses: '12,345' })).toBe(
      'Since it started: 1 hit, 12,345 misses.',
    );
  });

  it('leaves Korean and Japanese, one form for every count, as they are written', () => {
    expect(t('ko', key('test.entries'), { count: 1, max: 500 })).toBe('항목 1개 (최대 500개)');
    expect(t('ja', key('test.hits'), { hits: 1, misses: 1 })).toBe('起動以来: ヒット 1、ミス 1。');
  });

  it('puts a written value in as it is: no replacement pattern read in it', () => {
    expect(t('en-US', key('test.entries'), { count: "$'1$&", max: 500 })).toBe("$'1$& entry (at most 500)");
  });
});

// Issue 95: "1 lines, 1 speakers" under a one-line scene, "You today: 1 characters". The counts a member meets at 1.
describe('en: a count a member meets at 1 takes the singular, and the plural past it', () => {
  const AT: Array<[MessageKey, Record<string, number | string>, string, string]> = [
    [
      'scene.preview',
      { lines: 1, speakers: 1, seconds: 2, where: '', cast: '', cost: '', budgets: '' },
      '1 line, 1 speaker,',
      '2 lines, 2 speakers,',
    ],
    [
      'scene.cost.paid',
      { characters: 1, cached: 0, lines: 1 },
      '**1** character to pay; 0 of 1 line already',
      '**2** characters to pay; 0 of 2 lines already',
    ],
    ['scene.budget.plan', { left: 1 }, 'leaves 1 character this', 'leaves 2 characters this'],
    ['scene.button.confirm', { characters: 1 }, 'Play it (1 character)', 'Play it (2 characters)'],
    ['scene.saved', { name: 'Tale', lines: 1 }, '(1 line).', '(2 lines).'],
    ['scene.replaced', { name: 'Tale', lines: 1 }, '(1 line).', '(2 lines).'],
    ['scene.header', { member: '<@1>', speakers: 1, seconds: 2 }, 'scene: 1 voice,', 'scene: 2 voices,'],
    ['scene.voiceLabel', { speakers: 1 }, 'the scene in 1 voice', 'the scene in 2 voices'],
    [
      'usage.guild',
      { spent: '1', saved: '0', budget: '' },
      'This server: 1 character spent',
      'This server: 2 characters spent',
    ],
    ['usage.member', { spent: '1', budget: '' }, 'You today: 1 character;', 'You today: 2 characters;'],
    [
      'outcome.failedAfterPaying',
      { paid: 1, detail: '' },
      '1 character for this, which is',
      '2 characters for this, which are',
    ],
    ['outcome.failedMaybePaid', { unconfirmed: 1, detail: '' }, 'its 1 character:', 'its 2 characters:'],
    ...(
      ['quota', 'tooFewLeft', 'budget', 'keyRefused', 'planRefused', 'failing', 'voiceDeleted', 'refused'] as const
    ).map((why): (typeof AT)[number] => [
      `error.paidPartWay.${why}`,
      { paid: 1, left: 1, needed: 5, reset: '', status: 500, voice: 'v' },
      'its 1 character, which is spent',
      'its 2 characters, which are spent',
    ]),
    [
      'error.paidPartWay.tooFewLeft',
      { paid: 5, left: 1, needed: 5, reset: '' },
      'only 1 character left',
      'only 2 characters left',
    ],
    ['error.renderStopped.paid', { paid: 1 }, 'its 1 character, which is spent', 'its 2 characters, which are spent'],
    [
      'error.renderStopped.closed',
      { unconfirmed: 1 },
      'its 1 character, so it is counted',
      'its 2 characters, so they are counted',
    ],
    [
      'error.renderStopped.paidClosed',
      { paid: 1, unconfirmed: 1 },
      'its 1 character, which is spent. The part it was making then was closed before it answered, but it may have counted its 1 character, so it is',
      'its 2 characters, which are spent. The part it was making then was closed before it answered, but it may have counted its 2 characters, so they are',
    ],
    [
      'error.maybePaid.voiceDeleted',
      { voice: 'v', unconfirmed: 1 },
      'its 1 character, which is counted',
      'its 2 characters, which are counted',
    ],
    [
      'error.api.undelivered.paid',
      { paid: 1 },
      '1 character for it, which is spent',
      '2 characters for it, which are spent',
    ],
    ['quota.tooFewLeft', { left: 1, needed: 5, reset: '' }, 'only 1 character left', 'only 2 characters left'],
    [
      'quota.tooFewLeftSaid',
      { at: '', left: 1, needed: 5, reset: '' },
      'only 1 character left',
      'only 2 characters left',
    ],
    ['voice.fallbackAfterPaid', { voice: 'v', paid: 1, reason: '' }, 'after 1 character in', 'after 2 characters in'],
    ...(['privacy.deleted', 'privacy.outside.deleted'] as const).map((k): (typeof AT)[number] => [
      k,
      { deleted: 1, anonymised: 1 },
      '1 record removed, 1 record no longer names you',
      '2 records removed, 2 records no longer name you',
    ]),
    [
      'privacy.server.deleted',
      { deleted: 1, anonymised: 1, voices: 1 },
      '1 record removed, 1 spend record anonymised, 1 cloned voice deleted',
      '2 records removed, 2 spend records anonymised, 2 cloned voices deleted',
    ],
    ['privacy.server.confirm', { minutes: 1, code: 'c' }, 'within 1 minute,', 'within 2 minutes,'],
  ];
  const twice = (params: Record<string, number | string>) =>
    Object.fromEntries(Object.entries(params).map(([name, v]) => [name, v === 1 || v === '1' ? 2 : v]));
  /** `words` as written, not followed by a letter: "1 voice" is not found in "1 voices". */
  const whole = (words: string) => new RegExp(`${words.replace(/[.*+?()[\]\\]/g, '\\$&')}(?![a-z])`);
  it.each(AT)('%s', (k, params, one, two) => {
    expect(t('en-US', k, params)).toMatch(whole(one));
    expect(t('en-US', k, twice(params))).toMatch(whole(two));
  });
});
