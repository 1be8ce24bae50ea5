// A server's auto-read settings (/autoread settings) and the channel it reads. Plain data: the store keeps them
// (phase 2), the reader reads them; every default is here so the store and the commands agree on one value.
import { AUTO_READ_DEFAULTS, type AutoReadSettings } from '../store/auto-read-store.ts';
import { DEFAULT_MAX_LENGTH } from '../text/cleanup.ts';

export interface AutoreadSettings {
  /** Say the author's name before a message (skipped when the same member spoke within NAME_WINDOW_MS). */
  sayName: boolean;
  /** Characters of a message's own text that are spoken; longer ones are cut at a word, with "and so on". */
  maxLength: number;
  /** Read messages of bots and webhooks (never SayBot's own). */
  readBots: boolean;
  /** Read only members holding this role; null: everyone. */
  requiredRoleId: string | null;
  /** Read only members who are in the bot's voice channel. */
  onlyVoiceMembers: boolean;
  /** Say when a member joins or leaves the bot's voice channel. */
  announceVoice: boolean;
  /** Messages starting with this are never read; null: none. */
  skipPrefix: string | null;
  /** Read `@silent` messages. */
  readSilent: boolean;
  /** More messages waiting than this: the next is read faster, up to maxSpeed; 0: never. */
  fasterAfter: number;
  /** The fastest a backlog is read. */
  maxSpeed: number;
  /** More messages waiting than this: all but the newest are skipped, with one notice; 0: never. */
  skipAfter: number;
}

export const DEFAULT_AUTOREAD_SETTINGS: Readonly<AutoreadSettings> = Object.freeze({
  sayName: true,
  maxLength: DEFAULT_MAX_LENGTH,
  readBots: false,
  requiredRoleId: null,
  onlyVoiceMembers: true,
  announceVoice: false,
  skipPrefix: null,
  readSilent: AUTO_READ_DEFAULTS.readSilent,
  fasterAfter: AUTO_READ_DEFAULTS.fasterAfter,
  maxSpeed: AUTO_READ_DEFAULTS.maxSpeed,
  skipAfter: AUTO_READ_DEFAULTS.skipAfter,
});

/** The range /autoread settings offers for skip_prefix's length: a marker such as `!` or `//`, not a phrase. */
export const SKIP_PREFIX_MAX = 8;

/** The ranges /autoread settings offers for the backlog: how many waiting messages, and the fastest speed. */
export const BACKLOG_RANGE = { messages: { min: 0, max: 100 }, speed: { min: 1, max: 2 } } as const;

/** The range /autoread settings offers for maxLength: below 20 little is left after the name; above 1000 costs. */
export const MAX_LENGTH_RANGE = { min: 20, max: 1000 } as const;

/** The name is said again once the same member has been quiet this long. */
export const NAME_WINDOW_MS = 60_000;

/** What one guild reads and where it speaks. */
export interface ReadingBinding {
  guildId: string;
  /** The channel read: a text channel, or a voice channel's own chat. */
  channelId: string;
  /** The voice channel spoken in (the bot's; followed when the bot is moved). */
  voiceChannelId: string;
  /** The server's language (preferred locale): the words said for links, names, "and so on". */
  language?: string;
  settings: AutoreadSettings;
}

/** The settings as the store keeps them (src/store/auto-read-store.ts), as the reader reads them. */
export function readerSettings(stored: AutoReadSettings): AutoreadSettings {
  return {
    sayName: stored.sayAuthorName,
    maxLength: stored.maxLength,
    readBots: stored.readBots,
    requiredRoleId: stored.requiredRoleId ?? null,
    onlyVoiceMembers: stored.onlyMembersInVoice,
    announceVoice: stored.announceJoinLeave,
    skipPrefix: stored.skipPrefix ?? null,
    readSilent: stored.readSilent,
    fasterAfter: stored.fasterAfter,
    maxSpeed: stored.maxSpeed,
    skipAfter: stored.skipAfter,
  };
}
