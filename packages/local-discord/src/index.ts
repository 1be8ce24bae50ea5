// FakeDiscord: a Discord of our own on 127.0.0.1 for end-to-end tests and benchmarks. An unmodified discord.js
// client and @discordjs/voice connect to it (REST + gateway over HTTP/WS, voice gateway over WSS, media over UDP);
// tests drive interactions and read back what the bot answered and what each guild's voice channel heard.
// Protocol facts: Discord's developer documentation (API v10, gateway v10, voice gateway v8); README.md beside this file.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cdn, type CdnLogEntry } from './cdn.ts';
import { DiscordClock } from './clock.ts';
import { DEFAULT_DAVE_MODE } from './dave/mode.ts';
import { CommandStore } from './commands.ts';
import {
  CommandPermissionStore,
  commandAccess,
  parsePermissionsBody,
  permissionsPayload,
  type CommandPermission,
} from './command-permissions.ts';
import { Gateway } from './gateway.ts';
import { HeardAudioStore } from './heard-audio.ts';
import { InteractionType, Interactions } from './interactions.ts';
import { DiscordRefusal, checkSeenBy } from './api-error.ts';
import { asObject, memberMessageRefusal, MessageStore } from './messages.ts';
import { RestApi, type RateLimitInjection, type RefusalInjection } from './rest.ts';
import { AES_GCM_MODE } from './rtp-decrypt.ts';
import { World, type BotApplication } from './world.ts';
import { dispatchMessageCreate, resolvedMessagePayload, type ChatMessage } from './message-create.ts';
import { snowflake } from './snowflake.ts';
import type {
  FakeAttachment,
  FakeAutocompleteInput,
  FakeButtonInput,
  FakeCommandInput,
  FakeDiscordOptions,
  FakeModalSubmitInput,
  FakePrivateCommandInput,
  FakeMessageCommandInput,
  InteractionHandle,
  RestLogEntry,
  SentChannelMessage,
  SentDirectMessage,
} from './types.ts';
import { VOICE_CA_CERTIFICATE_PEM, VoiceGateway } from './voice-gateway.ts';
import { VoiceUdp } from './voice-udp.ts';
import { VoiceSignalling } from './voice-signalling.ts';
import { Membership } from './membership.ts';
import { FakeDiscordServers } from './fake-servers.ts';
import type { Parts } from './parts.ts';
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
export type { FakeBotApplication } from './fake-bots.ts';
export type { AudioScope } from './heard-audio.ts';

const READY_TIMEOUT_MS = 15_000;
/** Discord's: an interaction token works for 15 minutes. */
const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;

export class FakeDiscord extends FakeDiscordServers {
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

  private closing: Promise<void> | undefined;

  private constructor(parts: Parts, problems: string[], baseUrl: string) {
    super(parts);
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
    const audio = new HeardAudioStore(waits, (guildId, userId) => {
      const state = world.anyGuild(guildId)?.voiceStates.get(userId);
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
        [...(world.anyGuild(guildId)?.voiceStates.values() ?? [])]
          .filter((vs) => vs.channelId === channelId && !world.applications.has(vs.userId))
          .map((vs) => vs.userId),
    });
    let baseUrl = '';
    const self: { signalling?: VoiceSignalling; fake?: FakeDiscord } = {};
    const gateway = new Gateway({
      world,
      waits,
      report,
      latencyMs: options.gatewayLatencyMs ?? 0,
      resumeUrl: () => `${baseUrl.replace('http:', 'ws:')}/gateway`,
      onVoiceStateRequest: (connection, request) => self.signalling?.requested(connection.session, request),
    });
    const signalling = new VoiceSignalling(world, gateway, voice);
    self.signalling = signalling;
    const membership = new Membership(world, gateway, signalling);
    const oauth2 = new LocalOAuth2({ world, clock, options: options.oauth2 ?? {}, baseUrl: () => baseUrl, report });
    // Each application its own commands: the main one's are `commands`, which interactions use.
    const helperCommands = new Map<BotApplication, CommandStore>();
    const commandsOf = (application: BotApplication): CommandStore => {
      if (application.main) return commands;
      const store =
        helperCommands.get(application) ??
        new CommandStore(application.applicationId, (commandId) => commandPermissions.forget(commandId));
      helperCommands.set(application, store);
      return store;
    };
    const rest = new RestApi({
      world,
      commandsOf,
      commandPermissions,
      bearer: (authorization) => oauth2.bearer(authorization),
      commandPermissionsUpdated: (application, guildId, payload) =>
        gateway.dispatchTo(application, guildId, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE', payload),
      interactions,
      messages,
      cdn,
      shards: options.shards ?? 1,
      invalidRequestLimit: options.invalidRequestLimit,
      gatewayUrl: () => `${baseUrl.replace('http:', 'ws:')}/gateway`,
      report,
      leaveGuild: (guildId, application) => membership.left(guildId, application),
      voiceStateChanged: (guildId, userId) => signalling.changed(guildId, userId),
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
        signalling,
        membership,
        commandsOf,
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
    const { world, gateway } = this.parts;
    // A timed-out member has lost Send Messages everywhere in the server: their client cannot post.
    if (world.anyGuild(message.guildId)?.isTimedOut(message.author.id) === true)
      throw new DiscordRefusal(403, 50013, 'Missing Permissions (the member is timed out)');
    // A server the main bot left still has its members and channels: they write there, and it is not told.
    if (world.guilds.has(message.guildId)) await gateway.whenGuildReady(message.guildId, READY_TIMEOUT_MS);
    return dispatchMessageCreate(gateway, message);
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

  /**
   * A member presses a button on a message a bot posted (INTERACTION_CREATE type 3, Interactions.createButton): sent
   * to the application whose bot posted the message (the main one for its interaction responses).
   */
  async pressButton(input: FakeButtonInput): Promise<InteractionHandle> {
    const { interaction, payload } = this.parts.interactions.createButton(input);
    const connection = await this.parts.gateway.whenGuildReady(
      input.guildId,
      READY_TIMEOUT_MS,
      interaction.application,
    );
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
   * Discord's own clock moves on by `ms` (the host's does not): tokens of interactions created before are that
   * much older (past 15 minutes: 401 50027), and unanswered interactions that much closer to their 3 s.
   */
  advanceClock(ms: number): void {
    this.parts.clock.advance(ms);
  }

  /** Serves bytes over HTTP like Discord's CDN; use the result in a command's `attachments` or an option's value. */
  hostAttachment(data: Uint8Array, filename: string, contentType?: string): FakeAttachment {
    return this.parts.cdn.host(data, filename, contentType);
  }

  /** Answers the next matching REST request(s) with 429, retry_after and the X-RateLimit headers, as Discord does. */
  rateLimit(injection: RateLimitInjection): void {
    this.parts.rest.injectRateLimit(injection);
  }

  /** Forgets the 429s rateLimit armed and not yet all answered: a route held with `times: Infinity` is let go. */
  clearRateLimits(): void {
    this.parts.rest.clearRateLimits();
  }

  /** Refuses the next request(s) on a route as Discord does (a status, a JSON code, the field errors). */
  refuse(injection: RefusalInjection): void {
    this.parts.rest.injectRefusal(injection);
  }

  /** Forgets the refusals armed with refuse() that no request has met yet. */
  clearRefusals(): void {
    this.parts.rest.clearRefusals();
  }

  // ---- observing ----

  get restLog(): ReadonlyArray<RestLogEntry> {
    return this.parts.rest.log;
  }

  /** Downloads from the fake CDN (attachments), apart from the REST log. */
  get cdnLog(): ReadonlyArray<CdnLogEntry> {
    return this.parts.cdn.log;
  }

  /** Every interaction sent to a bot (default the main one) so far, with its token and the responses it got. */
  interactions(botUserId?: string): ReadonlyArray<InteractionHandle> {
    const application = this.parts.world.application(botUserId);
    return this.parts.interactions.all().filter((interaction) => interaction.application === application);
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

  /** The commands an application (default the main one) registered: global ones, or a guild's. */
  registeredCommands(guildId?: string, botUserId?: string): unknown[] {
    return structuredClone(this.parts.commandsOf(this.parts.world.application(botUserId)).list(guildId));
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
    // The main application's commands: only its bot is told.
    gateway.dispatchTo(
      world.main,
      guildId,
      'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
      permissionsPayload(world.applicationId, guildId, commandId, parsed.permissions),
    );
  }

  /** Messages the clients sent on the gateway in the last `withinMs` (up to a minute): heartbeats, op 4 and the rest. */
  gatewayMessagesWithin(withinMs: number): number {
    return this.parts.gateway.messagesWithin(withinMs);
  }

  /** The guild's soundboard sounds the bot created: each sound object and its bytes. */
  soundboardSounds(
    guildId: string,
  ): ReadonlyArray<{ object: Record<string, unknown>; contentType: string; data: Buffer }> {
    return this.parts.world.guild(guildId).soundboardSounds;
  }

  /**
   * The messages of a channel the local Discord holds (bot posts, interaction responses and follow-ups), each as it
   * now is (edits applied), oldest first, at most `limit` of the newest. Members' chat (postMessage) is not kept.
   */
  messagesIn(channelId: string, limit = 100): Array<Record<string, unknown>> {
    return this.parts.messages.inChannel(channelId, limit);
  }

  // ---- DAVE ----

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

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.parts.waits.cancelAll();
      await Promise.all([this.parts.gateway.close(), this.parts.voice.close(), this.parts.udp.close()]);
      this.parts.server.closeAllConnections();
      await new Promise<void>((resolve) => this.parts.server.close(() => resolve()));
    })();
    return this.closing;
  }
}
