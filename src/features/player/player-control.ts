// Who may stop or skip what SayBot plays in a server (/stop, /skip). A member in SayBot's voice channel acts on what
// they asked for; what others asked for needs a voice moderator's rights (Mute Members or Move Members in that
// channel) or Manage Server; a member elsewhere without those changes nothing.
import { PermissionFlagsBits } from 'discord.js';
import type { PlaybackItem } from '../../core/voice/guild-player.ts';
import type { BotCommandInteraction } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';

/** Every clip, or only the member's own. */
export type PlayerControl = { kind: 'all' } | { kind: 'own'; userId: string };

/**
 * What the member may act on in SayBot's voice channel `channelId`; refused when they are elsewhere and no moderator.
 */
export function playerControl(interaction: BotCommandInteraction<'cached'>, channelId: string): PlayerControl {
  if (interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) return { kind: 'all' };
  const channel = interaction.guild.channels.cache.get(channelId);
  const moderates =
    channel
      ?.permissionsFor(interaction.member)
      ?.any([PermissionFlagsBits.MuteMembers, PermissionFlagsBits.MoveMembers]) ?? false;
  if (moderates) return { kind: 'all' };
  if (interaction.member.voice.channelId === channelId) return { kind: 'own', userId: interaction.user.id };
  throw new UserError('player.notInChannel', { channel: `<#${channelId}>` });
}

/** The clips a member may skip: their own requests, their own chat message being read aloud included. */
export function skippable(control: PlayerControl): ((item: PlaybackItem) => boolean) | undefined {
  if (control.kind === 'all') return undefined;
  return (item) => item.requestedBy?.userId === control.userId;
}

/**
 * The clips a member may stop: their own requests, unless made as not theirs to stop (auto-read's: stopping one
 * drops every unread message, as a stop empties the queue, which is the channel's reading, not the member's; their
 * own message being read they may /skip).
 */
export function stoppable(control: PlayerControl): ((item: PlaybackItem) => boolean) | undefined {
  if (control.kind === 'all') return undefined;
  return (item) => item.requestedBy?.userId === control.userId && item.requestedBy.requesterMayStop;
}
