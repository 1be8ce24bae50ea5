// Auto-read's settings, each declared once: its value's type, default, range, store column, /autoread settings
// option and the clause /autoread settings and show print it in. Everything else is derived from here: the store's
// row mapping (src/features/autoread/store/auto-read-area.ts) and column types
// (src/features/autoread/store/store-areas.ts), and the command's options, their parsing and refusals and the printed
// settings (src/features/autoread/autoread-settings.ts). A new setting is its field in AutoReadSettings, its
// declaration, a migration step adding its column, its strings and its behaviour.
// Its clauses and refusals are auto-read's keys, registered by its strings module: loaded here, wherever they are
// shown.
import { quantiseSpeed } from '../../../core/audio/effects/audible-steps.ts';
import '../strings.ts';
import type { MessageKey } from '../strings.ts';

/** How auto-read reads a guild's messages. A field the guild never set takes AUTO_READ_DEFAULTS'. */
export interface AutoReadSettings {
  /** Say the author's name before a message (the reader skips it when the same member spoke just before). */
  sayAuthorName: boolean;
  /** Longest message read, in characters; a longer one is cut (where and how is the reader's business). */
  maxLength: number;
  /** Read messages from bots and webhooks too. */
  readBots: boolean;
  /** Read only members who have this role; absent: everyone. */
  requiredRoleId?: string;
  /** Read only members who are in the bot's voice channel. */
  onlyMembersInVoice: boolean;
  /** Announce members joining or leaving the voice channel. */
  announceJoinLeave: boolean;
  /** Messages starting with this text are never read; absent: none. */
  skipPrefix?: string;
  /** Read `@silent` messages (Discord's SUPPRESS_NOTIFICATIONS flag). */
  readSilent: boolean;
  /** A member joining the bound voice channel brings SayBot back there to read, after it left by itself. */
  autojoin: boolean;
  /** More messages than this waiting: read faster, up to maxSpeed; 0: never faster. */
  fasterAfter: number;
  /** The fastest a backlog is read (1 to 2). */
  maxSpeed: number;
  /** More messages than this waiting: skip to the newest, with one notice; 0: never. */
  skipAfter: number;
  /** Whose voice reads a member without a /myvoice voice: the server's one voice, or each their own from the pool. */
  voices: AutoReadVoices;
  /** Say that a message came with files ("sent an image"); off: its files are passed over in silence. */
  readAttachments: boolean;
}

/**
 * 'one': everyone in the server's voice; 'distinct': each member a stable voice of the pool
 * (src/features/autoread/reading/voice-pool.ts).
 */
export type AutoReadVoices = 'one' | 'distinct';

/** A value sets a setting, null puts it back to its default (for requiredRoleId: no role), undefined leaves it. */
export type AutoReadSettingChanges = { [K in keyof AutoReadSettings]?: AutoReadSettings[K] | null };

/** The range /autoread settings offers for skip_prefix's length: a marker such as `!` or `//`, not a phrase. */
export const SKIP_PREFIX_MAX = 8;

/** The ranges /autoread settings offers for the backlog: how many waiting messages, and the fastest speed. */
export const BACKLOG_RANGE = { messages: { min: 0, max: 100 }, speed: { min: 1, max: 2 } } as const;

/** The range /autoread settings offers for maxLength: below 20 little is left after the name; above 1000 costs. */
export const MAX_LENGTH_RANGE = { min: 20, max: 1000 } as const;

/** Options with a description of their own (`option.<name>.description`), as every setting's option has. */
type DescribedOption = { [K in MessageKey]: K extends `option.${infer O}.description` ? O : never }[MessageKey];

/** A type alias, not an interface: a refusal passes it as its message's parameters. */
type Range = { readonly min: number; readonly max: number };

/**
 * Where /autoread settings and show print a setting: a parameter of a clause (`autoread.setting.*`). Settings
 * sharing a clause (the backlog's three) are printed together, where the first of them is declared.
 */
interface Shown<As> {
  readonly clause: MessageKey;
  readonly param: string;
  readonly as: As;
}

interface Common {
  /**
   * The auto_read column holding it: the setting's name in snake_case (a test keeps it so). NULL is the default,
   * so a default changed later reaches every server.
   */
  readonly column: string;
  /** The /autoread settings option that sets it: the member's word for it, kept as released (say_name, announce). */
  readonly option: DescribedOption;
}

/** On or off: a boolean option, a 0/1 column, printed "on"/"off". */
export interface FlagSetting extends Common {
  readonly kind: 'flag';
  readonly default: boolean;
  readonly shown: Shown<'onOff'>;
}

/** A whole number or a number within a range; a value outside it (a crafted one: Discord enforces it) is refused. */
export interface NumberSetting extends Common {
  readonly kind: 'integer' | 'number';
  readonly default: number;
  readonly range: Range;
  readonly refusal: { readonly key: MessageKey; readonly params: Range };
  /** Rounds a value given to the steps a listener hears, as a speech setting's `step` does: what is stored. */
  readonly step?: (value: number) => number;
  /** 'countOrOff': 0 is printed "off". */
  readonly shown: Shown<'number' | 'countOrOff'>;
}

/** A role; @everyone puts it back to none. Printed as the role's mention, or "none". */
export interface RoleSetting extends Common {
  readonly kind: 'role';
  readonly shown: Shown<'role'>;
}

/** A short marker: `none` (any case) removes it; a value not of `shape` is refused. Printed as code, or "none". */
export interface PrefixSetting extends Common {
  readonly kind: 'prefix';
  readonly maxLength: number;
  readonly none: string;
  readonly shape: RegExp;
  readonly refusal: MessageKey;
  readonly shown: Shown<'code'>;
}

/** One of a few values, offered as choices; each printed by its own key. */
export interface ChoiceSetting<V extends string> extends Common {
  readonly kind: 'choice';
  readonly default: V;
  /** Each value, and how it is printed; the option's choices are `choice.<option>.<value>`. */
  readonly values: { readonly [Value in V]: MessageKey };
  readonly refusal: MessageKey;
  readonly shown: Shown<'choice'>;
}

/** The declaration a setting of value type V takes. */
type DeclarationOf<V> = [V] extends [boolean]
  ? FlagSetting
  : [V] extends [number]
    ? NumberSetting
    : [V] extends [string]
      ? ChoiceSetting<V>
      : RoleSetting | PrefixSetting;

type Declarations = { readonly [K in keyof AutoReadSettings]-?: DeclarationOf<AutoReadSettings[K]> };

export type AutoReadSettingDeclaration = Declarations[keyof AutoReadSettings];

/**
 * Every auto-read setting, in the order /autoread settings offers them and the settings are printed (the type
 * makes each setting declared exactly once).
 */
export const AUTO_READ_SETTINGS = {
  sayAuthorName: {
    kind: 'flag',
    default: true,
    column: 'say_author_name',
    option: 'say_name',
    shown: { clause: 'autoread.setting.sayName', param: 'value', as: 'onOff' },
  },
  maxLength: {
    kind: 'integer',
    default: 200,
    range: MAX_LENGTH_RANGE,
    column: 'max_length',
    option: 'max_length',
    refusal: { key: 'autoread.maxLengthRange', params: MAX_LENGTH_RANGE },
    shown: { clause: 'autoread.setting.maxLength', param: 'value', as: 'number' },
  },
  readBots: {
    kind: 'flag',
    default: false,
    column: 'read_bots',
    option: 'read_bots',
    shown: { clause: 'autoread.setting.readBots', param: 'value', as: 'onOff' },
  },
  requiredRoleId: {
    kind: 'role',
    column: 'required_role_id',
    option: 'role',
    shown: { clause: 'autoread.setting.role', param: 'value', as: 'role' },
  },
  onlyMembersInVoice: {
    kind: 'flag',
    default: true,
    column: 'only_members_in_voice',
    option: 'only_voice_members',
    shown: { clause: 'autoread.setting.onlyVoiceMembers', param: 'value', as: 'onOff' },
  },
  announceJoinLeave: {
    kind: 'flag',
    default: false,
    column: 'announce_join_leave',
    option: 'announce',
    shown: { clause: 'autoread.setting.announce', param: 'value', as: 'onOff' },
  },
  skipPrefix: {
    // No spaces, nothing that could quote back as a mention or break a code span.
    kind: 'prefix',
    maxLength: SKIP_PREFIX_MAX,
    none: 'none',
    shape: new RegExp(`^[^\\s<>@\`]{1,${SKIP_PREFIX_MAX}}$`, 'u'),
    column: 'skip_prefix',
    option: 'skip_prefix',
    refusal: 'autoread.skipPrefixBad',
    shown: { clause: 'autoread.setting.skipPrefix', param: 'value', as: 'code' },
  },
  readSilent: {
    kind: 'flag',
    default: true,
    column: 'read_silent',
    option: 'read_silent',
    shown: { clause: 'autoread.setting.readSilent', param: 'value', as: 'onOff' },
  },
  autojoin: {
    kind: 'flag',
    default: false,
    column: 'autojoin',
    option: 'autojoin',
    shown: { clause: 'autoread.setting.autojoin', param: 'value', as: 'onOff' },
  },
  fasterAfter: {
    kind: 'integer',
    default: 3,
    range: BACKLOG_RANGE.messages,
    column: 'faster_after',
    option: 'faster_after',
    refusal: { key: 'autoread.backlogRange', params: BACKLOG_RANGE.messages },
    shown: { clause: 'autoread.setting.backlog', param: 'faster', as: 'countOrOff' },
  },
  maxSpeed: {
    kind: 'number',
    default: 1.5,
    range: BACKLOG_RANGE.speed,
    column: 'max_speed',
    option: 'max_speed',
    // On /say's speed grid: each speed is its own render and cache entry.
    step: quantiseSpeed,
    // One refusal for the backlog's three options, which names the messages' range and the speed's.
    refusal: { key: 'autoread.backlogRange', params: BACKLOG_RANGE.messages },
    shown: { clause: 'autoread.setting.backlog', param: 'speed', as: 'number' },
  },
  skipAfter: {
    kind: 'integer',
    default: 10,
    range: BACKLOG_RANGE.messages,
    column: 'skip_after',
    option: 'skip_after',
    refusal: { key: 'autoread.backlogRange', params: BACKLOG_RANGE.messages },
    shown: { clause: 'autoread.setting.backlog', param: 'skip', as: 'countOrOff' },
  },
  voices: {
    kind: 'choice',
    default: 'one',
    values: { one: 'autoread.value.voicesOne', distinct: 'autoread.value.voicesDistinct' },
    column: 'voices',
    option: 'voices',
    refusal: 'autoread.voicesBad',
    shown: { clause: 'autoread.setting.voices', param: 'value', as: 'choice' },
  },
  readAttachments: {
    // On: the files were always announced before this setting existed, so no server hears a change.
    kind: 'flag',
    default: true,
    column: 'read_attachments',
    option: 'read_attachments',
    shown: { clause: 'autoread.setting.readAttachments', param: 'value', as: 'onOff' },
  },
} as const satisfies Declarations;

/** The declarations with their settings' names, in declaration order. */
export const AUTO_READ_SETTING_LIST = Object.entries(AUTO_READ_SETTINGS) as ReadonlyArray<
  [keyof AutoReadSettings, AutoReadSettingDeclaration]
>;

/** The default of each setting that has one (requiredRoleId and skipPrefix: none). */
export const AUTO_READ_DEFAULTS: Readonly<AutoReadSettings> = Object.freeze(
  Object.fromEntries(
    AUTO_READ_SETTING_LIST.flatMap(([name, declared]) => ('default' in declared ? [[name, declared.default]] : [])),
  ) as unknown as AutoReadSettings,
);

type DeclaredSettings = typeof AUTO_READ_SETTINGS;
/** What each setting's column holds (NULL: the default): 0/1 flags and numbers, text, a choice's values. */
type ColumnOf<D> = D extends { kind: 'flag' | 'integer' | 'number' }
  ? number | null
  : D extends { kind: 'choice'; values: infer Values }
    ? keyof Values | null
    : string | null;
/** The auto_read columns the settings declare, typed for schema.ts. */
export type AutoReadSettingColumns = {
  [K in keyof DeclaredSettings as DeclaredSettings[K]['column']]: ColumnOf<DeclaredSettings[K]>;
};
