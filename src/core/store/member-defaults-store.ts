import type { SpeechSettings } from './common-types.ts';
import type { SettingDeclaration } from '../settings/setting-types.ts';

/** A feature's field on member_defaults, as declared with the settings kit: its name and declaration. */
export type MemberField = readonly [name: string, declared: SettingDeclaration];

/** A feature's fields on a member's row (src/features/autoread/reading/member-reading.ts), merged in. */
// oxlint-disable-next-line typescript/no-empty-object-type -- its members are the features'
export interface MemberFields {}

export interface MemberDefaults extends SpeechSettings, MemberFields {
  /** The name of the cloned voice that was their voice, deleted since: told once, where it would have spoken. */
  voiceDeleted?: string;
  guildId: string;
  userId: string;
  updatedAt: Date;
}

/** A change to a member's defaults: a value sets a field, undefined leaves it. */
export type MemberDefaultsChange = SpeechSettings & MemberFields;

/** One field of a member's defaults, as `memberDefaults.unset` names it. */
export type MemberDefaultsField = keyof MemberDefaultsChange | 'voiceDeleted';
