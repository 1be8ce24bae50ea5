import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { BotCommandInteraction, Requirements } from './command.ts';
import { UserError } from './failures.ts';
import type { MessageKey, MessageParams } from '../i18n/catalogue.ts';
import type { MemberVoiceRight } from '../order/rights.ts';

export type { MemberVoiceRight } from '../order/rights.ts';

export type { MenuRequirements, Preconditions, Requirements } from './command.ts';

/** What the preconditions are checked against, read from the interaction. */
export interface Facts {
  inGuild: boolean;
  subcommand: string | null;
  manageGuild: boolean;
  inVoice: boolean;
}

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

/** The first precondition `facts` fail; undefined when all hold. */
export function unmetPrecondition(requires: Requirements | undefined, facts: Facts): Unmet | undefined {
  if (!facts.inGuild) return { code: 'guild-only' };
  const sub = facts.subcommand === null ? undefined : requires?.subcommands?.[facts.subcommand];
  for (const p of [requires, sub]) {
    if (p?.manageGuild && !facts.manageGuild)
      return p.manageGuild === true
        ? { code: 'manage-server' }
        : { code: 'manage-server', refusal: p.manageGuild.refusal };
  }
  for (const p of [requires, sub]) {
    if (p?.inVoice && !facts.inVoice) return { code: 'not-in-voice' };
  }
  return undefined;
}

/** The one place preconditions are enforced: a command runs only when its declared ones hold. */
export function enforcePreconditions(
  interaction: BotCommandInteraction,
  requires: Requirements | undefined,
): asserts interaction is BotCommandInteraction<'cached'> {
  const inGuild = interaction.inCachedGuild();
  const refusal = unmetPrecondition(requires, {
    inGuild,
    subcommand: interaction.isChatInputCommand() ? interaction.options.getSubcommand(false) : null,
    manageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
    inVoice: inGuild && interaction.member.voice.channelId !== null,
  });
  if (refusal === undefined) return;
  // A command's own words for it are the command's to give.
  if (refusal.code === 'manage-server' && refusal.refusal !== undefined) throw new UserError(refusal.refusal);
  throw new UnmetError(refusal);
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
