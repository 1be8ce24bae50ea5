// The auto-read settings' declarations against what is derived from them: the database's columns, the
// /autoread settings options, the store's row mapping, the printed settings.
import { DatabaseSync } from 'node:sqlite';
import type { ChatInputCommandInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { data } from '../../../commands/autoread.ts';
import {
  AUTO_READ_DEFAULTS,
  AUTO_READ_SETTING_LIST,
  AUTO_READ_SETTINGS,
  type AutoReadSettings,
} from '../../../src/features/autoread/setting-declarations.ts';
import { describeSettings, settingChangesOf } from '../../../src/features/autoread/autoread-settings.ts';
import { UserError } from '../../../src/core/interactions/failures.ts';
import { SPEECH_SETTINGS } from '../../../src/core/settings/setting-declarations.ts';
import { t } from '../../../src/core/i18n/catalogue.ts';
import { migrate } from '../../../src/core/store/migrations.ts';
import { SCHEMA } from '../../../src/app/store.ts';
import { rowOfChanges, settingsOfRow } from '../../../src/features/autoread/store/auto-read-area.ts';

/** The auto_read columns of a freshly migrated SQLite database. */
function autoReadColumns(): string[] {
  const db = new DatabaseSync(':memory:');
  migrate(db, SCHEMA);
  const columns = db
    .prepare('PRAGMA table_info(auto_read)')
    .all()
    .map((row) => String(row['name']));
  db.close();
  return columns;
}

interface DefinitionPart {
  name: string;
  description?: string;
  value?: unknown;
  name_localizations?: Partial<Record<string, string | null>> | null;
  description_localizations?: Partial<Record<string, string | null>> | null;
  options?: readonly DefinitionPart[];
  choices?: readonly DefinitionPart[];
}

/** What Discord counts against a command's 8000 characters, in one language: names, descriptions, choice values. */
function definitionCharacters(part: DefinitionPart, locale: 'en-US' | 'ko' | 'ja'): number {
  const name = (locale === 'en-US' ? undefined : part.name_localizations?.[locale]) ?? part.name;
  const description =
    (locale === 'en-US' ? undefined : part.description_localizations?.[locale]) ?? part.description ?? '';
  const value = typeof part.value === 'string' ? part.value.length : 0;
  const inner = [...(part.options ?? []), ...(part.choices ?? [])].reduce(
    (sum, child) => sum + definitionCharacters(child, locale),
    0,
  );
  return name.length + description.length + value + inner;
}

/** Every setting away from its default (a role and a prefix set). */
const CHANGED: AutoReadSettings = {
  sayAuthorName: false,
  maxLength: 999,
  readBots: true,
  requiredRoleId: '500000000000000001',
  onlyMembersInVoice: false,
  announceJoinLeave: true,
  skipPrefix: '//',
  readSilent: false,
  autojoin: true,
  fasterAfter: 0,
  maxSpeed: 2,
  skipAfter: 100,
  voices: 'distinct',
  readAttachments: false,
  freeVoice: true,
};

describe('auto-read setting declarations', () => {
  it('give every setting a column the migrations build, each its own', () => {
    const declared = AUTO_READ_SETTING_LIST.map(([, d]) => d.column);
    expect(new Set(declared).size).toBe(declared.length);
    const built = autoReadColumns();
    expect(declared.filter((column) => !built.includes(column))).toEqual([]);
  });

  it('name each column after its setting (snake_case), so a setting has one spelling in code and one option name', () => {
    const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    expect(AUTO_READ_SETTING_LIST.filter(([name, d]) => d.column !== snake(name))).toEqual([]);
  });

  it('keep each default inside its range, and among its values', () => {
    for (const [name, declared] of AUTO_READ_SETTING_LIST) {
      if (declared.kind === 'integer' || declared.kind === 'number') {
        expect(declared.default, name).toBeGreaterThanOrEqual(declared.range.min);
        expect(declared.default, name).toBeLessThanOrEqual(declared.range.max);
      }
      if (declared.kind === 'choice') expect(declared.values, name).toContain(declared.default);
    }
    expect(AUTO_READ_SETTINGS.voices.values).toContain(CHANGED.voices);
  });

  it("offer one /autoread settings option per setting, in declaration order, within Discord's 25 options", () => {
    const json = data.toJSON();
    const settingsSubcommand = json.options?.find((option) => option.name === 'settings');
    const options = settingsSubcommand && 'options' in settingsSubcommand ? (settingsSubcommand.options ?? []) : [];
    expect(options.map((option) => option.name)).toEqual(
      AUTO_READ_SETTING_LIST.map(([, d]) => t('en-US', `option.${d.option}`)),
    );
    expect(options.length).toBeLessThanOrEqual(25);
    // Discord refuses a command whose names, descriptions and choice values pass 8000 characters (per language).
    for (const locale of ['en-US', 'ko', 'ja'] as const)
      expect(definitionCharacters(json, locale), locale).toBeLessThan(8000);
  });

  it('round-trip every setting through its column, and an empty row is the defaults', () => {
    expect(settingsOfRow(undefined)).toEqual(AUTO_READ_DEFAULTS);
    expect(settingsOfRow(rowOfChanges(CHANGED))).toEqual(CHANGED);
    expect(settingsOfRow(rowOfChanges(AUTO_READ_DEFAULTS))).toEqual(AUTO_READ_DEFAULTS);
    // null puts a setting back to its default: a NULL column.
    const cleared = rowOfChanges({ readAttachments: null, requiredRoleId: null, maxLength: undefined });
    expect(cleared).toEqual({ read_attachments: null, required_role_id: null });
    expect(settingsOfRow({ ...rowOfChanges(CHANGED), ...cleared })).toEqual({
      ...CHANGED,
      readAttachments: true,
      requiredRoleId: undefined,
    });
  });

  it("print each setting once, the backlog's three in one clause", () => {
    expect(describeSettings('en-US', AUTO_READ_DEFAULTS)).toBe(
      "say the author's name: on; longest message: 200 characters; read bots and webhooks: off; required role: none; " +
        'only members in voice: on; announce joins and leaves: off; skip messages starting with: none; read @silent messages: on; ' +
        'join when a member joins: off; faster past 3 waiting (up to 1.5×), skip to the newest past 10; voices: one for everyone; say files: on; free voice: off',
    );
    const changed = describeSettings('en-US', CHANGED);
    expect(changed).toContain('required role: <@&500000000000000001>');
    expect(changed).toContain('skip messages starting with: `//`');
    expect(changed).toContain('faster past off waiting (up to 2×), skip to the newest past 100');
    expect(changed).toContain('voices: a voice of the pool per member');
    expect(changed).toContain('say files: off');
  });
});

const GUILD = '200000000000000001';

/** An interaction carrying these option values, as discord.js reads them (a role by its ID). */
function interactionWith(values: Record<string, boolean | number | string>): ChatInputCommandInteraction<'cached'> {
  const get = (name: string) => values[name] ?? null;
  const options = {
    getBoolean: get,
    getInteger: get,
    getNumber: get,
    getString: get,
    getRole: (name: string) => (values[name] === undefined ? null : { id: values[name] }),
  };
  return { guildId: GUILD, options } as unknown as ChatInputCommandInteraction<'cached'>;
}

/** The refusal's message key and parameters, or 'accepted'. */
function refusalOf(values: Record<string, boolean | number | string>): unknown {
  try {
    settingChangesOf(interactionWith(values));
    return 'accepted';
  } catch (error) {
    return error instanceof UserError ? error.userMessage : error;
  }
}

describe('/autoread settings options read into changes', () => {
  it('turns each given option into its setting, leaves the others out', () => {
    expect(settingChangesOf(interactionWith({}))).toEqual({});
    expect(
      settingChangesOf(
        interactionWith({
          say_name: false,
          max_length: 20,
          role: '500000000000000001',
          skip_prefix: ' !! ',
          faster_after: 0,
          max_speed: 2,
          voices: 'distinct',
          read_attachments: false,
        }),
      ),
    ).toEqual({
      sayAuthorName: false,
      maxLength: 20,
      requiredRoleId: '500000000000000001',
      skipPrefix: '!!',
      fasterAfter: 0,
      maxSpeed: 2,
      voices: 'distinct',
      readAttachments: false,
    });
  });

  it("rounds max_speed to the 0.05 grid as /say's speed is rounded (a render and cache entry per step, no more)", () => {
    for (const given of [1.37, 1.024, 1.976, 1.5, 1.125]) {
      const { maxSpeed } = settingChangesOf(interactionWith({ max_speed: given })) as { maxSpeed: number };
      expect(maxSpeed).toBe(SPEECH_SETTINGS.speed.step(given));
      expect(Math.round(maxSpeed * 100) % 5).toBe(0);
    }
    expect(settingChangesOf(interactionWith({ max_speed: 1.37 }))).toEqual({ maxSpeed: 1.35 });
  });

  it('puts the role back to none with @everyone, and the prefix with "none" in any case', () => {
    expect(settingChangesOf(interactionWith({ role: GUILD, skip_prefix: 'NONE' }))).toEqual({
      requiredRoleId: null,
      skipPrefix: null,
    });
  });

  it('refuses a crafted value outside a range, a bad prefix or an unknown choice, with the message naming the range', () => {
    expect(refusalOf({ max_length: 19 })).toEqual({ key: 'autoread.maxLengthRange', params: { min: 20, max: 1000 } });
    expect(refusalOf({ max_length: 1001 })).toEqual({ key: 'autoread.maxLengthRange', params: { min: 20, max: 1000 } });
    expect(refusalOf({ faster_after: 101 })).toEqual({ key: 'autoread.backlogRange', params: { min: 0, max: 100 } });
    expect(refusalOf({ skip_after: -1 })).toEqual({ key: 'autoread.backlogRange', params: { min: 0, max: 100 } });
    expect(refusalOf({ max_speed: 2.5 })).toEqual({ key: 'autoread.backlogRange', params: { min: 0, max: 100 } });
    expect(refusalOf({ skip_prefix: '<@1>' })).toEqual({ key: 'autoread.skipPrefixBad', params: {} });
    expect(refusalOf({ voices: 'many' })).toEqual({ key: 'autoread.voicesBad', params: {} });
    // The first refused option, in the order the command lists them, is the one answered.
    expect(refusalOf({ max_length: 5, voices: 'many' })).toEqual({
      key: 'autoread.maxLengthRange',
      params: { min: 20, max: 1000 },
    });
    expect(refusalOf({ max_speed: 1, max_length: 1000 })).toBe('accepted');
  });
});
