// What a member lacks to use a command or be spoken for (Unmet), and the rules a command finds rather than
// declares; the declared ones (Requirements) are checked by router.ts before a command runs.
import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { BotCommandInteraction, Requirements } from './command.ts';
import { UserError } from './failures.ts';
import type { MessageKey, MessageParams } from '../i18n/catalogue.ts';
import type { MemberVoiceRight } from '../order/rights.ts';

export type { MemberVoiceRight } from '../order/rights.ts';

export type { MenuRequirements, Preconditions, Requirements } from './command.ts';

/** What a member lacks to use a command or be spoken for (worded by src/features/speaking/failure-words.ts). */
export type Unmet =
  | { code: 'guild-only' }
  /** `refusal`: the command's own words for it (Requirements.manageGuild), else the features' default. */
  | { code: 'manage-server'; refusal?: MessageKey }
  | { code: 'not-in-voice' }
  /** Timed out in the server: SayBot says and posts nothing for them. */
  | { code: 'timed-out' }
  /** One of the member's own voice rights where SayBot would speak for them. */
  | { code: Exclude<MemberVoiceRight, 'not-in-voice' | 'timed-out'>; channelId: string };

/** A precondition or voice right the member does not meet: nothing was held or paid. */
export class UnmetError extends Error {
  readonly unmet: Unmet;
  constructor(unmet: Unmet) {
    super(`unmet: ${unmet.code}`);
    this.name = 'UnmetError';
    this.unmet = unmet;
  }
}

/** Whether Discord should show the command only to members with Manage Server (its default member permissions). */
export function forAdminsByDefault(requires: Requirements | undefined): boolean {
  return requires?.manageGuild !== undefined || requires?.adminsByDefault === true;
}

/** A rule a command finds rather than declares: the thing's owner, or Manage Server (deleting a cloned voice). */
export function requireOwnerOrManager(
  interaction: ChatInputCommandInteraction<'cached'>,
  ownerId: string,
  refusal: MessageKey,
): void {
  if (ownerId !== interaction.user.id && !interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild))
    throw new UserError(refusal);
}

/** A rule holding only in a state the command finds (while read aloud: /leave): Manage Server, else `refusal`. */
export function requireManager(
  interaction: Pick<BotCommandInteraction<'cached'>, 'memberPermissions'>,
  refusal: MessageKey,
  params: MessageParams = {},
): void {
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) throw new UserError(refusal, params);
}
