// Who may stop, skip or end what SayBot plays: in its channel a member acts on their own requests, a voice moderator
// on everyone's; leaving ends every clip, so only when nothing of anyone else's plays or waits.
import { PermissionFlagsBits } from 'discord.js';
import type { ClipOwner, GuildPlayer } from '../../core/voice/guild-player.ts';
import type { BotCommandInteraction } from '../../core/interactions/command.ts';
import type { Seats } from '../../core/voice/seats.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';

/** Every clip, or only the member's own. */
export type PlayerControl = { kind: 'all' } | { kind: 'own'; userId: string };

/**
 * The player /leave, /stop and /skip act on: the seat in the member's voice channel; with none there (or outside
 * voice), the main bot's, as with no helper: a helper's seat is acted on only from its own channel.
 */
export function playerHere(interaction: BotCommandInteraction<'cached'>, seats: Seats): GuildPlayer | undefined {
  const channelId = interaction.member.voice.channelId;
  const seat = channelId === null ? undefined : seats.inChannel(interaction.guildId, channelId);
  return (seat?.bot ?? seats.main).players.find(interaction.guildId);
}

/** What the member may act on in SayBot's voice channel; refused when elsewhere and no moderator. */
export function playerControl(interaction: BotCommandInteraction<'cached'>, channelId: string): PlayerControl {
  if (moderatesVoice(interaction, channelId)) return { kind: 'all' };
  if (interaction.member.voice.channelId === channelId) return { kind: 'own', userId: interaction.user.id };
  throw new UserError('player.notInChannel', { channel: `<#${channelId}>` });
}

/** What /stop tells a member who stopped nothing while SayBot is in no voice channel: a moderator, or anyone else. */
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

/** Refuses a member who would end others' clips by making SayBot leave, unless every clip is their own. */
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

/** The clips a member may stop: their own, except auto-read's (a stop empties the channel's reading; /skip works). */
export function stoppable(control: PlayerControl): ((item: ClipOwner) => boolean) | undefined {
  if (control.kind === 'all') return undefined;
  return (item) => item.requestedBy?.userId === control.userId && item.requestedBy.requesterMayStop;
}
