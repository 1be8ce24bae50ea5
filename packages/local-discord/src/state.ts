// The fake's world: guilds, members, roles, channels and voice states, and how Discord shows them in payloads.
import { pictureHash } from './pictures.ts';
import { PermissionFlagsBits } from 'discord.js';
import { randomToken, snowflake } from './snowflake.ts';
import type { FakeGuildSpec, FakeOverwrite } from './types.ts';

const P = PermissionFlagsBits;
export const DEFAULT_PERMISSIONS =
  P.ViewChannel |
  P.SendMessages |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.AddReactions |
  P.Connect |
  P.Speak |
  P.UseVAD |
  P.UseApplicationCommands;
export const ALL_PERMISSIONS = Object.values(P).reduce((all, bit) => all | bit, 0n);
/**
 * What a timed-out member keeps ("Permissions for Timed Out Members"): every other permission is gone, wherever
 * they are, until the timeout ends. Owners and administrators are exempt.
 */
export const TIMED_OUT_PERMISSIONS = P.ViewChannel | P.ReadMessageHistory;
/** Modify Guild Member's communication_disabled_until: "up to 28 days in the future". */
export const MAX_TIMEOUT_MS = 28 * 24 * 60 * 60_000;

export const GatewayIntent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildModeration: 1 << 2,
  GuildVoiceStates: 1 << 7,
  GuildPresences: 1 << 8,
  MessageContent: 1 << 15,
} as const;
export const PRIVILEGED_INTENTS =
  GatewayIntent.GuildMembers | GatewayIntent.GuildPresences | GatewayIntent.MessageContent;

/** `dmsClosed`: the user accepts no direct messages from the bot (Discord answers 403 50007). */
export interface UserRecord {
  id: string;
  username: string;
  bot: boolean;
  dmsClosed?: boolean;
  /** The avatar's hash (pictures.ts), or none. */
  avatar?: string | null;
}
export interface RoleRecord {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
  managed: boolean;
}
export interface MemberRecord {
  user: UserRecord;
  roles: string[];
  joinedAt: string;
  locale: string | undefined;
  /**
   * When the member's timeout ends (ISO 8601), as a moderator set it; null or absent when none was set. A time in the
   * past is a timeout that ended: Discord leaves the value as it was, and the member may speak again.
   */
  communicationDisabledUntil?: string | null;
}
/** Discord's refusal of a request (its HTTP status, JSON code and message). */
export interface Refused {
  status: number;
  code: number;
  message: string;
}
/** A soundboard sound as stored (soundboard.ts): its object and its decoded bytes, for tests to listen to. */
export interface StoredSound {
  object: Record<string, unknown>;
  contentType: string;
  data: Buffer;
}
/**
 * `mute`/`deaf`: a moderator's server mute and deafen (kept across channels, as Discord keeps them); `suppress`: a
 * Stage listener not made a speaker (Discord sets it on entering a Stage, clears it on leaving one).
 */
export interface VoiceStateRecord {
  userId: string;
  channelId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  mute: boolean;
  deaf: boolean;
  suppress: boolean;
  /** A Stage listener's raised hand (ISO time), null when none; cleared on leaving the channel. */
  requestToSpeakTimestamp?: string | null;
}
/** What a moderator (or a Stage) sets on a member's voice state. */
export interface VoiceModeration {
  mute?: boolean;
  deaf?: boolean;
  suppress?: boolean;
}
/** Discord's channel types the local Discord has: text, voice, and Stage. */
export type ChannelType = 0 | 2 | 13;
export const STAGE_CHANNEL = 13;
/** A channel's permission overwrite: for a role (type 0; the guild's ID is @everyone) or a member (type 1). */
export interface OverwriteRecord {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}
/** `rateLimitPerUser`: slowmode, seconds between a member's messages (0: none). */
export interface ChannelRecord {
  id: string;
  name: string;
  type: ChannelType;
  position: number;
  overwrites: OverwriteRecord[];
  rateLimitPerUser: number;
}

export function overwriteRecord(overwrite: FakeOverwrite): OverwriteRecord {
  return { id: overwrite.id, type: overwrite.type, allow: overwrite.allow ?? 0n, deny: overwrite.deny ?? 0n };
}

export class GuildRecord {
  readonly id: string;
  readonly name: string;
  readonly preferredLocale: string;
  /** The icon's hash (pictures.ts), or none. */
  readonly icon: string | null;
  readonly ownerId: string;
  readonly textChannelId: string;
  readonly channels = new Map<string, ChannelRecord>();
  readonly roles: RoleRecord[] = [];
  readonly members = new Map<string, MemberRecord>();
  readonly voiceStates = new Map<string, VoiceStateRecord>();
  /**
   * A moderator's server mute and deafen are the member's in the guild, not their voice state's: Discord keeps them
   * across a leave and a join, and sends them in the voice state even with channel_id null.
   */
  readonly guildModeration = new Map<string, { mute: boolean; deaf: boolean }>();
  /** Soundboard sounds created with POST /guilds/{id}/soundboard-sounds (soundboard.ts), oldest first. */
  readonly soundboardSounds: StoredSound[] = [];
  /** Voice channels' statuses (PUT /channels/{id}/voice-status), by channel ID; none when unset. */
  readonly voiceStatuses = new Map<string, string>();
  /** Users banned from the guild (a moderator's ban): they are not members, and cannot be added back as members. */
  readonly bans = new Set<string>();
  readonly joinedAt = new Date().toISOString();
  /** What the bot's own role allows when it is added (again). */
  readonly #botPermissions: bigint;

  constructor(spec: FakeGuildSpec, bot: UserRecord) {
    this.id = spec.id;
    this.name = spec.name;
    this.preferredLocale = spec.preferredLocale ?? 'en-US';
    this.icon = spec.icon === true ? pictureHash('icon', spec.id) : null;
    this.textChannelId = spec.textChannelId;
    const add = (channel: {
      id: string;
      name: string;
      type: ChannelType;
      position: number;
      overwrites?: FakeOverwrite[];
      rateLimitPerUser?: number;
    }): void => {
      if (this.channels.has(channel.id))
        throw new Error(`FakeDiscord: duplicate channel id ${channel.id} in guild ${spec.id}`);
      this.channels.set(channel.id, {
        ...channel,
        overwrites: (channel.overwrites ?? []).map(overwriteRecord),
        rateLimitPerUser: channel.rateLimitPerUser ?? 0,
      });
    };
    add({ id: spec.textChannelId, name: 'general', type: 0, position: 0 });
    spec.voiceChannels.forEach((vc, index) => add({ ...vc, type: 2, position: index + 1 }));
    (spec.textChannels ?? []).forEach((tc, index) =>
      add({ ...tc, type: 0, position: spec.voiceChannels.length + index + 1 }),
    );
    const stagesFrom = this.channels.size;
    (spec.stageChannels ?? []).forEach((sc, index) =>
      add({ ...sc, type: STAGE_CHANNEL, position: stagesFrom + index }),
    );
    this.roles.push({
      id: spec.id,
      name: '@everyone',
      permissions: spec.everyonePermissions ?? DEFAULT_PERMISSIONS,
      position: 0,
      managed: false,
    });
    this.#botPermissions = spec.botPermissions ?? DEFAULT_PERMISSIONS;
    const botRole = {
      id: snowflake(),
      name: bot.username,
      permissions: this.#botPermissions,
      position: 1,
      managed: true,
    };
    this.roles.push(botRole);
    for (const member of spec.members) {
      if (this.members.has(member.id))
        throw new Error(`FakeDiscord: duplicate member ${member.id} in guild ${spec.id}`);
      const roles: string[] = [];
      if (member.permissions !== undefined) {
        const role = {
          id: snowflake(),
          name: `perms-${member.username}`,
          permissions: member.permissions,
          position: 2,
          managed: false,
        };
        this.roles.push(role);
        roles.push(role.id);
      }
      const user = {
        id: member.id,
        username: member.username,
        bot: member.bot ?? false,
        dmsClosed: member.dmsClosed ?? false,
        avatar: member.avatar === true ? pictureHash('avatar', member.id) : null,
      };
      this.members.set(member.id, { user, roles, joinedAt: this.joinedAt, locale: member.locale });
      if (member.voiceChannelId !== undefined) this.setVoiceState(member.id, member.voiceChannelId);
    }
    const botMember = this.members.get(bot.id);
    if (botMember) botMember.roles.push(botRole.id);
    else this.members.set(bot.id, { user: bot, roles: [botRole.id], joinedAt: this.joinedAt, locale: undefined });
    if (spec.ownerId !== undefined) {
      if (!this.members.has(spec.ownerId))
        throw new Error(`FakeDiscord: owner ${spec.ownerId} is not a member of guild ${spec.id}`);
      this.ownerId = spec.ownerId;
    } else {
      this.ownerId = snowflake();
      const owner = { id: this.ownerId, username: `owner-${spec.id}`, bot: false };
      this.members.set(owner.id, { user: owner, roles: [], joinedAt: this.joinedAt, locale: undefined });
    }
  }

  /**
   * The bot leaves (DELETE /users/@me/guilds/{id}): as on Discord, its member, its voice state and the role made
   * for it go with it. True when it was in voice here.
   */
  removeBotMember(botId: string): boolean {
    const roles = this.members.get(botId)?.roles ?? [];
    const index = this.roles.findIndex((r) => r.managed && roles.includes(r.id));
    if (index >= 0) this.roles.splice(index, 1);
    this.members.delete(botId);
    const inVoice = this.voiceStates.has(botId);
    this.setVoiceState(botId, null);
    return inVoice;
  }

  /**
   * A member leaves the guild (kicked, banned, or on their own): their member record and voice state go; the role a
   * spec's `permissions` made for them stays (a role outlives its holders). The member record, or undefined.
   */
  removeMember(userId: string): MemberRecord | undefined {
    const member = this.members.get(userId);
    if (!member) return undefined;
    this.members.delete(userId);
    this.setVoiceState(userId, null);
    return member;
  }

  /** A bot is added (back) to a guild: a member again, with a new role of its own (`permissions`, default the spec's). */
  addBotMember(bot: UserRecord, permissions: bigint = this.#botPermissions): void {
    if (this.members.has(bot.id)) return;
    const role = { id: snowflake(), name: bot.username, permissions, position: 1, managed: true };
    this.roles.push(role);
    this.members.set(bot.id, { user: bot, roles: [role.id], joinedAt: new Date().toISOString(), locale: undefined });
  }

  /** A channel one can join for voice: a voice channel or a Stage. */
  voiceChannel(channelId: string): ChannelRecord | undefined {
    const channel = this.channels.get(channelId);
    return channel?.type === 2 || channel?.type === STAGE_CHANNEL ? channel : undefined;
  }

  /**
   * Records a member's voice state; returns it, or undefined when they left. Entering a Stage suppresses (the
   * audience), leaving one lifts it; `moderation` sets the moderator's flags (and a Stage speaker's `suppress`).
   */
  setVoiceState(
    userId: string,
    channelId: string | null,
    flags?: { selfMute?: boolean; selfDeaf?: boolean; sessionId?: string },
    moderation: VoiceModeration = {},
  ): VoiceStateRecord | undefined {
    const previous = this.voiceStates.get(userId);
    const kept = this.guildModeration.get(userId);
    const mute = moderation.mute ?? previous?.mute ?? kept?.mute ?? false;
    const deaf = moderation.deaf ?? previous?.deaf ?? kept?.deaf ?? false;
    if (mute || deaf) this.guildModeration.set(userId, { mute, deaf });
    else this.guildModeration.delete(userId);
    if (channelId === null) {
      this.voiceStates.delete(userId);
      this.clearStatusIfEmpty(previous?.channelId);
      return undefined;
    }
    const channel = this.voiceChannel(channelId);
    if (!channel) throw new Error(`FakeDiscord: ${channelId} is not a voice channel of guild ${this.id}`);
    const entered = previous?.channelId !== channelId;
    const state = {
      userId,
      channelId,
      sessionId: flags?.sessionId ?? previous?.sessionId ?? randomToken(16),
      selfMute: flags?.selfMute ?? previous?.selfMute ?? false,
      selfDeaf: flags?.selfDeaf ?? previous?.selfDeaf ?? false,
      mute,
      deaf,
      suppress: moderation.suppress ?? (entered ? channel.type === STAGE_CHANNEL : (previous?.suppress ?? false)),
      requestToSpeakTimestamp: entered ? null : (previous?.requestToSpeakTimestamp ?? null),
    };
    this.voiceStates.set(userId, state);
    if (previous?.channelId !== channelId) this.clearStatusIfEmpty(previous?.channelId);
    return state;
  }

  /**
   * Modify Current User Voice State (PATCH /guilds/{guild}/voice-states/@me), as Discord checks it: `channel_id` must
   * be the Stage the user is in; unsuppressing oneself needs Mute Members there, raising one's hand Request to Speak;
   * one may always suppress oneself or lower one's hand. The error to answer, else undefined (the state changed).
   */
  editOwnVoiceState(
    userId: string,
    edit: { channelId: unknown; suppress?: unknown; requestToSpeakTimestamp?: unknown },
  ): Refused | undefined {
    const state = this.voiceStates.get(userId);
    const channel = typeof edit.channelId === 'string' ? this.channels.get(edit.channelId) : undefined;
    if (!channel || !state || state.channelId !== channel.id)
      return { status: 400, code: 50035, message: 'Invalid Form Body' };
    if (channel.type !== STAGE_CHANNEL)
      return { status: 400, code: 50024, message: 'Cannot execute action on this channel type' };
    const permissions = this.permissionsIn(userId, channel.id);
    const { suppress, requestToSpeakTimestamp: hand } = edit;
    if (suppress !== undefined && typeof suppress !== 'boolean')
      return { status: 400, code: 50035, message: 'Invalid Form Body' };
    if (hand !== undefined && hand !== null && (typeof hand !== 'string' || Number.isNaN(Date.parse(hand))))
      return { status: 400, code: 50035, message: 'Invalid Form Body' };
    const missing = { status: 403, code: 50013, message: 'Missing Permissions' };
    if (suppress === false && (permissions & PermissionFlagsBits.MuteMembers) === 0n) return missing;
    if (typeof hand === 'string' && (permissions & PermissionFlagsBits.RequestToSpeak) === 0n) return missing;
    if (typeof suppress === 'boolean') state.suppress = suppress;
    if (hand !== undefined) state.requestToSpeakTimestamp = hand as string | null;
    return undefined;
  }

  /** Discord clears a voice channel's status once nobody is left in it. */
  private clearStatusIfEmpty(channelId: string | undefined): void {
    if (channelId === undefined) return;
    if (![...this.voiceStates.values()].some((vs) => vs.channelId === channelId)) this.voiceStatuses.delete(channelId);
  }

  /**
   * A member's permissions in a channel, as Discord computes them: the guild's, then the channel's overwrites
   * (@everyone, the member's roles together, the member), each deny before its allow. Without View Channel nothing
   * else counts; in a text channel, without Send Messages neither do the permissions that only go with a message.
   * `ignoringTimeout`: as if the member were not timed out (what their roles and the overwrites give them).
   */
  permissionsIn(userId: string, channelId: string, ignoringTimeout = false): bigint {
    const base = ignoringTimeout ? this.rolePermissionsOf(userId) : this.permissionsOf(userId);
    if ((base & P.Administrator) !== 0n || userId === this.ownerId) return ALL_PERMISSIONS;
    const channel = this.channels.get(channelId);
    if (!channel) return base;
    let bits = base;
    const apply = (deny: bigint, allow: bigint): void => {
      bits = (bits & ~deny) | allow;
    };
    const everyone = channel.overwrites.find((o) => o.type === 0 && o.id === this.id);
    if (everyone) apply(everyone.deny, everyone.allow);
    const roles = this.members.get(userId)?.roles ?? [];
    const roleOverwrites = channel.overwrites.filter((o) => o.type === 0 && o.id !== this.id && roles.includes(o.id));
    apply(
      roleOverwrites.reduce((d, o) => d | o.deny, 0n),
      roleOverwrites.reduce((a, o) => a | o.allow, 0n),
    );
    const own = channel.overwrites.find((o) => o.type === 1 && o.id === userId);
    if (own) apply(own.deny, own.allow);
    if ((bits & P.ViewChannel) === 0n) return 0n;
    // A timeout takes what the channel's overwrites allow as well: only viewing and reading history are left.
    if (!ignoringTimeout && this.isTimedOut(userId)) return bits & TIMED_OUT_PERMISSIONS;
    if (channel.type === 0 && (bits & P.SendMessages) === 0n) {
      bits &= ~(
        P.SendTTSMessages |
        P.MentionEveryone |
        P.AttachFiles |
        P.EmbedLinks |
        P.SendVoiceMessages |
        P.SendPolls
      );
    }
    return bits;
  }

  /** A member's permissions in the guild: their roles' (all for the owner and administrators), cut by a timeout. */
  permissionsOf(userId: string): bigint {
    const bits = this.rolePermissionsOf(userId);
    return this.isTimedOut(userId) ? bits & TIMED_OUT_PERMISSIONS : bits;
  }

  /** The union of @everyone's and the member's roles' permissions; all of them for the owner or an Administrator. */
  private rolePermissionsOf(userId: string): bigint {
    if (userId === this.ownerId) return ALL_PERMISSIONS;
    const member = this.members.get(userId);
    let bits = this.roles[0]?.permissions ?? 0n;
    for (const roleId of member?.roles ?? []) bits |= this.roles.find((r) => r.id === roleId)?.permissions ?? 0n;
    return (bits & P.Administrator) !== 0n ? ALL_PERMISSIONS : bits;
  }

  /**
   * Whether a member is timed out at `now` (the host's wall clock, which discord.js compares the timestamp with):
   * their timeout ends later. The owner and administrators are exempt, as Discord exempts them.
   */
  isTimedOut(userId: string, now: number = Date.now()): boolean {
    const until = this.members.get(userId)?.communicationDisabledUntil;
    if (until === undefined || until === null || !(Date.parse(until) > now)) return false;
    return (this.rolePermissionsOf(userId) & P.Administrator) === 0n;
  }

  /**
   * Modify Guild Member's `communication_disabled_until`, as Discord checks it: `actorId` (a moderator, or the bot
   * over REST) needs Moderate Members; the owner and an Administrator cannot be timed out (403); the end must be an
   * ISO 8601 time at most 28 days ahead, or null to lift the timeout. The refusal, else undefined (the member changed).
   */
  setTimedOutUntil(actorId: string, userId: string, until: unknown, now: number = Date.now()): Refused | undefined {
    const member = this.members.get(userId);
    if (!member) return { status: 404, code: 10007, message: 'Unknown Member' };
    const invalid = { status: 400, code: 50035, message: 'Invalid Form Body' };
    if (until !== null && (typeof until !== 'string' || Number.isNaN(Date.parse(until)))) return invalid;
    const missing = { status: 403, code: 50013, message: 'Missing Permissions' };
    if ((this.permissionsOf(actorId) & P.ModerateMembers) === 0n) return missing;
    if (userId === this.ownerId || (this.rolePermissionsOf(userId) & P.Administrator) !== 0n) return missing;
    if (until !== null && Date.parse(until) > now + MAX_TIMEOUT_MS) return invalid;
    member.communicationDisabledUntil = until === null ? null : new Date(Date.parse(until)).toISOString();
    return undefined;
  }
}

// ---- payloads, as Discord sends them ----

export function userPayload(user: UserRecord): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    global_name: user.bot ? null : user.username,
    discriminator: '0',
    avatar: user.avatar ?? null,
    bot: user.bot,
    system: false,
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    primary_guild: null,
    collectibles: null,
  };
}

/** `withPermissions`: an interaction's member carries their permissions in the interaction's channel. */
export function memberPayload(
  guild: GuildRecord,
  member: MemberRecord,
  withPermissions: boolean | { channelId: string } = false,
): Record<string, unknown> {
  return {
    user: userPayload(member.user),
    nick: null,
    avatar: null,
    banner: null,
    roles: member.roles,
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: guild.voiceStates.get(member.user.id)?.deaf ?? false,
    mute: guild.voiceStates.get(member.user.id)?.mute ?? false,
    flags: 0,
    pending: false,
    communication_disabled_until: member.communicationDisabledUntil ?? null,
    ...(withPermissions === false
      ? {}
      : {
          permissions: (withPermissions === true
            ? guild.permissionsOf(member.user.id)
            : guild.permissionsIn(member.user.id, withPermissions.channelId)
          ).toString(),
        }),
  };
}

export function rolePayload(role: RoleRecord): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.managed,
    mentionable: false,
    flags: 0,
    ...(role.managed ? { tags: {} } : {}),
  };
}

export function channelPayload(guild: GuildRecord, channel: ChannelRecord): Record<string, unknown> {
  const common = {
    id: channel.id,
    type: channel.type,
    guild_id: guild.id,
    name: channel.name,
    position: channel.position,
    permission_overwrites: channel.overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow.toString(),
      deny: o.deny.toString(),
    })),
    parent_id: null,
    nsfw: false,
    rate_limit_per_user: channel.rateLimitPerUser,
    last_message_id: null,
    flags: 0,
  };
  return channel.type !== 0
    ? { ...common, bitrate: 64_000, user_limit: 0, rtc_region: null, video_quality_mode: 1 }
    : { ...common, topic: null };
}

export function voiceStatePayload(
  guild: GuildRecord,
  userId: string,
  state: VoiceStateRecord | undefined,
  sessionId?: string,
): Record<string, unknown> {
  const member = guild.members.get(userId);
  return {
    guild_id: guild.id,
    channel_id: state?.channelId ?? null,
    user_id: userId,
    ...(member ? { member: memberPayload(guild, member) } : {}),
    session_id: state?.sessionId ?? sessionId ?? randomToken(16),
    deaf: state?.deaf ?? guild.guildModeration.get(userId)?.deaf ?? false,
    mute: state?.mute ?? guild.guildModeration.get(userId)?.mute ?? false,
    self_deaf: state?.selfDeaf ?? false,
    self_mute: state?.selfMute ?? false,
    self_stream: false,
    self_video: false,
    suppress: state?.suppress ?? false,
    request_to_speak_timestamp: state?.requestToSpeakTimestamp ?? null,
  };
}

/** A DM channel (type 1) as Discord returns it from POST /users/@me/channels. */
export function dmChannelPayload(channelId: string, recipient: UserRecord): Record<string, unknown> {
  return { id: channelId, type: 1, last_message_id: null, flags: 0, recipients: [userPayload(recipient)] };
}

export function guildPayload(guild: GuildRecord): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: guild.roles.map(rolePayload),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: guild.textChannelId,
    system_channel_flags: 0,
    rules_channel_id: null,
    max_members: 500_000,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
  };
}

/** GUILD_CREATE for a client with these intents: without GUILD_PRESENCES Discord lists only the bot and members in voice. */
export function guildCreatePayload(guild: GuildRecord, botId: string, intents: number): Record<string, unknown> {
  const everyone = (intents & GatewayIntent.GuildPresences) !== 0;
  const members = [...guild.members.values()].filter(
    (m) => everyone || m.user.id === botId || guild.voiceStates.has(m.user.id),
  );
  const voiceStates =
    (intents & GatewayIntent.GuildVoiceStates) !== 0
      ? [...guild.voiceStates.values()].map((vs) => {
          const { guild_id: _guildId, member: _member, ...rest } = voiceStatePayload(guild, vs.userId, vs);
          return rest;
        })
      : [];
  return {
    ...guildPayload(guild),
    joined_at: guild.joinedAt,
    large: false,
    unavailable: false,
    member_count: guild.members.size,
    voice_states: voiceStates,
    members: members.map((m) => memberPayload(guild, m)),
    channels: [...guild.channels.values()].map((c) => {
      const { guild_id: _guildId, ...rest } = channelPayload(guild, c);
      return rest;
    }),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
