// The settings (type, defaults, changes) are declared with auto-read: one place for each setting.
import type { AutoReadSettings } from '../setting-declarations.ts';

export { AUTO_READ_DEFAULTS } from '../setting-declarations.ts';
export type { AutoReadSettingChanges, AutoReadSettings, AutoReadVoices } from '../setting-declarations.ts';

/**
 * Why reading last stopped: /autoread stop (or a binding dropped), or SayBot leaving voice by itself (left alone,
 * kicked).
 */
export type AutoReadStopReason = 'asked' | 'left-voice';

/**
 * The channels a guild is read in: the text channel whose messages are read (a voice channel's own chat: then it is
 * the voice channel's ID) and the voice channel they are spoken in.
 */
export interface AutoReadBinding {
  textChannelId: string;
  voiceChannelId: string;
  /** Who started it (/autoread start) and when. */
  startedBy: string;
  startedAt: Date;
}

export interface AutoReadState {
  guildId: string;
  /** Reading now. False after /autoread stop or once the bot left voice (the reader stops it), and for a new guild. */
  reading: boolean;
  /** The latest binding, kept when reading stops; absent if the guild never started auto-read. */
  binding?: AutoReadBinding;
  /** The settings in force: the guild's own values over AUTO_READ_DEFAULTS. */
  settings: AutoReadSettings;
  /**
   * Why reading last stopped, while it is stopped (absent while reading, and for bindings stopped before the reason was
   * recorded).
   */
  stoppedWhy?: AutoReadStopReason;
}
