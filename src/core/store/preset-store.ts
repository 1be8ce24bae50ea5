import type { ListOptions, SpeechSettings } from './common-types.ts';

export interface Preset extends SpeechSettings {
  guildId: string;
  /** As the admin typed it; unique in the guild ignoring case and width. */
  name: string;
  voice: string;
  createdBy: string;
  createdAt: Date;
}

export type NewPreset = Omit<Preset, 'createdAt'> & { createdAt?: Date };

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
