// FakeDiscord: a Discord of our own on 127.0.0.1 for end-to-end tests and benchmarks. An unmodified discord.js
// client and @discordjs/voice connect to it (REST + gateway over HTTP/WS, voice gateway over WSS, media over UDP);
// tests drive interactions and read back what the bot answered and what each guild's voice channel heard.
// Protocol facts: Discord's developer documentation (API v10, gateway v10, voice gateway v8); README.md beside this file.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cdn, type CdnLogEntry } from './cdn.ts';
import { DiscordClock } from './clock.ts';
import type { DaveGroupState } from './dave/group.ts';
import { DEFAULT_DAVE_MODE } from './dave/mode.ts';
import { CommandStore } from './commands.ts';
import {
  CommandPermissionStore,
  commandAccess,
  parsePermissionsBody,
  permissionsPayload,
  type CommandPermission,
} from './command-permissions.ts';
import { Gateway, type GatewaySession, type VoiceStateRequest } from './gateway.ts';
import { HeardAudioStore } from './heard-audio.ts';
import { InteractionType, Interactions } from './interactions.ts';
import { DiscordRefusal, checkSeenBy } from './api-error.ts';
import { asObject, memberMessageRefusal, MessageStore, type Json } from './messages.ts';
import { RestApi, type RateLimitInjection, type RefusalInjection } from './rest.ts';
import { AES_GCM_MODE } from './rtp-decrypt.ts';
import {
  GatewayIntent,
  channelPayload,
  guildCreatePayload,
  memberPayload,
  overwriteRecord,
  userPayload,
  rolePayload,
  voiceStatePayload,
  GuildRecord,
  World,
  type ChannelRecord,
  type VoiceModeration,
} from './state.ts';
import { dispatchMessageCreate, resolvedMessagePayload, type ChatMessage } from './message-create.ts';
import { snowflake } from './snowflake.ts';
import type {
  FakeGuildSpec,
  FakeOverwrite,
  FakeAttachment,
  FakeAutocompleteInput,
  FakeButtonInput,
  FakeCommandInput,
  FakeDiscordOptions,
  FakeModalSubmitInput,
  FakePrivateCommandInput,
  FakeMessageCommandInput,
  HeardAudio,
  HeardPacket,
  InteractionHandle,
  RestLogEntry,
  SentChannelMessage,
  SentDirectMessage,
} from './types.ts';
import { VOICE_CA_CERTIFICATE_PEM, VoiceGateway, type VoiceCloseEntry } from './voice-gateway.ts';
import { VoiceUdp } from './voice-udp.ts';
import { afterDelay } from './network-delay.ts';
import { LocalOAuth2 } from './oauth2.ts';
import { Waits, WAIT_MS } from './waits.ts';

export type * from './types.ts';
export type { CdnLogEntry } from './cdn.ts';
export type { RateLimitedRoute, RateLimitInjection, RefusalInjection } from './rest.ts';
export { AES_GCM_MODE, XCHACHA_MODE } from './rtp-decrypt.ts';
export { DEFAULT_DAVE_MODE } from './dave/mode.ts';
export type { DaveGroupState } from './dave/group.ts';
export type { VoiceCloseEntry } from './voice-gateway.ts';
export type { ListenerStats as DaveListenerStats } from './dave/listener.ts';
export { APP_ID, fakeToken } from './bot-identity.ts';
export {
  freePort,
  freePortRun,
  startBotProcess,
  type BotProcess,
  type BotProcessOptions,
  type LogLine,
} from './bot-process.ts';
export { DEFAULT_PERMISSIONS, GatewayIntent } from './state.ts';
export type { VoiceModeration } from './state.ts';
export { FormRefusal } from './file-types.ts';
export { DiscordRefusal } from './api-error.ts';
export { CommandPermissionType, allChannelsId, type CommandPermission } from './command-permissions.ts';
export { memberMessageRefusal } from './messages.ts';
export type { LocalOAuth2 } from './oauth2.ts';

const READY_TIMEOUT_MS = 15_000;
/** Discord's: an interaction token works for 15 minutes. */
const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;

interface Parts {
  world: World;
  server: Server;
  rest: RestApi;
  cdn: Cdn;
  messages: MessageStore;
  commands: CommandStore;
  commandPermissions: CommandPermissionStore;
  interactions: Interactions;
  gateway: Gateway;
  voice: VoiceGateway;
  udp: VoiceUdp;
  audio: HeardAudioStore;
  waits: Waits;
  clock: DiscordClock;
  daveWatchers: Set<() => void>;
  oauth2: LocalOAuth2;
}

export class FakeDiscord {
  readonly restUrl: string;
  /** Its CDN (attachments, server icons, avatars), as https://cdn.discordapp.com is Discord's. */
  readonly cdnUrl: string;
  readonly gatewayUrl: string;
  /** host:port the bot receives in VOICE_SERVER_UPDATE. */
  readonly voiceEndpoint: string;
  /** The voice media (UDP) port on 127.0.0.1. */
  readonly voiceUdpPort: number;
  /** The voice gateway's self-signed certificate (test fixture): trust it, never disable TLS checks. */
  readonly caCertificatePem: string = VOICE_CA_CERTIFICATE_PEM;
  /** Protocol problems seen so far: unknown routes, refused requests, malformed messages. */
  readonly problems: string[];

  private readonly parts: Parts;
  private closing: Promise<void> | undefined;
  /** Per guild, the bot's voice state requests held unanswered (holdVoiceRequests), in the order they came. */
  private readonly heldVoiceRequests = new Map<string, Array<() => void>>();

  private constructor(parts: Parts, problems: string[], baseUrl: string) {
    this.parts = parts;
    this.problems = problems;
    this.restUrl = `${baseUrl}/api`;
    this.cdnUrl = baseUrl;
    this.gatewayUrl = `${baseUrl.replace('http:', 'ws:')}/gateway`;
    this.voiceEndpoint = parts.voice.endpoint;
    this.voiceUdpPort = parts.udp.port;
  }

  static async start(options: FakeDiscordOptions): Promise<FakeDiscord> {
    const problems: string[] = [];
    const log = options.log ?? ((line: string) => console.warn(line));
    const report = (line: string): void => {
      problems.push(line);
      log(`[fake-discord] ${line}`);
    };
    const world = new World(options);
    const waits = new Waits();
    const cdn = new Cdn();
    const commandPermissions = new CommandPermissionStore();
    const commands = new CommandStore(options.applicationId, (commandId) => commandPermissions.forget(commandId));
    const messages = new MessageStore(cdn);
    const clock = new DiscordClock();
    const interactions = new Interactions({
      world,
      messages,
      cdn,
      commands,
      commandPermissions,
      waits,
      timeoutMs: options.interactionTimeoutMs ?? 3000,
      tokenLifetimeMs: options.interactionTokenLifetimeMs ?? INTERACTION_TOKEN_LIFETIME_MS,
      report,
      clock,
      hostClockAheadMs: options.hostClockAheadMs ?? 0,
    });
    // Discord forwards no audio of a server-muted bot, nor of one in a Stage's audience.
    const audio = new HeardAudioStore(waits, (guildId) => {
      const state = world.guilds.get(guildId)?.voiceStates.get(world.bot.id);
      return state === undefined || (!state.mute && !state.suppress);
    });
    if (options.retain !== undefined) {
      messages.retain = options.retain.entries;
      cdn.retain = options.retain.entries;
      interactions.retain = options.retain.entries;
      audio.keepSeconds = options.retain.heardSeconds;
    }
    const udp = new VoiceUdp(report, options.voiceUdpLatencyMs ?? 0, options.udpReceiveThread ?? false);
    const daveWatchers = new Set<() => void>();
    const voice = new VoiceGateway({
      modes: options.encryptionModes ?? [AES_GCM_MODE],
      udp,
      audio,
      report,
      latencyMs: options.gatewayLatencyMs ?? 0,
      hearInFull: options.hearInFull ?? (() => true),
      dave: {
        mode: options.dave ?? DEFAULT_DAVE_MODE,
        committer: options.daveCommitter ?? 'bot',
        handshakeDelayMs: options.daveHandshakeDelayMs ?? 0,
      },
      daveChanged: () => {
        for (const watcher of [...daveWatchers]) watcher();
      },
      usersInChannel: (guildId, channelId) =>
        [...world.guild(guildId).voiceStates.values()]
          .filter((vs) => vs.channelId === channelId && vs.userId !== world.bot.id)
          .map((vs) => vs.userId),
    });
    let baseUrl = '';
    const self: { fake?: FakeDiscord } = {};
    const allowedPrivilegedIntents = options.allowedPrivilegedIntents ?? 0;
    const gateway = new Gateway({
      token: options.token,
      world,
      allowedPrivilegedIntents,
      waits,
      report,
      latencyMs: options.gatewayLatencyMs ?? 0,
      resumeUrl: () => `${baseUrl.replace('http:', 'ws:')}/gateway`,
      onVoiceStateRequest: (connection, request) => self.fake?.botVoiceStateRequested(connection.session, request),
    });
    const oauth2 = new LocalOAuth2({ world, clock, options: options.oauth2 ?? {}, baseUrl: () => baseUrl, report });
    const rest = new RestApi({
      token: options.token,
      world,
      commands,
      commandPermissions,
      bearer: (authorization) => oauth2.bearer(authorization),
      commandPermissionsUpdated: (guildId, payload) =>
        gateway.dispatchToGuild(guildId, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE', payload),
      interactions,
      messages,
      cdn,
      shards: options.shards ?? 1,
      allowedPrivilegedIntents,
      gatewayUrl: () => `${baseUrl.replace('http:', 'ws:')}/gateway`,
      report,
      leaveGuild: (guildId) => self.fake?.botLeft(guildId) ?? false,
      voiceStateChanged: (guildId, userId) => self.fake?.voiceStateChanged(guildId, userId),
      memberUpdated: (guildId, userId) => self.fake?.memberUpdated(guildId, userId),
    });
    if (options.retain !== undefined) {
      rest.retain = options.retain.entries;
      voice.retain = options.retain.entries;
    }
    const server = createServer((req, res) =>
      afterDelay(options.restRoundTripMs ?? 0, () =>
        oauth2.handles(req) ? oauth2.handle(req, res) : rest.handle(req, res),
      ),
    );
    server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname === '/gateway') gateway.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
    server.on('clientError', (_error, socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      cdn.setBaseUrl(baseUrl);
      await udp.listen();
      await voice.listen();
    } catch (error) {
      server.close();
      await Promise.all([gateway.close(), voice.close(), udp.close()]);
      throw error;
    }
    self.fake = new FakeDiscord(
      {
        world,
        server,
        rest,
        cdn,
        messages,
        commands,
        commandPermissions,
        interactions,
        gateway,
        voice,
        udp,
        audio,
        waits,
        clock,
        daveWatchers,
        oauth2,
      },
      problems,
      baseUrl,
    );
    return self.fake;
  }

  /**
   * Discord's OAuth2 for a website's login (oauth2.ts): the client ID and secret, the URLs to configure a website
   * with, who is signed in at the consent page, pre-authorized users, codes without a browser, the request log.
   */
  get oauth2(): LocalOAuth2 {
    return this.parts.oauth2;
  }

  // ---- driving ----

  /** A member (or webhook, or bot) posts in a channel: MESSAGE_CREATE as the session's intents allow (false: not sent). */
  async postMessage(message: ChatMessage): Promise<boolean> {
    const refusal = memberMessageRefusal(message.content);
    if (refusal !== undefined) throw refusal;
    // A server the bot left still has its members and channels: they write there, and the bot is not told.
    if (this.#botAway(message.guildId) !== undefined) return false;
    // A timed-out member has lost Send Messages everywhere in the server: their client cannot post.
    if (this.parts.world.guilds.get(message.guildId)?.isTimedOut(message.author.id) === true)
      throw new DiscordRefusal(403, 50013, 'Missing Permissions (the member is timed out)');
    await this.parts.gateway.whenGuildReady(message.guildId, READY_TIMEOUT_MS);
    return dispatchMessageCreate(this.parts.gateway, message, this.parts.world.bot.id);
  }

  /**
   * Sends INTERACTION_CREATE (type 2, a slash command) once the client's gateway session holds the guild. A registered
   * command Discord would not offer the member there (commandsFor) rejects with a DiscordRefusal and sends nothing.
   */
  async command(input: FakeCommandInput): Promise<InteractionHandle> {
    const connection = await this.parts.gateway.whenGuildReady(input.guildId, READY_TIMEOUT_MS);
    const { interaction, payload } = this.parts.interactions.create(InteractionType.ApplicationCommand, input);
    interaction.markDispatched();
    connection.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  }

  /** A member presses a button on a message the bot posted (INTERACTION_CREATE type 3, Interactions.createButton). */
  async pressButton(input: FakeButtonInput): Promise<InteractionHandle> {
    const connection = await this.parts.gateway.whenGuildReady(input.guildId, READY_TIMEOUT_MS);
    const { interaction, payload } = this.parts.interactions.createButton(input);
    interaction.markDispatched();
    connection.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  }

  /**
   * A member submits the modal the bot answered an interaction with (INTERACTION_CREATE type 5,
   * Interactions.createModalSubmit). Rejects with a FormRefusal when Discord's client would not submit it.
   */
  async submitModal(input: FakeModalSubmitInput): Promise<InteractionHandle> {
    const { interaction, payload } = this.parts.interactions.createModalSubmit(input);
    const connection = await this.parts.gateway.whenGuildReady(interaction.guild?.id ?? '0', READY_TIMEOUT_MS);
    interaction.markDispatched();
    connection.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  }

  /**
   * A user-installed slash command used where SayBot is no member (Interactions.createPrivate): from a DM or group
   * DM, INTERACTION_CREATE on shard 0, where Discord sends what belongs to no guild (shard 0 covers guild ID 0);
   * from a server SayBot is not in, on the shard that server's ID maps to.
   */
  async privateCommand(input: FakePrivateCommandInput): Promise<InteractionHandle> {
    const connection = await this.parts.gateway.whenGuildReady(
      input.context === 0 ? (input.guild?.id ?? '0') : '0',
      READY_TIMEOUT_MS,
    );
    const { interaction, payload } = this.parts.interactions.createPrivate(input);
    interaction.markDispatched();
    connection.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  }

  /**
   * A member uses a message context menu ("Speak") on a message: INTERACTION_CREATE type 2 with data.type 3,
   * `target_id` and the message in `resolved.messages` (author, content, mentions, attachments), once the client's
   * gateway session holds the guild; a menu the member is not offered there (commandsFor) rejects with a
   * DiscordRefusal.
   */
  async messageCommand(input: FakeMessageCommandInput): Promise<InteractionHandle> {
    const connection = await this.parts.gateway.whenGuildReady(input.guildId, READY_TIMEOUT_MS);
    const { message, ...command } = input;
    if (message.id !== undefined) checkSeenBy(this.parts.messages.get(message.id), input.userId);
    const channelId = input.channelId ?? this.parts.world.guild(input.guildId).textChannelId;
    const target = resolvedMessagePayload({
      ...message,
      id: message.id ?? snowflake(),
      channelId,
      guildId: input.guildId,
    });
    const { interaction, payload } = this.parts.interactions.create(
      InteractionType.ApplicationCommand,
      command,
      target,
    );
    interaction.markDispatched();
    connection.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  }

  /**
   * Sends an autocomplete interaction (type 4) and resolves with the choices the bot answered (callback type 8); for a
   * command the member is not offered there (commandsFor), rejects with a DiscordRefusal and sends nothing.
   */
  async autocomplete(input: FakeAutocompleteInput): Promise<Array<{ name: string; value: string | number }>> {
    if (!JSON.stringify(input.options).includes('"focused":true'))
      throw new Error('FakeDiscord.autocomplete: one option needs focused: true');
    const connection = await this.parts.gateway.whenGuildReady(input.guildId, READY_TIMEOUT_MS);
    const { interaction, payload } = this.parts.interactions.create(InteractionType.Autocomplete, input);
    interaction.markDispatched();
    connection.dispatch('INTERACTION_CREATE', payload);
    const response = await interaction.waitFor((r) => r.kind === 'callback' && r.type === 8, input.timeoutMs ?? 5000);
    const choices = asObject(asObject(response.raw).data).choices;
    return (Array.isArray(choices) ? choices : []).map((c) => {
      const choice = asObject(c);
      return {
        name: String(choice.name),
        value: typeof choice.value === 'number' ? choice.value : String(choice.value),
      };
    });
  }

  /**
   * Sets the permissions of the bot's own role in a guild (e.g. takes Send Voice Messages away): what later
   * interactions' app_permissions say and what REST checks. The @everyone role still adds its own.
   */
  setBotPermissions(guildId: string, permissions: bigint): void {
    const guild = this.parts.world.guild(guildId);
    const botRoles = guild.members.get(this.parts.world.bot.id)?.roles ?? [];
    const role = guild.roles.find((r) => r.managed && botRoles.includes(r.id));
    if (!role) throw new Error(`FakeDiscord: the bot has no role of its own in guild ${guildId}`);
    role.permissions = permissions;
  }

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
    if (inVoice) this.voiceStateChanged(guildId, userId);
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
  private memberUpdated(guildId: string, userId: string): void {
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

  /**
   * The bot is removed from a guild (kicked, or the server deleted), as Discord does it: out of its voice channel
   * (its voice connection closed with 4014, "you were kicked"), then GUILD_DELETE without `unavailable`; the guild
   * is gone from the bot's world (REST, a new READY) until addBotBack.
   */
  removeBot(guildId: string): void {
    this.parts.world.guild(guildId);
    this.botLeft(guildId);
  }

  /**
   * Someone adds the bot to a server it was never in, while it runs (the OAuth2 invite): GUILD_CREATE to the
   * session of that guild's shard, as Discord sends it on a join. Interactions there work at once.
   */
  addGuild(spec: FakeGuildSpec): void {
    const { world, gateway } = this.parts;
    if (world.guilds.has(spec.id) || this.parts.world.guildsWithoutBot.has(spec.id))
      throw new Error(`FakeDiscord: guild ${spec.id} exists already`);
    const guild = new GuildRecord(spec, world.bot);
    world.guilds.set(spec.id, guild);
    const session = gateway.sessionFor(spec.id);
    if (session) session.dispatch('GUILD_CREATE', guildCreatePayload(guild, world.bot.id, session.intents));
  }

  /** Turns the application's Public Bot switch on or off, as its owner does in the Developer Portal. */
  setBotPublic(on: boolean): void {
    this.parts.world.botPublic = on;
  }

  /** A member's voice state as it is now, to the bot (VOICE_STATE_UPDATE). */
  private voiceStateChanged(guildId: string, userId: string): void {
    const guild = this.parts.world.guild(guildId);
    const state = guild.voiceStates.get(userId);
    this.parts.gateway.dispatchToGuild(
      guildId,
      'VOICE_STATE_UPDATE',
      voiceStatePayload(guild, userId, state),
      GatewayIntent.GuildVoiceStates,
    );
  }

  /**
   * The bot left a guild (DELETE /users/@me/guilds/{id}): out of its voice channel, its member and role gone, then
   * GUILD_DELETE without `unavailable`. Kept, like a removal, so that addBotBack can add it again.
   */
  private botLeft(guildId: string): boolean {
    const guild = this.parts.world.guilds.get(guildId);
    if (!guild) return false;
    if (guild.removeBotMember(this.parts.world.bot.id)) this.parts.voice.disconnectGuild(guildId);
    this.parts.world.guilds.delete(guildId);
    this.parts.world.guildsWithoutBot.set(guildId, guild);
    this.parts.gateway.dispatchToGuild(guildId, 'GUILD_DELETE', { id: guildId });
    return true;
  }

  /** A guild outage: GUILD_DELETE with `unavailable: true` (the bot is still in it), then GUILD_CREATE when it is back. */
  guildOutage(guildId: string): { end(): void } {
    const guild = this.parts.world.guild(guildId);
    this.parts.gateway.dispatchToGuild(guildId, 'GUILD_DELETE', { id: guildId, unavailable: true });
    return {
      end: () => {
        const session = this.parts.gateway.sessionFor(guildId);
        if (session)
          session.dispatch('GUILD_CREATE', guildCreatePayload(guild, this.parts.world.bot.id, session.intents));
      },
    };
  }

  /** The bot is added back to a guild it was removed from (or left): GUILD_CREATE, as on a join. */
  addBotBack(guildId: string): void {
    const guild = this.parts.world.guildsWithoutBot.get(guildId);
    if (!guild) throw new Error(`FakeDiscord: the bot was not removed from guild ${guildId}`);
    this.parts.world.guildsWithoutBot.delete(guildId);
    guild.addBotMember(this.parts.world.bot);
    this.parts.world.guilds.set(guildId, guild);
    const session = this.parts.gateway.sessionFor(guildId);
    if (session) session.dispatch('GUILD_CREATE', guildCreatePayload(guild, this.parts.world.bot.id, session.intents));
  }

  /**
   * Discord's own clock moves on by `ms` (the host's does not): tokens of interactions created before are that
   * much older (past 15 minutes: 401 50027), and unanswered interactions that much closer to their 3 s.
   */
  advanceClock(ms: number): void {
    this.parts.clock.advance(ms);
  }

  /** Whether a member accepts direct messages from the bot (closed: sending is refused with 403 50007). */
  setDirectMessages(userId: string, open: boolean): void {
    const user = this.parts.world.findUser(userId);
    if (!user) throw new Error(`FakeDiscord: unknown user ${userId}`);
    user.dmsClosed = !open;
  }

  /** Serves bytes over HTTP like Discord's CDN; use the result in a command's `attachments` or an option's value. */
  hostAttachment(data: Uint8Array, filename: string, contentType?: string): FakeAttachment {
    return this.parts.cdn.host(data, filename, contentType);
  }

  /**
   * A member joins (channelId), moves, or leaves (null): VOICE_STATE_UPDATE to the bot. For the bot's own id this
   * is a server-side move or kick: a kick also closes its voice connection with 4014, as Discord does.
   * `moderation`: a moderator server-mutes or deafens the member, or makes a Stage listener a speaker
   * (`suppress: false`) or sends a speaker back to the audience; unset flags stay as they were (a Stage suppresses
   * whoever enters it). For the bot in the channel it is in, only the moderation changes.
   */
  setVoiceState(guildId: string, userId: string, channelId: string | null, moderation: VoiceModeration = {}): void {
    const away = this.#botAway(guildId);
    if (away !== undefined) {
      // The bot is not in the server: nobody to tell and no voice session to join, but the member moves all the same.
      if (!away.members.has(userId)) throw new Error(`FakeDiscord: ${userId} is not a member of guild ${guildId}`);
      away.setVoiceState(userId, channelId, undefined, moderation);
      return;
    }
    const guild = this.parts.world.guild(guildId);
    if (!guild.members.has(userId)) throw new Error(`FakeDiscord: ${userId} is not a member of guild ${guildId}`);
    if (userId === this.parts.world.bot.id) {
      const current = guild.voiceStates.get(userId);
      // A moderator's change to the bot where it is: server-muted, or sent to a Stage's audience or made a speaker.
      if (current !== undefined && current.channelId === channelId && Object.keys(moderation).length > 0) {
        guild.setVoiceState(userId, channelId, undefined, moderation);
        this.voiceStateChanged(guildId, userId);
        return;
      }
      const connection = this.parts.gateway.sessionFor(guildId);
      this.applyBotVoiceState(connection, {
        guildId,
        channelId,
        selfMute: current?.selfMute ?? false,
        selfDeaf: current?.selfDeaf ?? false,
      });
      return;
    }
    const previous = guild.voiceStates.get(userId)?.channelId ?? null;
    // "Won't be able to ... join voice channels ... while in time out" (Discord's Time Out FAQ).
    if (channelId !== null && channelId !== previous && guild.isTimedOut(userId))
      throw new Error(`FakeDiscord: ${userId} is timed out in guild ${guildId} and cannot join a voice channel`);
    const state = guild.setVoiceState(userId, channelId, undefined, moderation);
    this.parts.gateway.dispatchToGuild(
      guildId,
      'VOICE_STATE_UPDATE',
      voiceStatePayload(guild, userId, state),
      GatewayIntent.GuildVoiceStates,
    );
    if (previous !== null && previous !== channelId) this.parts.voice.clientConnected(guildId, previous, userId, false);
    if (channelId !== null && channelId !== previous)
      this.parts.voice.clientConnected(guildId, channelId, userId, true);
  }

  /**
   * The guild's voice server goes away (a crash, a region change) while the bot is still in its channel: its voice
   * sockets are closed with 4014 and no new VOICE_SERVER_UPDATE follows. The bot's gateway voice state is unchanged.
   */
  dropVoiceServer(guildId: string): void {
    this.parts.voice.disconnectGuild(guildId);
  }

  /**
   * Discord moves the guild's voice server mid-call: a new VOICE_SERVER_UPDATE (a new token) for the bot's channel,
   * then its old voice socket is closed and that UDP session ends; packets sent on it count in packetsToEndedSession
   * and are never heard. The bot's gateway voice state is unchanged.
   */
  moveVoiceServer(guildId: string, options: { updateAfterMs?: number } = {}): void {
    const guild = this.parts.world.guild(guildId);
    const botId = this.parts.world.bot.id;
    const state = guild.voiceStates.get(botId);
    if (state?.channelId == null) throw new Error(`FakeDiscord: the bot is in no voice channel of guild ${guildId}`);
    const token = this.parts.voice.allocate(guildId, botId, state.sessionId, state.channelId);
    const update = () =>
      this.parts.gateway.dispatchToGuild(guildId, 'VOICE_SERVER_UPDATE', {
        token,
        guild_id: guildId,
        endpoint: this.parts.voice.endpoint,
      });
    // With `updateAfterMs`, the old session ends first and the new server's address comes that much later.
    if (options.updateAfterMs === undefined) update();
    this.parts.voice.endMoved(guildId, token);
    if (options.updateAfterMs !== undefined) setTimeout(update, options.updateAfterMs);
  }

  /** RTP packets the bot sent to a voice session of this guild after it ended (a move, a drop): nobody heard them. */
  packetsToEndedSession(guildId: string): number {
    return this.parts.udp.packetsToEnded(guildId);
  }

  /** Answers the next matching REST request(s) with 429, retry_after and the X-RateLimit headers, as Discord does. */
  rateLimit(injection: RateLimitInjection): void {
    this.parts.rest.injectRateLimit(injection);
  }

  /** Refuses the next request(s) on a route as Discord does (a status, a JSON code, the field errors). */
  refuse(injection: RefusalInjection): void {
    this.parts.rest.injectRefusal(injection);
  }

  /** Forgets the refusals armed with refuse() that no request has met yet. */
  clearRefusals(): void {
    this.parts.rest.clearRefusals();
  }

  /**
   * Drops the bot's gateway socket for this guild's session: with a close `code` (4000: the client resumes), or
   * abruptly without one. Events meanwhile (commands sent with command()) are buffered and replayed on RESUME.
   */
  dropGateway(guildId: string, code?: number): void {
    this.parts.gateway.dropConnection(guildId, code);
  }

  /** op 7 Reconnect to the session holding the guild: the client reconnects and resumes. */
  requestGatewayReconnect(guildId: string): void {
    this.parts.gateway.requestReconnect(guildId);
  }

  /** op 9 Invalid Session: resumable (d true) or not, when the client must identify afresh (a new session). */
  invalidateGatewaySession(guildId: string, resumable: boolean): void {
    this.parts.gateway.invalidateSession(guildId, resumable);
  }

  // ---- observing ----

  /** Whether a client's socket is connected to the session holding the guild (false while it is away, for RESUME). */
  gatewayConnected(guildId: string): boolean {
    return this.parts.gateway.connectionFor(guildId) !== undefined;
  }

  get restLog(): ReadonlyArray<RestLogEntry> {
    return this.parts.rest.log;
  }

  /** Downloads from the fake CDN (attachments), apart from the REST log. */
  get cdnLog(): ReadonlyArray<CdnLogEntry> {
    return this.parts.cdn.log;
  }

  /** Every interaction sent to the bot so far, with its token and the responses it got. */
  interactions(): ReadonlyArray<InteractionHandle> {
    return this.parts.interactions.all();
  }

  /** Messages the bot posted with POST /channels/{id}/messages. */
  channelMessages(channelId?: string): SentChannelMessage[] {
    return this.parts.rest.sentMessages.filter((m) => channelId === undefined || m.channelId === channelId);
  }

  /** Messages the bot sent to members by DM (POST /channels/{dm channel}/messages), apart from channelMessages(). */
  directMessages(userId?: string): SentDirectMessage[] {
    return this.parts.rest.directMessages.filter((m) => userId === undefined || m.userId === userId);
  }

  /** Resolves with the first direct message (sent so far or later) that matches. */
  waitForDirectMessage(
    predicate: (message: SentDirectMessage) => boolean,
    timeoutMs = WAIT_MS,
  ): Promise<SentDirectMessage> {
    const { rest, waits } = this.parts;
    return waits.wait(
      () => rest.directMessages.find(predicate),
      (notify) => {
        rest.messageListeners.add(notify);
        return () => rest.messageListeners.delete(notify);
      },
      timeoutMs,
      () =>
        `no matching direct message; got ${rest.directMessages.length}: ${rest.directMessages.map((m) => JSON.stringify(m.message.content)).join(', ')}`,
    );
  }

  /** Resolves with the first channel message (posted so far or later) that matches. */
  waitForChannelMessage(
    predicate: (message: SentChannelMessage) => boolean,
    timeoutMs = WAIT_MS,
  ): Promise<SentChannelMessage> {
    const { rest, waits } = this.parts;
    return waits.wait(
      () => rest.sentMessages.find(predicate),
      (notify) => {
        rest.messageListeners.add(notify);
        return () => rest.messageListeners.delete(notify);
      },
      timeoutMs,
      () =>
        `no matching channel message; got ${rest.sentMessages.length}: ${rest.sentMessages.map((m) => JSON.stringify(m.message.content)).join(', ')}`,
    );
  }

  registeredCommands(guildId?: string): unknown[] {
    return structuredClone(this.parts.commands.list(guildId));
  }

  /**
   * The commands a member's client offers in a channel of a server (default its text channel), as Discord decides
   * it (command-permissions.ts): the guild's and the global ones offered in servers, less those whose
   * default_member_permissions the member lacks or that the server's command permissions deny them there. What a
   * command picker, its autocomplete and the Apps menu list; command(), autocomplete() and messageCommand() refuse
   * any other with a DiscordRefusal.
   */
  commandsFor(input: { guildId: string; userId: string; channelId?: string }): Array<Record<string, unknown>> {
    const { world, commands, commandPermissions } = this.parts;
    const guild = world.guild(input.guildId);
    if (!guild.members.has(input.userId))
      throw new Error(`FakeDiscord: ${input.userId} is not a member of guild ${guild.id}`);
    const channelId = input.channelId ?? guild.textChannelId;
    return [...commands.list(guild.id), ...commands.list()]
      .filter(
        (command) =>
          commandAccess({
            guild,
            userId: input.userId,
            channelId,
            command,
            applicationId: world.applicationId,
            permissions: commandPermissions,
          }).allowed,
      )
      .map((command) => structuredClone(command));
  }

  /**
   * A member with Manage Server and Manage Roles sets a command's permissions in a server, as in Server Settings >
   * Integrations (the same as PUT .../commands/{command.id}/permissions with their Bearer token): the overrides
   * replace the command's (the application's ID: the app-wide ones); APPLICATION_COMMAND_PERMISSIONS_UPDATE follows.
   * Throws for an override Discord would refuse (an unknown role, member or channel, more than 100).
   */
  setCommandPermissions(guildId: string, commandId: string, permissions: CommandPermission[]): void {
    const { world, commands, commandPermissions, gateway } = this.parts;
    const guild = world.guild(guildId);
    const known =
      commandId === world.applicationId ||
      [...commands.list(guildId), ...commands.list()].some((c) => c.id === commandId);
    if (!known) throw new Error(`FakeDiscord: no command ${commandId} in guild ${guildId}`);
    const parsed = parsePermissionsBody(guild, { permissions });
    if ('field' in parsed)
      throw new Error(`FakeDiscord: command permissions refused: ${parsed.field}: ${parsed.message}`);
    commandPermissions.set(guildId, commandId, parsed.permissions);
    gateway.dispatchToGuild(
      guildId,
      'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
      permissionsPayload(world.applicationId, guildId, commandId, parsed.permissions),
    );
  }

  /** Messages the clients sent on the gateway in the last `withinMs` (up to a minute): heartbeats, op 4 and the rest. */
  gatewayMessagesWithin(withinMs: number): number {
    return this.parts.gateway.messagesWithin(withinMs);
  }

  botVoiceChannel(guildId: string): string | null {
    return this.parts.world.guild(guildId).voiceStates.get(this.parts.world.bot.id)?.channelId ?? null;
  }

  /** The guild's soundboard sounds the bot created: each sound object and its bytes. */
  soundboardSounds(
    guildId: string,
  ): ReadonlyArray<{ object: Record<string, unknown>; contentType: string; data: Buffer }> {
    return this.parts.world.guild(guildId).soundboardSounds;
  }

  /** A voice channel's status (PUT /channels/{id}/voice-status), undefined when none is set. */
  voiceChannelStatus(guildId: string, channelId: string): string | undefined {
    return this.parts.world.guild(guildId).voiceStatuses.get(channelId);
  }

  /** Voice channel of any member as the fake knows it (also in a server the bot left: its members' clients see it). */
  voiceChannelOf(guildId: string, userId: string): string | null {
    const guild = this.#botAway(guildId) ?? this.parts.world.guild(guildId);
    return guild.voiceStates.get(userId)?.channelId ?? null;
  }

  /** Whether the bot is in the server now: not once it left it or was removed (removeBot), again after addBotBack. */
  botIsIn(guildId: string): boolean {
    return this.parts.world.guilds.has(guildId);
  }

  /**
   * Whether a person is a member of the server, as their own client knows (removeMember ends it), whether or not
   * the bot is still there.
   */
  isMember(guildId: string, userId: string): boolean {
    return (this.parts.world.guilds.get(guildId) ?? this.#botAway(guildId))?.members.has(userId) ?? false;
  }

  /** A server the bot left or was removed from, which its members still have (undefined: the bot is there). */
  #botAway(guildId: string): GuildRecord | undefined {
    return this.parts.world.guilds.has(guildId) ? undefined : this.parts.world.guildsWithoutBot.get(guildId);
  }

  heard(guildId: string): HeardAudio {
    return this.parts.audio.heard(guildId);
  }

  /** The packets heard so far, without copying the decoded PCM as heard() does (cheap enough to poll). */
  heardPackets(guildId: string): HeardPacket[] {
    return this.parts.audio.packets(guildId);
  }

  /** Resolves with the first packet heard (so far or later) that matches, e.g. the first after a command went out. */
  waitForPacket(
    guildId: string,
    predicate: (packet: HeardPacket) => boolean,
    timeoutMs = WAIT_MS,
  ): Promise<HeardPacket> {
    return this.parts.audio.waitForPacket(guildId, predicate, timeoutMs);
  }

  waitForAudio(
    guildId: string,
    opts?: { minSeconds?: number; quietMs?: number; timeoutMs?: number },
  ): Promise<HeardAudio> {
    return this.parts.audio.waitFor(guildId, opts);
  }

  /**
   * Calls `listen` with the guild's audio as a listening member hears it, live: each decoded chunk (48 kHz stereo
   * interleaved s16, decrypted from DAVE as a client does), until the returned function is called.
   */
  onHeard(guildId: string, listen: (pcm: Int16Array) => void): () => void {
    return this.parts.audio.tap(guildId, listen);
  }

  /**
   * The messages of a channel the local Discord holds (bot posts, interaction responses and follow-ups), each as it
   * now is (edits applied), oldest first, at most `limit` of the newest. Members' chat (postMessage) is not kept.
   */
  messagesIn(channelId: string, limit = 100): Array<Record<string, unknown>> {
    return this.parts.messages.inChannel(channelId, limit);
  }

  clearAudio(guildId: string): void {
    this.parts.audio.clear(guildId);
  }

  // ---- DAVE ----

  /** The MLS group of the bot's voice session in this guild (epoch, members, listeners' decrypt counts), if DAVE is on. */
  daveState(guildId: string): DaveGroupState | undefined {
    return this.parts.voice.daveState(guildId);
  }

  /**
   * Puts a mark in the order the voice socket receives datagrams, now (sent in the call: everything any thread sent
   * to it before is received first) and resolves with the guild's DAVE state as the mark arrives: what its listeners
   * had decrypted, or failed to, of the frames sent before this moment.
   */
  markVoice(guildId: string): Promise<DaveGroupState | undefined> {
    return new Promise((resolve) => this.parts.udp.mark(() => resolve(this.daveState(guildId))));
  }

  /** Resolves once the DAVE group state matches, e.g. `(s) => s.botEpoch >= 2` after a member joined. */
  waitForDave(
    guildId: string,
    predicate: (state: DaveGroupState) => boolean,
    timeoutMs = WAIT_MS,
  ): Promise<DaveGroupState> {
    return this.parts.waits.wait(
      () => {
        const state = this.parts.voice.daveState(guildId);
        return state && predicate(state) ? state : undefined;
      },
      (notify) => {
        this.parts.daveWatchers.add(notify);
        return () => this.parts.daveWatchers.delete(notify);
      },
      timeoutMs,
      () =>
        `guild ${guildId}: DAVE state ${JSON.stringify(this.parts.voice.daveState(guildId) ?? null, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
    );
  }

  /** Voice sockets the gateway closed (4014 kick, 4017 without DAVE when required, 1000 replaced, 1001 shutdown). */
  voiceCloses(guildId?: string): VoiceCloseEntry[] {
    return this.parts.voice.closeLog.filter((c) => guildId === undefined || c.guildId === guildId);
  }

  /**
   * From now on, the bot's voice state requests (gateway op 4: a join, a move, a leave) in this guild wait unanswered,
   * as when Discord is slow to answer a join, until the returned release is called: then each is answered in the
   * order it came, and later ones at once. A join that lasts as long as a test needs, whatever the machine's speed.
   */
  holdVoiceRequests(guildId: string): () => void {
    const held: Array<() => void> = [];
    this.heldVoiceRequests.set(guildId, held);
    return () => {
      if (this.heldVoiceRequests.get(guildId) === held) this.heldVoiceRequests.delete(guildId);
      for (const answer of held.splice(0)) answer();
    };
  }

  /**
   * From now on downloads of attachments from the CDN wait unanswered until the returned release is called (a slow
   * CDN, as long as a test needs); then each is answered in the order it came.
   */
  holdAttachmentDownloads(): () => void {
    return this.parts.cdn.hold();
  }

  /** Attachment downloads holdAttachmentDownloads keeps waiting now. */
  heldAttachmentDownloads(): number {
    return this.parts.cdn.heldCount;
  }

  /** Op 4 requests the bot sent in this guild that holdVoiceRequests holds unanswered now. */
  heldVoiceRequestCount(guildId: string): number {
    return this.heldVoiceRequests.get(guildId)?.length ?? 0;
  }

  /** Joins the bot asked for in this guild (gateway op 4 with a channel): a library rejoin counts as one more. */
  voiceJoinRequests(guildId: string): number {
    return this.parts.voice.joinLog.filter((j) => j.guildId === guildId).length;
  }

  /** IDENTIFYs the voice gateway accepted from the bot for this guild: one per voice session attempt. */
  voiceIdentifies(guildId: string): number {
    return this.parts.voice.identifyLog.filter((i) => i.guildId === guildId).length;
  }

  /** The next `times` voice IDENTIFYs of this guild are answered by closing with `code` (e.g. 4021, 4022); 0 disarms. */
  refuseNextVoiceIdentify(guildId: string, code: number, times = 1): void {
    this.parts.voice.refuseNextIdentify(guildId, code, times);
  }

  /**
   * Closes the guild's live voice session with `code`, as Discord does when it ends the call (4022), finds the
   * session no longer valid (4006) or its voice server crashed (4015: the session is lost with it, and the client's
   * RESUME is answered with 4006).
   */
  closeVoiceSession(guildId: string, code: number): void {
    this.parts.voice.closeGuildSessions(guildId, code);
  }

  /** Resolves with the first voice close of this guild with this code (so far or later). */
  waitForVoiceClose(guildId: string, code: number, timeoutMs = WAIT_MS): Promise<VoiceCloseEntry> {
    return this.parts.waits.wait(
      () => this.parts.voice.closeLog.find((c) => c.guildId === guildId && c.code === code),
      (notify) => {
        this.parts.daveWatchers.add(notify);
        return () => this.parts.daveWatchers.delete(notify);
      },
      timeoutMs,
      () => `guild ${guildId}: no voice close ${code} among ${JSON.stringify(this.voiceCloses(guildId))}`,
    );
  }

  /** Resolves when the bot's current voice session has executed a DAVE transition (it can send E2EE audio). */
  daveReady(guildId: string, timeoutMs = WAIT_MS): Promise<DaveGroupState> {
    return this.waitForDave(guildId, (s) => s.botTransitions > 0 && s.botEpoch > 0n, timeoutMs);
  }

  /**
   * The next op 29 (commit) or op 30 (welcome) the gateway sends the bot in this guild arrives damaged: the client
   * must answer op 31 (invalid commit/welcome), and the gateway removes and re-adds it with its new key package.
   */
  damageNextDaveMessage(guildId: string, kind: 'commit' | 'welcome'): void {
    this.parts.voice.damageNextDaveMessage(guildId, kind);
  }

  /**
   * From the next voice session of this guild on, the gateway sends the MLS proposals (op 27) before
   * CLIENTS_CONNECT (op 11): @discordjs/voice 0.19 throws inside its websocket handler on that order.
   */
  setDaveProposalsBeforeClientsConnect(guildId: string, on = true): void {
    this.parts.voice.setProposalsBeforeClientsConnect(guildId, on);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.parts.waits.cancelAll();
      await Promise.all([this.parts.gateway.close(), this.parts.voice.close(), this.parts.udp.close()]);
      this.parts.server.closeAllConnections();
      await new Promise<void>((resolve) => this.parts.server.close(() => resolve()));
    })();
    return this.closing;
  }

  // ---- voice signalling ----

  /** The bot's op 4: answered now, or held while holdVoiceRequests holds the guild's. */
  private botVoiceStateRequested(connection: GatewaySession | undefined, request: VoiceStateRequest): void {
    const held = this.heldVoiceRequests.get(request.guildId);
    if (held) held.push(() => this.applyBotVoiceState(connection, request));
    else this.applyBotVoiceState(connection, request);
  }

  /** VOICE_STATE_UPDATE for the bot, THEN VOICE_SERVER_UPDATE (the other order leaves @discordjs/voice signalling). */
  private applyBotVoiceState(connection: GatewaySession | undefined, request: VoiceStateRequest): void {
    const guild = this.parts.world.guild(request.guildId);
    const botId = this.parts.world.bot.id;
    const sessionId = connection?.sessionId ?? 'no-gateway-session';
    const previous = guild.voiceStates.get(botId)?.channelId ?? null;
    const state = guild.setVoiceState(botId, request.channelId, {
      selfMute: request.selfMute,
      selfDeaf: request.selfDeaf,
      sessionId,
    });
    const payload: Json = voiceStatePayload(guild, botId, state, sessionId);
    this.parts.gateway.dispatchToGuild(guild.id, 'VOICE_STATE_UPDATE', payload, GatewayIntent.GuildVoiceStates);
    if (request.channelId === null) {
      if (previous !== null) this.parts.voice.disconnectGuild(guild.id);
      return;
    }
    const token = this.parts.voice.allocate(guild.id, botId, sessionId, request.channelId);
    this.parts.gateway.dispatchToGuild(guild.id, 'VOICE_SERVER_UPDATE', {
      token,
      guild_id: guild.id,
      endpoint: this.parts.voice.endpoint,
    });
  }
}
