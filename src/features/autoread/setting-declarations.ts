// Auto-read's settings, each declared once; the store mapping and the command's options are derived from here.
import { quantiseSpeed } from '../../core/settings/setting-declarations.ts';
import './strings.ts';
import type { MessageKey } from './strings.ts';
import type { ColumnsOf, Declarations } from '../../core/settings/setting-types.ts';

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
  /** Read in the free voice (FREE_VOICES' for each message's language, else eSpeak NG's): chatter spends nothing. */
  freeVoice: boolean;
}

/** 'one': everyone in the server's voice; 'distinct': each member a stable voice of the pool. */
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

type AutoReadDeclarations = Declarations<AutoReadSettings, DescribedOption>;

export type AutoReadSettingDeclaration = AutoReadDeclarations[keyof AutoReadSettings];

/** An on/off setting, printed by its clause `key`. */
const flag = <C extends string, O extends DescribedOption>(value: boolean, column: C, option: O, key: MessageKey) =>
  ({ kind: 'flag', default: value, column, option, shown: { as: 'onOff', clause: { key, param: 'value' } } }) as const;

/** How many waiting messages a backlog's option names (its column is its option), printed in the backlog's clause. */
const backlogCount = <C extends DescribedOption>(value: number, column: C, param: string) =>
  ({
    kind: 'integer',
    default: value,
    range: BACKLOG_RANGE.messages,
    column,
    option: column,
    refusal: { key: 'autoread.backlogRange', params: BACKLOG_RANGE.messages },
    shown: { as: 'countOrOff', clause: { key: 'autoread.setting.backlog', param } },
  }) as const;

/** Every auto-read setting, in the order /autoread settings offers and prints them. */
export const AUTO_READ_SETTINGS = {
  sayAuthorName: flag(true, 'say_author_name', 'say_name', 'autoread.setting.sayName'),
  maxLength: {
    kind: 'integer',
    default: 200,
    range: MAX_LENGTH_RANGE,
    column: 'max_length',
    option: 'max_length',
    refusal: { key: 'autoread.maxLengthRange', params: MAX_LENGTH_RANGE },
    shown: { as: 'number', clause: { key: 'autoread.setting.maxLength', param: 'value' } },
  },
  readBots: flag(false, 'read_bots', 'read_bots', 'autoread.setting.readBots'),
  requiredRoleId: {
    kind: 'role',
    column: 'required_role_id',
    option: 'role',
    shown: { as: 'role', clause: { key: 'autoread.setting.role', param: 'value' } },
  },
  onlyMembersInVoice: flag(true, 'only_members_in_voice', 'only_voice_members', 'autoread.setting.onlyVoiceMembers'),
  announceJoinLeave: flag(false, 'announce_join_leave', 'announce', 'autoread.setting.announce'),
  skipPrefix: {
    // No spaces, nothing that could quote back as a mention or break a code span.
    kind: 'text',
    maxLength: SKIP_PREFIX_MAX,
    none: 'none',
    shape: { pattern: new RegExp(`^[^\\s<>@\`]{1,${SKIP_PREFIX_MAX}}$`, 'u'), refusal: 'autoread.skipPrefixBad' },
    column: 'skip_prefix',
    option: 'skip_prefix',
    shown: { as: 'code', clause: { key: 'autoread.setting.skipPrefix', param: 'value' } },
  },
  readSilent: flag(true, 'read_silent', 'read_silent', 'autoread.setting.readSilent'),
  autojoin: flag(false, 'autojoin', 'autojoin', 'autoread.setting.autojoin'),
  fasterAfter: backlogCount(3, 'faster_after', 'faster'),
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
    shown: { as: 'number', clause: { key: 'autoread.setting.backlog', param: 'speed' } },
  },
  skipAfter: backlogCount(10, 'skip_after', 'skip'),
  voices: {
    kind: 'choice',
    default: 'one',
    values: ['one', 'distinct'],
    words: { one: 'autoread.value.voicesOne', distinct: 'autoread.value.voicesDistinct' },
    column: 'voices',
    option: 'voices',
    refusal: 'autoread.voicesBad',
    shown: { as: 'choice', clause: { key: 'autoread.setting.voices', param: 'value' } },
  },
  // On: the files were always announced before this setting existed, so no server hears a change.
  readAttachments: flag(true, 'read_attachments', 'read_attachments', 'autoread.setting.readAttachments'),
  freeVoice: flag(false, 'free_voice', 'free_voice', 'autoread.setting.freeVoice'),
} as const satisfies AutoReadDeclarations;

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

/** The auto_read columns the settings declare, typed for schema.ts. */
export type AutoReadSettingColumns = ColumnsOf<typeof AUTO_READ_SETTINGS>;
