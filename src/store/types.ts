/**
 * The storage contract the rest of SayBot uses. Every method is async so that a client/server database
 * (PostgreSQL) can implement it later without touching commands; the SQLite implementation answers at once.
 * IDs are Discord snowflakes as strings. Names are matched case-insensitively (see names.ts: `nameKey`).
 */

export type OutputFormat = 'wav' | 'mp3';

/** The speech settings a preset or a member default may fix; each one left out falls through to the next layer. */
export interface VoiceSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: OutputFormat;
}

export interface Preset extends VoiceSettings {
  guildId: string;
  /** As the admin typed it; unique in the guild ignoring case and width. */
  name: string;
  voice: string;
  createdBy: string;
  createdAt: Date;
}

export type NewPreset = Omit<Preset, 'createdAt'> & { createdAt?: Date };

export interface MemberDefaults extends VoiceSettings {
  guildId: string;
  userId: string;
  updatedAt: Date;
}

/** A voice cloned from a clip (/clone, issue 4): usable in its guild only. */
export interface ClonedVoice {
  guildId: string;
  name: string;
  /** The service's opaque ID (X-Voice-Id). */
  voiceId: string;
  createdBy: string;
  createdAt: Date;
  clipSeconds: number;
}

export type NewClonedVoice = Omit<ClonedVoice, 'createdAt'> & { createdAt?: Date };

export interface ListOptions {
  /** Keep only names (or voice IDs) containing this text, ignoring case. */
  contains?: string;
  /** Most rows returned; default: all. */
  limit?: number;
}

export interface PresetListOptions extends ListOptions {
  /** Keep presets in this language, and those that fix none. */
  language?: string;
}

export type SavePresetResult = { status: 'created' | 'updated'; preset: Preset } | { status: 'full'; limit: number };

export interface DeletedPreset {
  preset: Preset;
  /** It was the guild's default preset, which is now unset (same transaction). */
  wasDefault: boolean;
}

export type AddClonedVoiceResult = { status: 'added'; voice: ClonedVoice } | { status: 'name-taken'; existing: ClonedVoice } | { status: 'full'; limit: number };

export interface DeletedClonedVoice {
  voice: ClonedVoice;
  /** Presets that spoke with it, removed with it so none points at a voice that no longer exists. */
  presetsRemoved: string[];
  /** Member defaults whose voice was it; their voice is unset, the other fields kept. */
  memberDefaultsCleared: number;
}

export interface Store {
  // Presets
  /** Creates the preset, or replaces the one of the same name (its default status is kept). */
  savePreset(preset: NewPreset, options?: { maxPerGuild?: number }): Promise<SavePresetResult>;
  getPreset(guildId: string, name: string): Promise<Preset | undefined>;
  listPresets(guildId: string, options?: PresetListOptions): Promise<Preset[]>;
  /** Removes a preset; when it was the default, the guild is left without one. */
  deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined>;

  // Guild settings
  /** Sets (name) or clears (null) the default preset. False when no preset has that name. */
  setDefaultPreset(guildId: string, name: string | null): Promise<boolean>;
  getDefaultPreset(guildId: string): Promise<Preset | undefined>;

  // Member defaults
  getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined>;
  /** Merges the given fields into the member's defaults (creating them); fields left undefined stay as they were. */
  setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults>;
  clearMemberDefaults(guildId: string, userId: string): Promise<boolean>;

  // Voice library (cloned voices)
  addClonedVoice(voice: NewClonedVoice, options?: { maxPerGuild?: number }): Promise<AddClonedVoiceResult>;
  /** The guild's cloned voice with this ID; undefined for another guild's, so it cannot be borrowed. */
  getClonedVoice(guildId: string, voiceId: string): Promise<ClonedVoice | undefined>;
  findClonedVoiceByName(guildId: string, name: string): Promise<ClonedVoice | undefined>;
  listClonedVoices(guildId: string, options?: ListOptions): Promise<ClonedVoice[]>;
  /** Removes a cloned voice and, in the same transaction, what speaks with it (see DeletedClonedVoice). */
  deleteClonedVoice(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined>;

  /** Waits for nothing pending and releases the database. Further calls fail. Idempotent. */
  close(): Promise<void>;
}
