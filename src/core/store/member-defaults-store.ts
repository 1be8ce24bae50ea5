import type { SpeechSettings } from './common-types.ts';

/** What a member sets for themselves about auto-read: how they are named, whether they are read. */
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
