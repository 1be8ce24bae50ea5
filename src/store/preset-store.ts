import type { ListOptions, VoiceSettings } from './shared-types.ts';

export interface Preset extends VoiceSettings {
  guildId: string;
  /** As the admin typed it; unique in the guild ignoring case and width. */
  name: string;
  voice: string;
  createdBy: string;
  createdAt: Date;
}

export type NewPreset = Omit<Preset, 'createdAt'> & { createdAt?: Date };

/** What a member sets for themselves about auto-read (issue 26): how they are named, whether they are read. */
export interface MemberReading {
  /** The name auto-read says for them; absent: their display name in the server. */
  spokenName?: string;
  /** False: auto-read never reads their messages; absent: read (the default). */
  readMe?: boolean;
}

export interface MemberDefaults extends VoiceSettings, MemberReading {
  guildId: string;
  userId: string;
  updatedAt: Date;
}

/** A change to a member's defaults: a value sets a field, undefined leaves it. */
export type MemberDefaultsChange = VoiceSettings & MemberReading;

export interface PresetListOptions extends ListOptions {
  /** Keep presets in this language, and those that fix none. */
  language?: string | undefined;
}

export type SavePresetResult = { status: 'created' | 'updated'; preset: Preset } | { status: 'full'; limit: number };

export interface DeletedPreset {
  preset: Preset;
  /** It was the guild's default preset, which is now unset (same transaction). */
  wasDefault: boolean;
}

/** A guild's named presets and its default preset (tables presets, guild_settings): `store.presets`. */
export interface PresetStore {
  /** Creates the preset, or replaces the one of the same name (its default status is kept). */
  save(preset: NewPreset, options?: { maxPerGuild?: number }): Promise<SavePresetResult>;
  get(guildId: string, name: string): Promise<Preset | undefined>;
  list(guildId: string, options?: PresetListOptions): Promise<Preset[]>;
  /** Removes a preset; when it was the default, the guild is left without one. */
  delete(guildId: string, name: string): Promise<DeletedPreset | undefined>;
  /** Sets (name) or clears (null) the default preset. False when no preset has that name. */
  setDefault(guildId: string, name: string | null): Promise<boolean>;
  getDefault(guildId: string): Promise<Preset | undefined>;
}

/** Each member's own speech defaults in a guild (table member_defaults): `store.memberDefaults`. */
export interface MemberDefaultsStore {
  get(guildId: string, userId: string): Promise<MemberDefaults | undefined>;
  /** Merges the given fields into the member's defaults (creating them); fields left undefined stay as they were. */
  set(guildId: string, userId: string, settings: MemberDefaultsChange): Promise<MemberDefaults>;
  clear(guildId: string, userId: string): Promise<boolean>;
}
