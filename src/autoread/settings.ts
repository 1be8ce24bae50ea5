// The channel a server reads and the bounds of its settings. The settings themselves are the store's
// AutoReadSettings (src/store/auto-read-store.ts, with AUTO_READ_DEFAULTS): one shape from the store to the reader.
import type { AutoReadSettings } from '../store/auto-read-store.ts';

/** The range /autoread settings offers for skip_prefix's length: a marker such as `!` or `//`, not a phrase. */
export const SKIP_PREFIX_MAX = 8;

/** The ranges /autoread settings offers for the backlog: how many waiting messages, and the fastest speed. */
export const BACKLOG_RANGE = { messages: { min: 0, max: 100 }, speed: { min: 1, max: 2 } } as const;

/** The range /autoread settings offers for maxLength: below 20 little is left after the name; above 1000 costs. */
export const MAX_LENGTH_RANGE = { min: 20, max: 1000 } as const;

/** The most members a server's managers may have auto-read ignore (/autoread ignore). */
export const IGNORED_MAX = 200;

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
  settings: AutoReadSettings;
  /** Members the managers had auto-read ignore (/autoread ignore): nothing of theirs is read or requested. */
  ignored?: ReadonlySet<string>;
}
