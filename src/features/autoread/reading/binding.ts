// What one binding reads and where it speaks: the reader's binding.
import type { AutoReadSettings } from '../setting-declarations.ts';

/** The most members a server's managers may have auto-read ignore (/autoread ignore). */
export const IGNORED_MAX = 200;

/** The name is said again once the same member has been quiet this long. */
export const NAME_WINDOW_MS = 60_000;

export interface ReadingBinding {
  guildId: string;
  /** The channel read: a text channel, or a voice channel's own chat. */
  channelId: string;
  /** The voice channel spoken in (the bot's; followed when the bot is moved). */
  voiceChannelId: string;
  /** The server's language (preferred locale): the words said for links, names, "and so on". */
  language?: string;
  settings: AutoReadSettings;
  /** Members the managers had auto-read ignore (/autoread ignore): nothing of theirs is read or requested. */
  ignored?: ReadonlySet<string>;
}
