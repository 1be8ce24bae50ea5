// The settings (type, defaults, changes) are declared with auto-read: one place for each setting.
import type { AutoReadSettings } from '../setting-declarations.ts';

export { AUTO_READ_DEFAULTS } from '../setting-declarations.ts';
export type { AutoReadSettingChanges, AutoReadSettings, AutoReadVoices } from '../setting-declarations.ts';

/** Why reading last stopped: /autoread stop, or SayBot leaving voice by itself. */
export type AutoReadStopReason = 'asked' | 'left-voice';

/** The text channel read (a voice channel's own chat: its ID) and the voice channel spoken in. */
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
  /** Why reading last stopped, while stopped (absent for bindings older than the reason). */
  stoppedWhy?: AutoReadStopReason;
}
