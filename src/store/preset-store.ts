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

/** What a member sets for themselves about auto-read (issue 26): how they are named, whether they are read. */
export interface MemberReading {
  /** The name auto-read says for them; absent: their display name in the server. */
  spokenName?: string;
  /** False: auto-read never reads their messages; absent: read (the default). */
  readMe?: boolean;
}

export interface MemberDefaults extends SpeechSettings, MemberReading {
  guildId: string;
  userId: string;
  updatedAt: Date;
}

/** A change to a member's defaults: a value sets a field, undefined leaves it. */
export type MemberDefaultsChange = SpeechSettings & MemberReading;

/** One field of a member's defaults, as `memberDefaults.unset` names it. */
export type MemberDefaultsField = keyof MemberDefaultsChange;

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
