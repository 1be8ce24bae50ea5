// The main gateway (/gateway?v=10&encoding=json): HELLO, IDENTIFY -> READY + GUILD_CREATE per guild of the shard,
// heartbeats, dispatches, op 4 voice state requests and op 8 member requests.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { randomToken, shardOf } from './snowflake.ts';
import { GatewayIntent, PRIVILEGED_INTENTS, guildCreatePayload, memberPayload, userPayload, type World } from './state.ts';
import type { Waits } from './waits.ts';

const Op = { Dispatch: 0, Heartbeat: 1, Identify: 2, PresenceUpdate: 3, VoiceStateUpdate: 4, Resume: 6, Reconnect: 7, RequestGuildMembers: 8, InvalidSession: 9, Hello: 10, HeartbeatAck: 11 } as const;
export const GatewayClose = {
  UnknownOpcode: 4001, DecodeError: 4002, NotAuthenticated: 4003, AuthenticationFailed: 4004, AlreadyAuthenticated: 4005,
  InvalidShard: 4010, InvalidApiVersion: 4012, InvalidIntents: 4013, DisallowedIntents: 4014,
} as const;

export interface VoiceStateRequest { guildId: string; channelId: string | null; selfMute: boolean; selfDeaf: boolean }

export class GatewayConnection {
  readonly ws: WebSocket;
  readonly sessionId = randomToken(16);
  identified = false;
  shard: [number, number] = [0, 1];
  intents = 0;
  private seq = 0;

  constructor(ws: WebSocket) {
    this.ws = ws;
  }

  send(op: number, d: unknown, t: string | null = null): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify({ op, d, s: op === Op.Dispatch ? ++this.seq : null, t }));
  }

  dispatch(t: string, d: unknown): void {
    this.send(Op.Dispatch, d, t);
  }

  covers(guildId: string): boolean {
    return this.identified && shardOf(guildId, this.shard[1]) === this.shard[0];
  }
}

export interface GatewayOptions {
  token: string;
  world: World;
  allowedPrivilegedIntents: number;
  waits: Waits;
  report: (line: string) => void;
  resumeUrl: () => string;
  onVoiceStateRequest: (connection: GatewayConnection, request: VoiceStateRequest) => void;
}

export class Gateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly connections = new Set<GatewayConnection>();
  private readonly listeners = new Set<() => void>();
  private readonly options: GatewayOptions;

  constructor(options: GatewayOptions) {
    this.options = options;
    this.wss.on('error', (error) => options.report(`gateway error: ${String(error)}`));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    socket.on('error', () => socket.destroy());
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new GatewayConnection(ws);
      this.connections.add(connection);
      ws.on('error', (error) => this.options.report(`gateway socket error: ${String(error)}`));
      ws.on('close', () => this.connections.delete(connection));
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

  /** The identified connection whose shard holds the guild. */
  connectionFor(guildId: string): GatewayConnection | undefined {
    // The newest session wins: a reconnecting client's old socket may linger for a moment.
    return [...this.connections].reverse().find((c) => c.covers(guildId));
  }

  /** Sends a dispatch for a guild; events that need an intent are skipped for clients without it. */
  dispatchToGuild(guildId: string, t: string, d: unknown, intent?: number): boolean {
    const connection = this.connectionFor(guildId);
    if (!connection || (intent !== undefined && (connection.intents & intent) === 0)) return false;
    connection.dispatch(t, d);
    return true;
  }

  whenGuildReady(guildId: string, timeoutMs: number): Promise<GatewayConnection> {
    return this.options.waits.wait(
      () => this.connectionFor(guildId),
      (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      timeoutMs,
      () => `no gateway session covers guild ${guildId} (has the client logged in?)`,
    );
  }

  private onMessage(connection: GatewayConnection, data: RawData): void {
    let packet: { op?: unknown; d?: unknown };
    try {
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
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
      // Sessions are not kept across connections: tell the client to identify afresh.
      connection.send(Op.InvalidSession, false);
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
    if (d.token !== this.options.token && d.token !== `Bot ${this.options.token}`) {
      this.options.report('gateway: IDENTIFY with a wrong token -> close 4004');
      this.closeConnection(connection, GatewayClose.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    const shard = Array.isArray(d.shard) ? d.shard : [0, 1];
    const [shardId, shardCount] = [Number(shard[0]), Number(shard[1])];
    if (!Number.isInteger(shardId) || !Number.isInteger(shardCount) || shardCount < 1 || shardId < 0 || shardId >= shardCount) {
      this.closeConnection(connection, GatewayClose.InvalidShard, 'Invalid shard.');
      return;
    }
    if (typeof d.intents !== 'number' || !Number.isInteger(d.intents) || d.intents < 0) {
      this.closeConnection(connection, GatewayClose.InvalidIntents, 'Invalid intent(s).');
      return;
    }
    const disallowed = d.intents & PRIVILEGED_INTENTS & ~this.options.allowedPrivilegedIntents;
    if (disallowed !== 0) {
      this.options.report(`gateway: IDENTIFY asks for privileged intents ${disallowed} that the application does not have -> close 4014`);
      this.closeConnection(connection, GatewayClose.DisallowedIntents, 'Disallowed intent(s).');
      return;
    }
    connection.shard = [shardId, shardCount];
    connection.intents = d.intents;
    const { world } = this.options;
    const guilds = [...world.guilds.values()].filter((g) => shardOf(g.id, shardCount) === shardId);
    connection.dispatch('READY', {
      v: 10, user: { ...userPayload(world.bot), verified: true, mfa_enabled: false, email: null },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })), session_id: connection.sessionId,
      resume_gateway_url: this.options.resumeUrl(), shard: [shardId, shardCount],
      application: { id: world.applicationId, flags: 0 }, private_channels: [], presences: [], relationships: [],
      guild_join_requests: [], user_settings: {}, geo_ordered_rtc_regions: ['local'], auth_session_id_hash: randomToken(16),
    });
    for (const guild of guilds) connection.dispatch('GUILD_CREATE', guildCreatePayload(guild, world.bot.id, connection.intents));
    connection.identified = true;
    for (const listener of [...this.listeners]) listener();
  }

  private voiceStateUpdate(connection: GatewayConnection, d: Record<string, unknown>): void {
    const guildId = String(d.guild_id);
    const channelId = d.channel_id === null || d.channel_id === undefined ? null : String(d.channel_id);
    const guild = this.options.world.guilds.get(guildId);
    if (!guild || !connection.covers(guildId)) {
      this.options.report(`gateway: op 4 for guild ${guildId}, which this shard does not hold (ignored)`);
      return;
    }
    if (channelId !== null && !guild.voiceChannel(channelId)) {
      this.options.report(`gateway: op 4 to ${channelId}, not a voice channel of guild ${guildId} (ignored)`);
      return;
    }
    this.options.onVoiceStateRequest(connection, { guildId, channelId, selfMute: d.self_mute === true, selfDeaf: d.self_deaf === true });
  }

  private requestGuildMembers(connection: GatewayConnection, d: Record<string, unknown>): void {
    const guildIds = Array.isArray(d.guild_id) ? d.guild_id.map(String) : [String(d.guild_id)];
    const wanted = Array.isArray(d.user_ids) ? d.user_ids.map(String) : typeof d.user_ids === 'string' ? [d.user_ids] : undefined;
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : '';
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
    if (wanted === undefined && (connection.intents & GatewayIntent.GuildMembers) === 0 && query === '') {
      this.options.report('gateway: op 8 for all members without the GUILD_MEMBERS intent -> close 4013');
      this.closeConnection(connection, GatewayClose.InvalidIntents, 'Invalid intent(s).');
      return;
    }
    for (const guildId of guildIds) {
      const guild = this.options.world.guilds.get(guildId);
      if (!guild || !connection.covers(guildId)) continue;
      const members = [...guild.members.values()]
        .filter((m) => (wanted ? wanted.includes(m.user.id) : m.user.username.toLowerCase().startsWith(query)))
        .slice(0, limit);
      connection.dispatch('GUILD_MEMBERS_CHUNK', {
        guild_id: guildId, members: members.map((m) => memberPayload(guild, m)), chunk_index: 0, chunk_count: 1,
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
