// FakeDiscord's bot applications and their servers: a helper application added beside the main one (each its own
// bot user, token, gateway sessions, voice and commands, as on Discord), bots invited, removed and added back, a
// token reset, each bot's gateway session dropped or reconnected. Every call without a bot user ID means the main bot.
import { FakeDiscordVoice } from './fake-voice.ts';
import type { FakeGuildSpec } from './types.ts';

/** A bot application as the Developer Portal shows it to its owner: IDs, the bot's name and its token. */
export interface FakeBotApplication {
  applicationId: string;
  userId: string;
  token: string;
  username: string;
}

export class FakeDiscordBots extends FakeDiscordVoice {
  /**
   * A new bot application of the same owner (a helper, say): its bot user, in no server until inviteBot, and a fresh
   * token of Discord's shape. Public Bot off unless `public`; no privileged intent; no commands.
   */
  addBotApplication(options: { username?: string; public?: boolean } = {}): FakeBotApplication {
    const application = this.parts.world.addApplication(options);
    return {
      applicationId: application.applicationId,
      userId: application.user.id,
      token: application.token,
      username: application.user.username,
    };
  }

  /** A bot's current token (default the main bot's): a new one after resetBotToken. */
  botToken(botUserId?: string): string {
    return this.parts.world.application(botUserId).token;
  }

  /**
   * The owner resets a bot's token in the Developer Portal: the old one is refused from now on (REST 401, gateway
   * 4004) and each live session of it is closed with 4004. Returns the new token.
   */
  resetBotToken(botUserId: string): string {
    const application = this.parts.world.application(botUserId);
    const token = application.resetToken();
    this.parts.gateway.revoke(application);
    return token;
  }

  /**
   * A bot's session start limit now (GET /gateway/bot with its token): IDENTIFYs left of the day's, per token
   * (FakeDiscordOptions.identifyLimit).
   */
  sessionStartLimit(botUserId?: string): { total: number; remaining: number; reset_after: number } {
    return this.parts.world.application(botUserId).sessionStartLimit();
  }

  /** Requests answered 401, 403 or 429 so far, from every token: Discord's invalid request limit counts them per IP. */
  invalidRequests(): number {
    return this.parts.rest.invalidRequests.count;
  }

  /**
   * A member with Manage Server adds a bot to a server (the OAuth2 invite with scope `bot`), with a role of its own
   * holding `permissions` (default the server's bot permissions): GUILD_CREATE to the bot's session, as on a join,
   * and GUILD_MEMBER_ADD to the other bots there with the Guild Members intent.
   */
  inviteBot(guildId: string, botUserId: string, permissions?: bigint): void {
    this.parts.membership.joined(guildId, this.parts.world.application(botUserId), permissions);
  }

  /**
   * Sets the permissions of a bot's own role in a guild (e.g. takes Send Voice Messages away): what later
   * interactions' app_permissions say and what REST checks. The @everyone role still adds its own.
   */
  setBotPermissions(guildId: string, permissions: bigint, botUserId?: string): void {
    const application = this.parts.world.application(botUserId);
    const guild = this.parts.world.guildOf(application, guildId);
    const botRoles = guild?.members.get(application.user.id)?.roles ?? [];
    const role = guild?.roles.find((r) => r.managed && botRoles.includes(r.id));
    if (!role) throw new Error(`FakeDiscord: bot ${application.user.id} has no role of its own in guild ${guildId}`);
    role.permissions = permissions;
  }

  /**
   * A bot is removed from a guild (kicked, or the server deleted), as Discord does it: out of its voice channel (its
   * voice connection closed with 4014, "you were kicked"; the other bots there told its voice state is gone), then
   * GUILD_DELETE without `unavailable` to it. For the main bot the guild is gone from its world (REST, a new READY)
   * until addBotBack; the other bots there go on.
   */
  removeBot(guildId: string, botUserId?: string): void {
    if (!this.parts.membership.left(guildId, this.parts.world.application(botUserId)))
      throw new Error(`FakeDiscord: bot ${this.botId(botUserId)} is not in guild ${guildId}`);
  }

  /** A bot is added back to a guild it was removed from (or left): GUILD_CREATE, as on a join. */
  addBotBack(guildId: string, botUserId?: string): void {
    this.parts.membership.joined(guildId, this.parts.world.application(botUserId));
  }

  /** Whether a bot is in the server now: not once it left it or was removed (removeBot), again after addBotBack. */
  botIsIn(guildId: string, botUserId?: string): boolean {
    return this.parts.world.guildOf(this.parts.world.application(botUserId), guildId) !== undefined;
  }

  /**
   * Someone adds the main bot to a server it was never in, while it runs (the OAuth2 invite): GUILD_CREATE to the
   * session of that guild's shard, as Discord sends it on a join. Interactions there work at once.
   */
  addGuild(spec: FakeGuildSpec): void {
    this.parts.membership.addGuild(spec);
  }

  /** A guild outage: GUILD_DELETE with `unavailable: true` (the bots are still in it), then GUILD_CREATE when it is back. */
  guildOutage(guildId: string): { end(): void } {
    return this.parts.membership.outage(guildId);
  }

  /** Turns an application's Public Bot switch on or off, as its owner does in the Developer Portal. */
  setBotPublic(on: boolean, botUserId?: string): void {
    this.parts.world.application(botUserId).botPublic = on;
  }

  /**
   * Whether a person is a member of the server, as their own client knows (removeMember ends it), whether or not
   * the bot is still there.
   */
  isMember(guildId: string, userId: string): boolean {
    return this.parts.world.anyGuild(guildId)?.members.has(userId) ?? false;
  }

  /**
   * Drops a bot's gateway socket for this guild's session: with a close `code` (4000: the client resumes), or
   * abruptly without one. Events meanwhile (commands sent with command()) are buffered and replayed on RESUME.
   */
  dropGateway(guildId: string, code?: number, botUserId?: string): void {
    this.parts.gateway.dropConnection(guildId, code, this.parts.world.application(botUserId));
  }

  /** op 7 Reconnect to a bot's session holding the guild: the client reconnects and resumes. */
  requestGatewayReconnect(guildId: string, botUserId?: string): void {
    this.parts.gateway.requestReconnect(guildId, this.parts.world.application(botUserId));
  }

  /** op 9 Invalid Session: resumable (d true) or not, when the client must identify afresh (a new session). */
  invalidateGatewaySession(guildId: string, resumable: boolean, botUserId?: string): void {
    this.parts.gateway.invalidateSession(guildId, resumable, this.parts.world.application(botUserId));
  }

  /** Whether a bot's socket is connected to its session holding the guild (false while it is away, for RESUME). */
  gatewayConnected(guildId: string, botUserId?: string): boolean {
    return this.parts.gateway.connectionFor(guildId, this.parts.world.application(botUserId)) !== undefined;
  }
}
