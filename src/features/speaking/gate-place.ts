// Where a member asks, as the gate (gate.ts) reads it, and what an order does there by where its audio goes: built
// once here for every front-end that speaks for a member (a command, a menu, a reply's button, a scene).
import type { ButtonInteraction } from 'discord.js';
import type { AnsweredInteraction } from '../../core/interactions/command.ts';
import type { Effect, Effects, Place } from './gate-types.ts';

/**
 * What the voice checks read of where a member asks: a command, a reply's button ("Play in my voice channel"), or the
 * dashboard's studio (the server, the member fetched afresh, and their permissions, all SayBot's own view).
 */
export type MemberPlace = Pick<
  ButtonInteraction<'cached'>,
  'guildId' | 'guild' | 'member' | 'user' | 'memberPermissions'
>;

/** Where a member asks, for the gate: their rights in the interaction's channel and, when given, their voice channel. */
export function placeOf(
  interaction: MemberPlace & Partial<Pick<AnsweredInteraction<'cached'>, 'channel' | 'appPermissions'>>,
  voiceChannelId?: string,
): Place {
  return {
    guild: interaction.guild,
    memberId: interaction.user.id,
    member: interaction.member,
    text: {
      thread: interaction.channel?.isThread() ?? false,
      channelId: interaction.channel?.id,
      member: interaction.memberPermissions,
      bot: interaction.appPermissions ?? null,
    },
    voiceChannelId,
  };
}

/** An order's effects where a member asks, by where its audio goes: always words of the member's own choosing. */
export function effectsAt(place: Place, target: { kind: 'voice' | 'file' | 'voice-message' }): Effects {
  const does: Effect[] =
    target.kind === 'voice'
      ? ['speak-in-voice', 'member-words']
      : [target.kind === 'file' ? 'attach-file' : 'post-voice-message', 'member-words'];
  return { does, at: place };
}
