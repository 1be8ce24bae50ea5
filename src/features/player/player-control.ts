// Who may stop, skip or end what SayBot plays in a server (/stop, /skip, /leave). A member in SayBot's voice channel
// acts on what they asked for; what others asked for needs a voice moderator's rights (Mute Members or Move Members in
// that channel) or Manage Server; a member elsewhere without those changes nothing. Leaving ends every clip, so a
// member without those rights may make SayBot leave only when nothing of anyone else's is playing or queued.
// While SayBot is joining, SayBot's voice channel is the one it is joining (GuildPlayer.channelId): the orders waiting
// for the join will play there, so that is where a member acts on their own and a moderator on everyone's.
import { PermissionFlagsBits } from 'discord.js';
import type { ClipOwner, GuildPlayer } from '../../core/voice/guild-player.ts';
import type { BotCommandInteraction } from '../../core/interactions/command.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';

/** Every clip, or only the member's own. */
export type PlayerControl = { kind: 'all' } | { kind: 'own'; userId: string };

/**
 * What the member may act on in SayBot's voice channel `channelId`; refused when they are elsewhere and no moderator.
 */
export function playerControl(interaction: BotCommandInteraction<'cached'>, channelId: string): PlayerControl {
  if (moderatesVoice(interaction, channelId)) return { kind: 'all' };
  if (interaction.member.voice.channelId === channelId) return { kind: 'own', userId: interaction.user.id };
  throw new UserError('player.notInChannel', { channel: `<#${channelId}>` });
}

/**
 * What /stop tells a member who stopped nothing while SayBot is in no voice channel: nothing of anyone's plays or waits
 * there, so a voice moderator (Manage Server, or Mute Members or Move Members in the server) is told just that, and any
 * other member what they hear in voice when nothing of theirs plays (others' files being made are theirs alone).
 */
export function nothingToStop(interaction: BotCommandInteraction<'cached'>): 'stop.nothing' | 'stop.nothingOwn' {
  const moderator = interaction.memberPermissions.any([
    PermissionFlagsBits.ManageGuild,
    PermissionFlagsBits.MuteMembers,
    PermissionFlagsBits.MoveMembers,
  ]);
  return moderator ? 'stop.nothing' : 'stop.nothingOwn';
}

/** Manage Server, or Mute Members or Move Members in SayBot's voice channel `channelId`. */
function moderatesVoice(interaction: BotCommandInteraction<'cached'>, channelId: string): boolean {
  if (interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) return true;
  const channel = interaction.guild.channels.cache.get(channelId);
  return (
    channel
      ?.permissionsFor(interaction.member)
      ?.any([PermissionFlagsBits.MuteMembers, PermissionFlagsBits.MoveMembers]) ?? false
  );
}

/**
 * Refuses (privately, nothing cut) a member who would end others' clips by making SayBot leave `channelId`: only a
 * voice moderator may, unless every clip playing or queued is the member's own.
 */
export function requireMayLeave(
  interaction: BotCommandInteraction<'cached'>,
  player: GuildPlayer,
  channelId: string,
): void {
  if (moderatesVoice(interaction, channelId)) return;
  const othersHeld = player.clips.some((item) => item.requestedBy?.userId !== interaction.user.id);
  if (othersHeld) throw new UserError('leave.othersQueued', { channel: `<#${channelId}>` });
}

/** The clips a member may skip: their own requests, their own chat message being read aloud included. */
export function skippable(control: PlayerControl): ((item: ClipOwner) => boolean) | undefined {
  if (control.kind === 'all') return undefined;
  return (item) => item.requestedBy?.userId === control.userId;
}

/**
 * The clips a member may stop: their own requests, unless made as not theirs to stop (auto-read's: stopping one
 * drops every unread message, as a stop empties the queue, which is the channel's reading, not the member's; their
 * own message being read they may /skip).
 */
export function stoppable(control: PlayerControl): ((item: ClipOwner) => boolean) | undefined {
  if (control.kind === 'all') return undefined;
  return (item) => item.requestedBy?.userId === control.userId && item.requestedBy.requesterMayStop;
}
