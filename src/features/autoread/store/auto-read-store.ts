// The settings (type, defaults, changes) are declared with auto-read: one place for each setting.
import type { AutoReadSettings } from '../setting-declarations.ts';

export { AUTO_READ_DEFAULTS } from '../setting-declarations.ts';
export type { AutoReadSettingChanges, AutoReadSettings, AutoReadVoices } from '../setting-declarations.ts';

/**
 * The most bindings a server keeps: one per seat it can have (the main bot and at most 10 helpers, HELPER_BOT_TOKENS),
 * since a binding past them could never be read into its voice channel at once with the others.
 */
export const AUTO_READ_BINDINGS_MAX = 11;

/** Why reading last stopped: /autoread stop, or SayBot leaving voice by itself. */
export type AutoReadStopReason = 'asked' | 'left-voice';

/** A text channel read (a voice channel's own chat: its ID) into a voice channel: one per (server, voice channel). */
export interface AutoReadBinding {
  textChannelId: string;
  voiceChannelId: string;
  /** Who started it (/autoread start) and when. */
  startedBy: string;
  startedAt: Date;
  /** Reading now. False after /autoread stop or once the bot left its voice channel (the reader stops it). */
  reading: boolean;
  /** Why reading last stopped, while stopped (absent for bindings older than the reason). */
  stoppedWhy?: AutoReadStopReason;
}

/** What /autoread start gives the store: the channels and who binds them. */
export type NewBinding = Pick<AutoReadBinding, 'textChannelId' | 'voiceChannelId' | 'startedBy'> & { startedAt?: Date };

/**
 * A start's outcome: the binding, reading; or refused: the server holds `max` bindings, all reading
 * ('full'), or the text channel is read into another voice channel ('text-taken', which one).
 */
export type StartResult =
  { kind: 'started'; binding: AutoReadBinding } | { kind: 'full' } | { kind: 'text-taken'; voiceChannelId: string };

export interface AutoReadState {
  guildId: string;
  /** Every binding kept in the server, reading or not, in voice channel ID order; none for a new guild. */
  bindings: AutoReadBinding[];
  /** The settings in force: the guild's own values over AUTO_READ_DEFAULTS. */
  settings: AutoReadSettings;
}
