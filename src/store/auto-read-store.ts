/** How auto-read reads a guild's messages (issue 14). A field the guild never set takes AUTO_READ_DEFAULTS'. */
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
}

/** 'one': everyone in the server's voice; 'distinct': each member a stable voice of the pool (src/autoread/voice-pool.ts). */
export type AutoReadVoices = 'one' | 'distinct';

export const AUTO_READ_DEFAULTS: Readonly<AutoReadSettings> = Object.freeze({
  sayAuthorName: true,
  maxLength: 200,
  readBots: false,
  onlyMembersInVoice: true,
  announceJoinLeave: false,
  readSilent: true,
  autojoin: false,
  fasterAfter: 3,
  maxSpeed: 1.5,
  skipAfter: 10,
  voices: 'one',
});

/** Why reading last stopped: /autoread stop (or a binding dropped), or SayBot leaving voice by itself (left alone, kicked). */
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
  /** Why reading last stopped, while it is stopped (absent while reading, and for bindings stopped before issue 26). */
  stoppedWhy?: AutoReadStopReason;
}

/** A value sets a setting, null puts it back to its default (for requiredRoleId: no role), undefined leaves it. */
export type AutoReadSettingChanges = { [K in keyof AutoReadSettings]?: AutoReadSettings[K] | null };
