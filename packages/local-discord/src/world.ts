// The fake's world: its guilds (those the main bot is in, and those it left, which go on without it), their former
// members, DM channels, and the bot applications it serves: the main one (FakeDiscordOptions) and helpers added with
// FakeDiscord.addBotApplication, each its own application, bot user and token, as on Discord.
import { fakeToken } from './bot-identity.ts';
import { snowflake } from './snowflake.ts';
import { GuildRecord, type ChannelRecord, type UserRecord } from './state.ts';
import type { FakeDiscordOptions } from './types.ts';

/** Discord's session start limit: IDENTIFYs a token may make in a day. */
export const IDENTIFY_LIMIT = 1000;
const DAY_MS = 86_400_000;

/** One bot application: its ID, bot user, token (a reset replaces it), portal switches and identify budget. */
export class BotApplication {
  readonly applicationId: string;
  readonly user: UserRecord;
  readonly main: boolean;
  /** The application's Public Bot switch (bot_public), as its owner sets it in the Developer Portal. */
  botPublic: boolean;
  readonly ownerId: string;
  /** Privileged intents switched on in the portal (bitfield); others close the gateway with 4014. */
  readonly allowedPrivilegedIntents: number;
  #token: string;
  readonly #identifyLimit: number;
  #identifies = 0;
  #windowStart: number | undefined;

  constructor(spec: {
    applicationId: string;
    user: UserRecord;
    token: string;
    main: boolean;
    botPublic: boolean;
    ownerId: string;
    allowedPrivilegedIntents: number;
    identifyLimit: number;
  }) {
    this.applicationId = spec.applicationId;
    this.user = spec.user;
    this.main = spec.main;
    this.botPublic = spec.botPublic;
    this.ownerId = spec.ownerId;
    this.allowedPrivilegedIntents = spec.allowedPrivilegedIntents;
    this.#token = spec.token;
    this.#identifyLimit = spec.identifyLimit;
  }

  get token(): string {
    return this.#token;
  }

  /** Whether an IDENTIFY's or an Authorization header's token is this bot's (with or without "Bot "). */
  owns(token: unknown): boolean {
    return token === this.#token || token === `Bot ${this.#token}`;
  }

  /** The token is reset (in the portal, or by Discord past the session start limit): the old one works no more. */
  resetToken(): string {
    this.#token = fakeToken();
    return this.#token;
  }

  /** GET /gateway/bot's session_start_limit for this token now. */
  sessionStartLimit(now = Date.now()): { total: number; remaining: number; reset_after: number } {
    this.#roll(now);
    const start = this.#windowStart;
    return {
      total: this.#identifyLimit,
      remaining: this.#identifyLimit - this.#identifies,
      reset_after: start === undefined ? DAY_MS : Math.max(0, start + DAY_MS - now),
    };
  }

  /** Counts an IDENTIFY against the day's budget: false when it is spent (Discord then resets the token). */
  spendIdentify(now = Date.now()): boolean {
    this.#roll(now);
    this.#windowStart ??= now;
    if (this.#identifies >= this.#identifyLimit) return false;
    this.#identifies++;
    return true;
  }

  #roll(now: number): void {
    if (this.#windowStart !== undefined && now - this.#windowStart >= DAY_MS) {
      this.#windowStart = undefined;
      this.#identifies = 0;
    }
  }
}

export class World {
  /** The main application: the one FakeDiscordOptions describes, which every call without a bot means. */
  readonly main: BotApplication;
  readonly bot: UserRecord;
  readonly applicationId: string;
  /** Every bot application by its bot user's ID, the main one first. */
  readonly applications = new Map<string, BotApplication>();
  /** Servers the main bot is in. */
  readonly guilds = new Map<string, GuildRecord>();
  /** The bot's DM channels: channel id -> the user at the other end (one per user, as Discord keeps them). */
  readonly dmChannels = new Map<string, UserRecord>();
  /** People who were members of a guild here and left it: still Discord users (they log in, they are looked up). */
  readonly formerMembers = new Map<string, UserRecord>();
  /**
   * Servers the main bot left or was removed from: they go on without it on Discord, so their members are still
   * users who log in and list them (and helpers may still be in them); kept as they were so that it can be added back.
   */
  readonly guildsWithoutBot = new Map<string, GuildRecord>();
  readonly #identifyLimit: number;

  constructor(options: FakeDiscordOptions) {
    this.#identifyLimit = options.identifyLimit ?? IDENTIFY_LIMIT;
    this.main = new BotApplication({
      applicationId: options.applicationId,
      user: { id: options.botUserId ?? options.applicationId, username: options.botUsername ?? 'SayBot', bot: true },
      token: options.token,
      main: true,
      botPublic: options.botPublic ?? false,
      ownerId: options.applicationOwnerId ?? '1',
      allowedPrivilegedIntents: options.allowedPrivilegedIntents ?? 0,
      identifyLimit: this.#identifyLimit,
    });
    this.bot = this.main.user;
    this.applicationId = this.main.applicationId;
    this.applications.set(this.bot.id, this.main);
    for (const spec of options.guilds) {
      if (this.guilds.has(spec.id)) throw new Error(`FakeDiscord: duplicate guild ${spec.id}`);
      this.guilds.set(spec.id, new GuildRecord(spec, this.bot));
    }
  }

  /** The main application's Public Bot switch. */
  get botPublic(): boolean {
    return this.main.botPublic;
  }

  set botPublic(on: boolean) {
    this.main.botPublic = on;
  }

  /** Who owns the main application: the owner of GET /applications/@me. */
  get applicationOwnerId(): string {
    return this.main.ownerId;
  }

  /** A new application of the same owner, with its bot user (in no server yet) and a fresh token. */
  addApplication(options: { username?: string; public?: boolean } = {}): BotApplication {
    const applicationId = snowflake();
    const application = new BotApplication({
      applicationId,
      user: { id: applicationId, username: options.username ?? `Helper ${this.applications.size}`, bot: true },
      token: fakeToken(),
      main: false,
      botPublic: options.public ?? false,
      ownerId: this.main.ownerId,
      allowedPrivilegedIntents: 0,
      identifyLimit: this.#identifyLimit,
    });
    this.applications.set(application.user.id, application);
    return application;
  }

  /** The application of this bot user (default the main one); throws for a user that is no bot of ours. */
  application(botUserId?: string): BotApplication {
    if (botUserId === undefined) return this.main;
    const application = this.applications.get(botUserId);
    if (!application) throw new Error(`FakeDiscord: ${botUserId} is no bot application's user`);
    return application;
  }

  /** The application whose token this is (an IDENTIFY's, or an Authorization header's), if any. */
  applicationByToken(token: unknown): BotApplication | undefined {
    for (const application of this.applications.values()) if (application.owns(token)) return application;
    return undefined;
  }

  /** A server the fake knows, whether the main bot is in it or not. */
  anyGuild(guildId: string): GuildRecord | undefined {
    return this.guilds.get(guildId) ?? this.guildsWithoutBot.get(guildId);
  }

  /** The server as `application`'s bot sees it: undefined unless that bot is a member there. */
  guildOf(application: BotApplication, guildId: string): GuildRecord | undefined {
    const guild = application.main ? this.guilds.get(guildId) : this.anyGuild(guildId);
    return guild?.members.has(application.user.id) === true ? guild : undefined;
  }

  /** The servers `application`'s bot is in. */
  guildsOf(application: BotApplication): GuildRecord[] {
    return application.main
      ? [...this.guilds.values()]
      : this.peopleGuilds().filter((guild) => guild.members.has(application.user.id));
  }

  guild(guildId: string): GuildRecord {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`FakeDiscord: unknown guild ${guildId}`);
    return guild;
  }

  findChannel(channelId: string): { guild: GuildRecord; channel: ChannelRecord } | undefined {
    for (const guild of this.guilds.values()) {
      const channel = guild.channels.get(channelId);
      if (channel) return { guild, channel };
    }
    return undefined;
  }

  /** The channel as `application`'s bot sees it: in a server it is in. */
  channelOf(
    application: BotApplication,
    channelId: string,
  ): { guild: GuildRecord; channel: ChannelRecord } | undefined {
    for (const guild of this.guildsOf(application)) {
      const channel = guild.channels.get(channelId);
      if (channel) return { guild, channel };
    }
    return undefined;
  }

  /** The bot's DM channel with this user (POST /users/@me/channels), made on first use. */
  dmChannelWith(user: UserRecord): string {
    for (const [id, recipient] of this.dmChannels) if (recipient.id === user.id) return id;
    const id = snowflake();
    this.dmChannels.set(id, user);
    return id;
  }

  /** Every server here a person can be in: the main bot's, then those it left. */
  peopleGuilds(): GuildRecord[] {
    return [...this.guilds.values(), ...this.guildsWithoutBot.values()];
  }

  findUser(userId: string): UserRecord | undefined {
    const application = this.applications.get(userId);
    if (application) return application.user;
    for (const guild of this.peopleGuilds()) {
      const member = guild.members.get(userId);
      if (member) return member.user;
    }
    return this.formerMembers.get(userId);
  }
}
