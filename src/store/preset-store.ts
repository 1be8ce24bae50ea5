import type { ListOptions, VoiceSettings } from './types.ts';

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

/**
 * Presets and the speech defaults built on them: a guild's named presets, its default preset, and each
 * member's own defaults (tables presets, guild_settings, member_defaults).
 */
export interface PresetStore {
  /** Creates the preset, or replaces the one of the same name (its default status is kept). */
  savePreset(preset: NewPreset, options?: { maxPerGuild?: number }): Promise<SavePresetResult>;
  getPreset(guildId: string, name: string): Promise<Preset | undefined>;
  listPresets(guildId: string, options?: PresetListOptions): Promise<Preset[]>;
  /** Removes a preset; when it was the default, the guild is left without one. */
  deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined>;

  /** Sets (name) or clears (null) the default preset. False when no preset has that name. */
  setDefaultPreset(guildId: string, name: string | null): Promise<boolean>;
  getDefaultPreset(guildId: string): Promise<Preset | undefined>;

  getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined>;
  /** Merges the given fields into the member's defaults (creating them); fields left undefined stay as they were. */
  setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults>;
  clearMemberDefaults(guildId: string, userId: string): Promise<boolean>;
}
