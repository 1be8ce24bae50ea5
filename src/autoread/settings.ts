// A server's auto-read settings (/autoread settings) and the channel it reads. Plain data: the store keeps them
// (phase 2), the reader reads them; every default is here so the store and the commands agree on one value.
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
}

export const DEFAULT_AUTOREAD_SETTINGS: Readonly<AutoreadSettings> = Object.freeze({
  sayName: true,
  maxLength: DEFAULT_MAX_LENGTH,
  readBots: false,
  requiredRoleId: null,
  onlyVoiceMembers: true,
  announceVoice: false,
});

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
