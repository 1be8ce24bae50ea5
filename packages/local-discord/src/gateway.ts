// The main gateway (/gateway?v=10&encoding=json): HELLO, IDENTIFY -> READY + GUILD_CREATE per guild of the shard,
// heartbeats, dispatches, op 4 voice state requests and op 8 member requests.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { randomToken, shardOf } from './snowflake.ts';
import { GatewayIntent, PRIVILEGED_INTENTS, guildCreatePayload, memberPayload, userPayload } from './state.ts';
import type { BotApplication, World } from './world.ts';
import { delaySocket } from './network-delay.ts';
import type { Waits } from './waits.ts';

const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;
export const GatewayClose = {
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidShard: 4010,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

export interface VoiceStateRequest {
  guildId: string;
  channelId: string | null;
  selfMute: boolean;
  selfDeaf: boolean;
}

/** Dispatches a session keeps for RESUME; a client away longer than this many events must identify afresh. */
const RESUME_BUFFER = 1000;
/**
 * Bytes queued on one socket for a client that does not read them (slow, stalled or dead) before the socket is
 * dropped: its session stays, buffering up to RESUME_BUFFER events for the client to RESUME, as after a network cut.
 */
export const MAX_OUTBOUND_BYTES = 4 * 1024 * 1024;

/**
 * One gateway session (READY's session_id): its sequence numbers and the dispatches sent in it, kept for RESUME.
 * It outlives its socket: events for its guilds while the client is away are buffered and replayed on resume.
 */
export class GatewaySession {
  readonly sessionId = randomToken(16);
  /** The application whose token identified it: its bot's events come here, none of another's. */
  readonly application: BotApplication;
  readonly shard: [number, number];
  readonly intents: number;
  connection: GatewayConnection | undefined;
  /** Ended by op 9 (not resumable) or by a newer IDENTIFY of the same shard: RESUME is refused. */
  ended = false;
  private seq = 0;
  private readonly buffer: Array<{ s: number; t: string; d: unknown }> = [];

  constructor(application: BotApplication, shard: [number, number], intents: number) {
    this.application = application;
    this.shard = shard;
    this.intents = intents;
  }

  get lastSeq(): number {
    return this.seq;
  }

  dispatch(t: string, d: unknown): void {
    const event = { s: ++this.seq, t, d };
    this.buffer.push(event);
    if (this.buffer.length > RESUME_BUFFER) this.buffer.shift();
    this.connection?.sendRaw({ op: Op.Dispatch, ...event });
  }

  /** The dispatches after `seq`, or undefined when some of them are no longer kept. */
  since(seq: number): Array<{ s: number; t: string; d: unknown }> | undefined {
    const first = this.buffer[0];
    if (seq < this.seq && first !== undefined && first.s > seq + 1) return undefined;
    return this.buffer.filter((e) => e.s > seq);
  }

  covers(guildId: string): boolean {
    return !this.ended && shardOf(guildId, this.shard[1]) === this.shard[0];
  }
}

export class GatewayConnection {
  readonly ws: WebSocket;
  session: GatewaySession | undefined;

  constructor(ws: WebSocket) {
    this.ws = ws;
  }

  get identified(): boolean {
    return this.session !== undefined;
  }

  get sessionId(): string | undefined {
    return this.session?.sessionId;
  }

  get intents(): number {
    return this.session?.intents ?? 0;
  }

  send(op: number, d: unknown): void {
    this.sendRaw({ op, d, s: null, t: null });
  }

  sendRaw(packet: { op: number; d: unknown; s: number | null; t: string | null }): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_OUTBOUND_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(JSON.stringify(packet));
  }

  dispatch(t: string, d: unknown): void {
    this.session?.dispatch(t, d);
  }

  covers(guildId: string): boolean {
    return this.session?.covers(guildId) ?? false;
  }
}

/** Client messages whose arrival times are kept (a minute's worth at Discord's 120-a-minute limit, with room). */
const ARRIVALS_KEPT = 1_000;

export interface GatewayOptions {
  world: World;
  waits: Waits;
  report: (line: string) => void;
  /** One-way delay on every message, both ways (network-delay.ts); 0 on loopback. */
  latencyMs?: number;
  resumeUrl: () => string;
  onVoiceStateRequest: (connection: GatewayConnection, request: VoiceStateRequest) => void;
}

export class Gateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly connections = new Set<GatewayConnection>();
  private readonly sessions = new Set<GatewaySession>();
  private readonly listeners = new Set<() => void>();
  private readonly options: GatewayOptions;
  /** When each client message arrived (performance.now()), oldest first: the last minute's, at most 1,000. */
  private readonly arrivals: number[] = [];

  constructor(options: GatewayOptions) {
    this.options = options;
    this.wss.on('error', (error) => options.report(`gateway error: ${String(error)}`));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    socket.on('error', () => socket.destroy());
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      delaySocket(ws, this.options.latencyMs ?? 0);
      const connection = new GatewayConnection(ws);
      this.connections.add(connection);
      ws.on('error', (error) => this.options.report(`gateway socket error: ${String(error)}`));
      ws.on('close', (code) => {
        this.connections.delete(connection);
        const session = connection.session;
        if (session?.connection !== connection) return;
        session.connection = undefined;
        // A client closing with 1000/1001 ends its session (as on Discord): a stopped bot's commands wait for the
        // next IDENTIFY. Otherwise the session stays, for RESUME, and what happens meanwhile is buffered.
        if (code === 1000 || code === 1001) this.endSession(session);
      });
      if (url.searchParams.get('v') !== '10') {
        this.closeConnection(connection, GatewayClose.InvalidApiVersion, 'Invalid API version.');
        return;
      }
      if ((url.searchParams.get('encoding') ?? 'json') !== 'json') {
        this.closeConnection(connection, GatewayClose.DecodeError, 'Only encoding=json is supported by the fake.');
        return;
      }
      connection.send(Op.Hello, { heartbeat_interval: 41_250 });
      ws.on('message', (data: RawData) => {
        try {
          this.onMessage(connection, data);
        } catch (error) {
          this.options.report(`gateway: failed handling a message: ${String(error)}`);
          this.closeConnection(connection, GatewayClose.DecodeError, 'Error while decoding payload.');
        }
      });
    });
  }

  /**
   * The session of `application` (default the main one) whose shard holds the guild: connected, or away but
   * resumable (its events are then buffered).
   */
  sessionFor(guildId: string, application: BotApplication = this.options.world.main): GatewaySession | undefined {
    // The newest session wins: a re-identifying client's old session may linger for a moment.
    return [...this.sessions]
      .reverse()
      .find((session) => session.application === application && session.covers(guildId));
  }

  /** The live socket of that session, if the client is connected. */
  connectionFor(guildId: string, application?: BotApplication): GatewayConnection | undefined {
    return this.sessionFor(guildId, application)?.connection;
  }

  /**
   * Drops the client's socket for this guild's session, as a network failure or a Discord restart does: `close`
   * with a code (4000 unknown error: the client resumes), or without one an abrupt end (no close frame).
   */
  dropConnection(guildId: string, code?: number, application?: BotApplication): void {
    const session = this.sessionFor(guildId, application);
    const connection = session?.connection;
    if (!session || !connection) throw new Error(`FakeDiscord: no connected gateway session holds guild ${guildId}`);
    session.connection = undefined;
    if (code === undefined) connection.ws.terminate();
    else this.closeConnection(connection, code, 'Dropped by the test.');
  }

  /** op 7 Reconnect: the client closes and resumes. */
  requestReconnect(guildId: string, application?: BotApplication): void {
    const connection = this.connectionFor(guildId, application);
    if (!connection) throw new Error(`FakeDiscord: no connected gateway session holds guild ${guildId}`);
    connection.send(Op.Reconnect, null);
  }

  /** op 9 Invalid Session: resumable (the client resumes on the same socket) or not (it identifies afresh). */
  invalidateSession(guildId: string, resumable: boolean, application?: BotApplication): void {
    const session = this.sessionFor(guildId, application);
    const connection = session?.connection;
    if (!session || !connection) throw new Error(`FakeDiscord: no connected gateway session holds guild ${guildId}`);
    if (!resumable) this.endSession(session);
    connection.send(Op.InvalidSession, resumable);
  }

  private endSession(session: GatewaySession): void {
    session.ended = true;
    this.sessions.delete(session);
  }

  /**
   * Sends a server's event to every bot in it (each application's session holding the guild); events that need an
   * intent are skipped for sessions without it. `d` may be made per session (what its intents let it see;
   * undefined: none for that one). True when some session was sent it.
   */
  dispatchToGuild(
    guildId: string,
    t: string,
    d: Record<string, unknown> | ((session: GatewaySession) => Record<string, unknown> | undefined),
    intent?: number,
  ): boolean {
    const { world } = this.options;
    let sent = false;
    for (const application of world.applications.values()) {
      if (!world.guildOf(application, guildId)) continue;
      const session = this.sessionFor(guildId, application);
      if (!session || (intent !== undefined && (session.intents & intent) === 0)) continue;
      const payload = typeof d === 'function' ? d(session) : d;
      if (payload === undefined) continue;
      session.dispatch(t, payload);
      sent = true;
    }
    return sent;
  }

  /** Sends an event about a guild to one application's session holding it (its GUILD_DELETE, its voice server). */
  dispatchTo(application: BotApplication, guildId: string, t: string, d: unknown): boolean {
    const session = this.sessionFor(guildId, application);
    session?.dispatch(t, d);
    return session !== undefined;
  }

  /**
   * A token no longer works (reset, or the session start limit passed): each of its application's sessions ends,
   * its socket closed with 4004, as Discord closes a session whose token was reset.
   */
  revoke(application: BotApplication): void {
    for (const session of [...this.sessions]) {
      if (session.application !== application) continue;
      this.endSession(session);
      const connection = session.connection;
      session.connection = undefined;
      if (connection) this.closeConnection(connection, GatewayClose.AuthenticationFailed, 'Authentication failed.');
    }
  }

  /**
   * The session of `application` (default the main one) that holds the guild once its client has identified
   * (dispatches to it are buffered while it is away).
   */
  whenGuildReady(guildId: string, timeoutMs: number, application?: BotApplication): Promise<GatewaySession> {
    return this.options.waits.wait(
      () => this.sessionFor(guildId, application),
      (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      timeoutMs,
      () => `no gateway session covers guild ${guildId} (has the client logged in?)`,
    );
  }

  /**
   * How many messages clients sent in the last `withinMs` (at most a minute back): Discord allows a session 120 a
   * minute, so a driver that sends commands through a bot can keep under that limit counting what really arrived.
   */
  messagesWithin(withinMs: number): number {
    const since = performance.now() - withinMs;
    let count = 0;
    for (let i = this.arrivals.length - 1; i >= 0 && (this.arrivals[i] as number) > since; i--) count++;
    return count;
  }

  private noteArrival(): void {
    const now = performance.now();
    while (
      this.arrivals.length >= ARRIVALS_KEPT ||
      (this.arrivals.length > 0 && (this.arrivals[0] as number) <= now - 60_000)
    )
      this.arrivals.shift();
    this.arrivals.push(now);
  }

  private onMessage(connection: GatewayConnection, data: RawData): void {
    this.noteArrival();
    let packet: { op?: unknown; d?: unknown };
    try {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      packet = JSON.parse(text) as typeof packet;
    } catch {
      this.options.report('gateway: a message that is not JSON -> close 4002');
      this.closeConnection(connection, GatewayClose.DecodeError, 'Error while decoding payload.');
      return;
    }
    const d = (typeof packet.d === 'object' && packet.d !== null ? packet.d : {}) as Record<string, unknown>;
    if (packet.op === Op.Heartbeat) {
      connection.send(Op.HeartbeatAck, null);
      return;
    }
    if (packet.op === Op.Identify) {
      this.identify(connection, d);
      return;
    }
    if (packet.op === Op.Resume) {
      this.resume(connection, d);
      return;
    }
    if (!connection.identified) {
      this.options.report(`gateway: op ${String(packet.op)} before IDENTIFY -> close 4003`);
      this.closeConnection(connection, GatewayClose.NotAuthenticated, 'Not authenticated.');
      return;
    }
    switch (packet.op) {
      case Op.PresenceUpdate:
        return;
      case Op.VoiceStateUpdate:
        this.voiceStateUpdate(connection, d);
        return;
      case Op.RequestGuildMembers:
        this.requestGuildMembers(connection, d);
        return;
      default:
        this.options.report(`gateway: unknown opcode ${String(packet.op)} -> close 4001`);
        this.closeConnection(connection, GatewayClose.UnknownOpcode, 'Unknown opcode.');
    }
  }

  private identify(connection: GatewayConnection, d: Record<string, unknown>): void {
    if (connection.identified) {
      this.closeConnection(connection, GatewayClose.AlreadyAuthenticated, 'Already authenticated.');
      return;
    }
    const { world } = this.options;
    const application = world.applicationByToken(d.token);
    if (!application) {
      this.options.report('gateway: IDENTIFY with an unknown token -> close 4004');
      this.closeConnection(connection, GatewayClose.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    const shard = Array.isArray(d.shard) ? d.shard : [0, 1];
    const [shardId, shardCount] = [Number(shard[0]), Number(shard[1])];
    if (
      !Number.isInteger(shardId) ||
      !Number.isInteger(shardCount) ||
      shardCount < 1 ||
      shardId < 0 ||
      shardId >= shardCount
    ) {
      this.closeConnection(connection, GatewayClose.InvalidShard, 'Invalid shard.');
      return;
    }
    if (typeof d.intents !== 'number' || !Number.isInteger(d.intents) || d.intents < 0) {
      this.closeConnection(connection, GatewayClose.InvalidIntents, 'Invalid intent(s).');
      return;
    }
    const disallowed = d.intents & PRIVILEGED_INTENTS & ~application.allowedPrivilegedIntents;
    if (disallowed !== 0) {
      this.options.report(
        `gateway: IDENTIFY asks for privileged intents ${disallowed} that the application does not have -> close 4014`,
      );
      this.closeConnection(connection, GatewayClose.DisallowedIntents, 'Disallowed intent(s).');
      return;
    }
    // Past the session start limit Discord resets the token: every session of it ends.
    if (!application.spendIdentify()) {
      this.options.report(
        `gateway: IDENTIFY past bot ${application.user.id}'s session start limit -> its token reset, close 4004`,
      );
      application.resetToken();
      this.revoke(application);
      this.closeConnection(connection, GatewayClose.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    // A new session of the same shard replaces the old one, which can no longer be resumed.
    for (const old of [...this.sessions])
      if (old.application === application && old.shard[0] === shardId && old.shard[1] === shardCount)
        this.endSession(old);
    const session = new GatewaySession(application, [shardId, shardCount], d.intents);
    session.connection = connection;
    connection.session = session;
    const guilds = world.guildsOf(application).filter((g) => shardOf(g.id, shardCount) === shardId);
    connection.dispatch('READY', {
      v: 10,
      user: { ...userPayload(application.user), verified: true, mfa_enabled: false, email: null },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.sessionId,
      resume_gateway_url: this.options.resumeUrl(),
      shard: [shardId, shardCount],
      application: { id: application.applicationId, flags: 0 },
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      user_settings: {},
      geo_ordered_rtc_regions: ['local'],
      auth_session_id_hash: randomToken(16),
    });
    for (const guild of guilds)
      connection.dispatch('GUILD_CREATE', guildCreatePayload(guild, application.user.id, session.intents));
    this.sessions.add(session);
    for (const listener of [...this.listeners]) listener();
  }

  /** op 6: the missed dispatches in order, then RESUMED; op 9 (false) when the session cannot be resumed. */
  private resume(connection: GatewayConnection, d: Record<string, unknown>): void {
    const application = this.options.world.applicationByToken(d.token);
    if (!application) {
      this.options.report('gateway: RESUME with an unknown token -> close 4004');
      this.closeConnection(connection, GatewayClose.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    const session = [...this.sessions].find((s) => s.sessionId === d.session_id && s.application === application);
    const seq = typeof d.seq === 'number' ? d.seq : 0;
    const missed = session?.since(seq);
    if (!session || session.ended || missed === undefined) {
      this.options.report(`gateway: RESUME of ${String(d.session_id)} at seq ${seq}, which cannot be resumed -> op 9`);
      connection.send(Op.InvalidSession, false);
      return;
    }
    const previous = session.connection;
    if (previous && previous !== connection) this.closeConnection(previous, 4009, 'Session resumed elsewhere.');
    session.connection = connection;
    connection.session = session;
    for (const event of missed) connection.sendRaw({ op: Op.Dispatch, ...event });
    session.dispatch('RESUMED', null);
    for (const listener of [...this.listeners]) listener();
  }

  private voiceStateUpdate(connection: GatewayConnection, d: Record<string, unknown>): void {
    const guildId = String(d.guild_id);
    const channelId = d.channel_id === null || d.channel_id === undefined ? null : String(d.channel_id);
    const application = connection.session?.application;
    const guild = application && this.options.world.guildOf(application, guildId);
    if (!guild || !connection.covers(guildId)) {
      this.options.report(`gateway: op 4 for guild ${guildId}, which this shard does not hold (ignored)`);
      return;
    }
    if (channelId !== null && !guild.voiceChannel(channelId)) {
      this.options.report(`gateway: op 4 to ${channelId}, not a voice channel of guild ${guildId} (ignored)`);
      return;
    }
    this.options.onVoiceStateRequest(connection, {
      guildId,
      channelId,
      selfMute: d.self_mute === true,
      selfDeaf: d.self_deaf === true,
    });
  }

  private requestGuildMembers(connection: GatewayConnection, d: Record<string, unknown>): void {
    const guildIds = Array.isArray(d.guild_id) ? d.guild_id.map(String) : [String(d.guild_id)];
    const wanted = Array.isArray(d.user_ids)
      ? d.user_ids.map(String)
      : typeof d.user_ids === 'string'
        ? [d.user_ids]
        : undefined;
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : '';
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
    if (wanted === undefined && (connection.intents & GatewayIntent.GuildMembers) === 0 && query === '') {
      this.options.report('gateway: op 8 for all members without the GUILD_MEMBERS intent -> close 4013');
      this.closeConnection(connection, GatewayClose.InvalidIntents, 'Invalid intent(s).');
      return;
    }
    for (const guildId of guildIds) {
      const application = connection.session?.application;
      const guild = application && this.options.world.guildOf(application, guildId);
      if (!guild || !connection.covers(guildId)) continue;
      const members = [...guild.members.values()]
        .filter((m) => (wanted ? wanted.includes(m.user.id) : m.user.username.toLowerCase().startsWith(query)))
        .slice(0, limit);
      connection.dispatch('GUILD_MEMBERS_CHUNK', {
        guild_id: guildId,
        members: members.map((m) => memberPayload(guild, m)),
        chunk_index: 0,
        chunk_count: 1,
        ...(wanted ? { not_found: wanted.filter((id) => !guild.members.has(id)) } : {}),
        ...(d.nonce !== undefined ? { nonce: d.nonce } : {}),
      });
    }
  }

  private closeConnection(connection: GatewayConnection, code: number, reason: string): void {
    try {
      connection.ws.close(code, reason);
    } catch {
      connection.ws.terminate();
    }
  }

  close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}
