// FakeDiscord's servers as their managers and moderators change them: roles and their permissions, members removed,
// given roles or timed out, channels' overwrites and slowmode, and whether a person accepts direct messages. Each
// change is told to the bots there as Discord tells them (the intents each one asked for).
import { FakeDiscordBots } from './fake-bots.ts';
import {
  GatewayIntent,
  channelPayload,
  memberPayload,
  overwriteRecord,
  rolePayload,
  userPayload,
  type ChannelRecord,
} from './state.ts';
import type { FakeOverwrite } from './types.ts';

export class FakeDiscordServers extends FakeDiscordBots {
  /**
   * A manager changes a role's permissions (the guild's own ID is @everyone's), e.g. takes Speak from everyone:
   * GUILD_ROLE_UPDATE with `guild_id` and the role, as Discord sends it (Guilds intent).
   */
  setRolePermissions(guildId: string, roleId: string, permissions: bigint): void {
    const guild = this.parts.world.guild(guildId);
    const role = guild.roles.find((r) => r.id === roleId);
    if (!role) throw new Error(`FakeDiscord: ${roleId} is not a role of guild ${guildId}`);
    role.permissions = permissions;
    this.parts.gateway.dispatchToGuild(
      guildId,
      'GUILD_ROLE_UPDATE',
      { guild_id: guildId, role: rolePayload(role) },
      GatewayIntent.Guilds,
    );
  }

  /**
   * A moderator removes a member: a kick (`ban` false) or a ban. As Discord does it: out of their voice channel
   * (VOICE_STATE_UPDATE), then GUILD_MEMBER_REMOVE, sent only to a bot with the privileged Guild Members intent, and
   * for a ban GUILD_BAN_ADD (Guild Moderation intent). A bot without them is told nothing: its
   * GET /guilds/{id}/members/{user} now answers 404 Unknown Member (10007), and the member's guild list no longer
   * has the server. The person is still a Discord user (they can log in elsewhere).
   */
  removeMember(guildId: string, userId: string, how: 'kick' | 'ban' = 'kick'): void {
    const guild = this.parts.world.guild(guildId);
    if (userId === this.parts.world.bot.id) throw new Error('FakeDiscord: use removeBot for the bot');
    const inVoice = guild.voiceStates.has(userId);
    const member = guild.removeMember(userId);
    if (!member) throw new Error(`FakeDiscord: ${userId} is not a member of guild ${guildId}`);
    this.parts.world.formerMembers.set(userId, member.user);
    if (inVoice) this.parts.signalling.changed(guildId, userId);
    const { gateway } = this.parts;
    if (how === 'ban') {
      guild.bans.add(userId);
      gateway.dispatchToGuild(
        guildId,
        'GUILD_BAN_ADD',
        { guild_id: guildId, user: userPayload(member.user) },
        GatewayIntent.GuildModeration,
      );
    }
    gateway.dispatchToGuild(
      guildId,
      'GUILD_MEMBER_REMOVE',
      { guild_id: guildId, user: userPayload(member.user) },
      GatewayIntent.GuildMembers,
    );
  }

  /**
   * A manager gives a member these roles (e.g. takes away the one that gave Manage Server): GUILD_MEMBER_UPDATE,
   * sent only to a bot with the Guild Members intent; without it only GET /guilds/{id}/members/{user} tells.
   */
  setMemberRoles(guildId: string, userId: string, roleIds: string[]): void {
    const guild = this.parts.world.guild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`FakeDiscord: ${userId} is not a member of guild ${guildId}`);
    const unknown = roleIds.find((id) => !guild.roles.some((role) => role.id === id));
    if (unknown !== undefined) throw new Error(`FakeDiscord: ${unknown} is not a role of guild ${guildId}`);
    member.roles = [...roleIds];
    this.memberUpdated(guildId, userId);
  }

  /**
   * A moderator times a member out until `until` (null lifts it), as Modify Guild Member's
   * `communication_disabled_until` does: `moderatorId` (default the server's owner) needs Moderate Members, the owner
   * and administrators cannot be timed out, and the end is at most 28 days ahead (GuildRecord.setTimedOutUntil).
   * Until then the member keeps only View Channel and Read Message History (their interactions' `permissions` say
   * so), posts nothing and joins no voice channel. GUILD_MEMBER_UPDATE follows, sent only to a bot with the Guild
   * Members intent; without it a bot learns of it from the member object of an interaction, a voice state or a lookup.
   */
  setMemberTimeout(guildId: string, userId: string, until: Date | null, moderatorId?: string): void {
    const guild = this.parts.world.guild(guildId);
    const refused = guild.setTimedOutUntil(
      moderatorId ?? guild.ownerId,
      userId,
      until === null ? null : until.toISOString(),
    );
    if (refused) throw new Error(`FakeDiscord: timing out ${userId} refused: ${refused.status} ${refused.code}`);
    this.memberUpdated(guildId, userId);
  }

  /** GUILD_MEMBER_UPDATE for a member changed (roles, a timeout), to a session with the Guild Members intent. */
  protected memberUpdated(guildId: string, userId: string): void {
    const guild = this.parts.world.guild(guildId);
    const member = guild.members.get(userId);
    if (!member) return;
    this.parts.gateway.dispatchToGuild(
      guildId,
      'GUILD_MEMBER_UPDATE',
      { guild_id: guildId, ...memberPayload(guild, member) },
      GatewayIntent.GuildMembers,
    );
  }

  /** A member's role IDs in a guild (without @everyone's). */
  memberRoles(guildId: string, userId: string): string[] {
    const member = this.parts.world.guild(guildId).members.get(userId);
    if (!member) throw new Error(`FakeDiscord: ${userId} is not a member of guild ${guildId}`);
    return [...member.roles];
  }

  /** Replaces a channel's permission overwrites (CHANNEL_UPDATE), e.g. a member denied Send Messages there. */
  setChannelOverwrites(guildId: string, channelId: string, overwrites: FakeOverwrite[]): void {
    this.updateChannel(guildId, channelId, (channel) => {
      channel.overwrites = overwrites.map(overwriteRecord);
    });
  }

  /** Sets a text channel's slowmode, seconds between a member's messages (CHANNEL_UPDATE); 0 turns it off. */
  setSlowmode(guildId: string, channelId: string, seconds: number): void {
    this.updateChannel(guildId, channelId, (channel) => {
      channel.rateLimitPerUser = seconds;
    });
  }

  private updateChannel(guildId: string, channelId: string, change: (channel: ChannelRecord) => void): void {
    const guild = this.parts.world.guild(guildId);
    const channel = guild.channels.get(channelId);
    if (!channel) throw new Error(`FakeDiscord: ${channelId} is not a channel of guild ${guildId}`);
    change(channel);
    this.parts.gateway.dispatchToGuild(guildId, 'CHANNEL_UPDATE', channelPayload(guild, channel));
  }

  /** Whether a member accepts direct messages from the bot (closed: sending is refused with 403 50007). */
  setDirectMessages(userId: string, open: boolean): void {
    const user = this.parts.world.findUser(userId);
    if (!user) throw new Error(`FakeDiscord: unknown user ${userId}`);
    user.dmsClosed = !open;
  }
}
