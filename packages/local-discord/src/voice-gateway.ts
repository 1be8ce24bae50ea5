// The voice gateway (v8, always TLS): HELLO, IDENTIFY -> READY, SELECT_PROTOCOL -> SESSION_DESCRIPTION, heartbeats,
// SPEAKING, RESUME, and DAVE (binary MLS opcodes, dave/group.ts). One server serves every guild; a voice session is
// one bot's in one guild (each bot its own allocation, socket, SSRC and DAVE group), found by SSRC for media.
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { DelayedQueue } from './dave/delay.ts';
import { delaySocket } from './network-delay.ts';
import { DaveGroup, DaveOp, type DaveCommitter, type DaveGroupState } from './dave/group.ts';
import { ExternalSender } from './dave/mls.ts';
import type { HeardAudioStore } from './heard-audio.ts';
import type { DaveMode } from './types.ts';
import { decryptRtp, parseRtpHeader, SUPPORTED_MODES } from './rtp-decrypt.ts';
import { keepLast } from './retention.ts';
import { randomToken } from './snowflake.ts';
import type { UdpPeer, VoiceUdp } from './voice-udp.ts';

const CERT_URL = new URL('../tls/voice-gateway.cert.pem', import.meta.url);
const KEY_URL = new URL('../tls/voice-gateway.key.pem', import.meta.url);
export const VOICE_CA_CERTIFICATE_PEM = readFileSync(CERT_URL, 'utf8');

const Op = {
  Identify: 0,
  SelectProtocol: 1,
  Ready: 2,
  Heartbeat: 3,
  SessionDescription: 4,
  Speaking: 5,
  HeartbeatAck: 6,
  Resume: 7,
  Hello: 8,
  Resumed: 9,
  ClientsConnect: 11,
  ClientDisconnect: 13,
} as const;
export const VoiceClose = {
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  SessionInvalid: 4006,
  Disconnected: 4014,
  /** The voice server crashed: Discord says try resuming; here the session went down with it (see `crashed`). */
  ServerCrashed: 4015,
  UnknownEncryptionMode: 4016,
  DaveRequired: 4017,
  /** Discord's "should not reconnect" codes besides 4014: rate limited, call terminated. */
  RateLimited: 4021,
  CallTerminated: 4022,
} as const;

/** Crashed sessions kept for their client's RESUME (the oldest dropped past this). */
const CRASHED_KEPT = 64;

const CLOSE_REASONS: Readonly<Record<number, string>> = {
  4006: 'Session is no longer valid.',
  4015: 'Voice server crashed.',
  4021: 'Disconnected: Rate Limited.',
  4022: 'Disconnected: Call Terminated.',
};
/** The transport's tag and nonce counter around a frame. */
const SEALING_BYTES = 16 + 4;

interface Allocation {
  guildId: string;
  userId: string;
  sessionId: string;
  channelId: string;
  token: string;
}

class VoiceSession implements UdpPeer {
  readonly ssrc = randomInt(1, 2 ** 31);
  readonly allocation: Allocation;
  ws: WebSocket;
  mode: string | undefined;
  key: Uint8Array | undefined;
  /** The highest transport nonce received with this session's key. */
  private highestNonce = 0;
  seq = 0;
  speaking = 0;
  /** The highest DAVE version the client offered in IDENTIFY, and the one in use (0 or 1). */
  readonly maxDaveVersion: number;
  daveVersion = 0;
  dave: DaveGroup | undefined;
  /** Server -> client and client -> server one-way delays, once DAVE starts (the handshake delay option). */
  outbox: DelayedQueue | undefined;
  inbox: DelayedQueue | undefined;
  private readonly audio: HeardAudioStore;
  /** Decrypt and decode this guild's frames (else only time them: VoiceGatewayOptions.hearInFull). */
  private readonly inFull: boolean;

  constructor(allocation: Allocation, ws: WebSocket, audio: HeardAudioStore, maxDaveVersion: number, inFull: boolean) {
    this.allocation = allocation;
    this.ws = ws;
    this.audio = audio;
    this.maxDaveVersion = maxDaveVersion;
    this.inFull = inFull;
  }

  send(op: number, d: unknown): void {
    if (this.outbox) this.outbox.post(() => this.sendNow(op, d));
    else this.sendNow(op, d);
  }

  private sendNow(op: number, d: unknown): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify(op === Op.HeartbeatAck ? { op, d } : { op, d, seq: ++this.seq }));
    // The bot has moved to the new epoch (or reset) once it has this message, not when the gateway decided.
    const transitionId = (d as { transition_id?: unknown } | null)?.transition_id;
    if (op === DaveOp.ExecuteTransition && typeof transitionId === 'number') this.dave?.botTransitioned(transitionId);
    if (op === DaveOp.PrepareTransition && transitionId === 0) this.dave?.botTransitioned(0);
  }

  /** A binary DAVE message: [u16 seq][u8 op][payload]. */
  sendBinary(op: number, payload: Buffer): void {
    const send = (): void => {
      if (this.ws.readyState !== this.ws.OPEN) return;
      const header = Buffer.alloc(3);
      header.writeUInt16BE(++this.seq & 0xffff, 0);
      header.writeUInt8(op, 2);
      this.ws.send(Buffer.concat([header, payload]));
    };
    if (this.outbox) this.outbox.post(send);
    else send();
  }

  onRtp(packet: Buffer, receivedAtMs: number): void {
    if (!this.mode || !this.key) return;
    // A sender counts the transport nonce up for its key (this session's): one at or below one seen is used twice.
    const nonce = packet.readUInt32BE(packet.length - 4);
    if (nonce <= this.highestNonce) this.audio.nonceRepeated(this.allocation);
    else this.highestNonce = nonce;
    if (!this.inFull) {
      const header = parseRtpHeader(packet);
      if (header)
        this.audio.pushTimed(
          this.allocation,
          header.ssrc,
          header.sequence,
          header.timestamp,
          receivedAtMs,
          packet.length - header.aadLength - SEALING_BYTES,
        );
      return;
    }
    const opened = decryptRtp(packet, this.mode, this.key);
    if (!opened) {
      this.audio.decryptFailed(this.allocation);
      return;
    }
    const { header, payload } = opened;
    if (this.dave) {
      this.audio.pushDave(
        this.allocation,
        header.ssrc,
        header.sequence,
        header.timestamp,
        receivedAtMs,
        this.dave.frame(payload),
      );
      return;
    }
    this.audio.push(this.allocation, header.ssrc, header.sequence, header.timestamp, receivedAtMs, payload);
  }

  closeDave(): void {
    this.dave?.close();
    this.outbox?.close();
    this.inbox?.close();
  }
}

export interface VoiceCloseEntry {
  guildId: string;
  /** The bot whose voice session it was (undefined when none matched, e.g. a RESUME of an unknown session). */
  userId?: string;
  code: number;
  reason: string;
  atMs: number;
}

export interface VoiceGatewayDaveOptions {
  mode: DaveMode;
  committer: DaveCommitter;
  handshakeDelayMs: number;
}

export interface VoiceGatewayOptions {
  modes: string[];
  udp: VoiceUdp;
  audio: HeardAudioStore;
  report: (line: string) => void;
  /** One-way delay on every message, both ways (network-delay.ts); 0 on loopback. */
  latencyMs?: number;
  /** Guilds whose frames are decrypted and decoded; the others' are only timed (FakeDiscordOptions.hearInFull). */
  hearInFull: (guildId: string) => boolean;
  /** Users other than the bots in the guild's channel, for CLIENTS_CONNECT (and the DAVE group's listeners). */
  usersInChannel: (guildId: string, channelId: string) => string[];
  dave: VoiceGatewayDaveOptions;
  /** Something about a DAVE group changed (for waits). */
  daveChanged: () => void;
}

export class VoiceGateway {
  port = 0;
  private readonly server: Server;
  private readonly wss: WebSocketServer;
  private readonly allocations = new Map<string, Allocation>();
  private readonly sessions = new Set<VoiceSession>();
  private readonly options: VoiceGatewayOptions;
  /** The gateway's own MLS identity, sent as op 25 and used to sign external proposals. */
  private readonly externalSender = new ExternalSender();
  private readonly misorderedGuilds = new Set<string>();
  private readonly damageNext = new Map<string, 'commit' | 'welcome'>();
  /** Entries kept in each of the logs below (FakeDiscordOptions.retain): the newest. */
  retain = Infinity;
  /** Voice sockets the gateway closed for a reason of Discord's (4014, 4017, replaced sessions), in order. */
  readonly closeLog: VoiceCloseEntry[] = [];
  /** Every IDENTIFY that matched its allocation, in order. */
  readonly identifyLog: Array<{ guildId: string; userId: string; atMs: number }> = [];
  /** Every join a bot asked for (a gateway op 4 with a channel, answered by VOICE_SERVER_UPDATE), in order. */
  readonly joinLog: Array<{ guildId: string; userId: string; channelId: string; atMs: number }> = [];
  /**
   * Sessions ended by a crash of their voice server (4015), as `guildId session token`: the client resumes them, as
   * Discord's close code table says to, and the server that lost them answers 4006 (no longer valid): a rejoin.
   */
  private readonly crashed = new Set<string>();
  /** Close codes the next IDENTIFYs of a guild are answered with, instead of READY. */
  private readonly refuseIdentify = new Map<string, { code: number; left: number }>();

  constructor(options: VoiceGatewayOptions) {
    for (const mode of options.modes) {
      if (!SUPPORTED_MODES.includes(mode)) throw new Error(`FakeDiscord: cannot decrypt encryption mode ${mode}`);
    }
    this.options = options;
    this.server = createServer({ cert: VOICE_CA_CERTIFICATE_PEM, key: readFileSync(KEY_URL, 'utf8') });
    this.server.on('tlsClientError', (error: NodeJS.ErrnoException) => {
      // A client that gives up mid-handshake (a destroyed connection rejoining) is not a protocol problem.
      if (error.code !== 'ECONNRESET') options.report(`voice gateway TLS error: ${error.message}`);
    });
    this.wss = new WebSocketServer({ server: this.server, maxPayload: 64 * 1024 });
    this.wss.on('connection', (ws) => this.accept(ws));
    this.wss.on('error', (error) => options.report(`voice gateway error: ${String(error)}`));
  }

  get endpoint(): string {
    return `127.0.0.1:${this.port}`;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** A VOICE_SERVER_UPDATE token for this bot in this guild; it must IDENTIFY with it and its session id. */
  allocate(guildId: string, userId: string, sessionId: string, channelId: string): string {
    const token = randomToken(12);
    this.joinLog.push({ guildId, userId, channelId, atMs: performance.now() });
    keepLast(this.joinLog, this.retain);
    this.allocations.set(`${guildId} ${userId}`, { guildId, userId, sessionId, channelId, token });
    return token;
  }

  /** Answers the next `times` IDENTIFYs of this guild by closing the socket with `code` (4021, 4022 ...). */
  refuseNextIdentify(guildId: string, code: number, times = 1): void {
    if (times <= 0) this.refuseIdentify.delete(guildId);
    else this.refuseIdentify.set(guildId, { code, left: times });
  }

  /**
   * Closes the guild's live voice sessions (only `userId`'s, when given) with `code`, as Discord ends a call (4022)
   * or a rate-limited client (4021).
   */
  closeGuildSessions(guildId: string, code: number, userId?: string): void {
    for (const session of this.sessions) {
      if (session.allocation.guildId === guildId && (userId === undefined || session.allocation.userId === userId))
        this.end(session, code, CLOSE_REASONS[code] ?? `Closed with ${code}.`);
    }
  }

  /**
   * The guild's voice server moved for `userId`: its live sessions of the allocation before `token` are closed (the
   * client has its VOICE_SERVER_UPDATE, and connects anew); packets sent on them from then on are counted, never heard.
   */
  endMoved(guildId: string, userId: string, token: string): void {
    for (const session of [...this.sessions]) {
      const { allocation } = session;
      if (allocation.guildId === guildId && allocation.userId === userId && allocation.token !== token)
        this.end(session, VoiceClose.Disconnected, 'Voice server moved.');
    }
  }

  /**
   * A bot left the channel (or was removed): Discord closes its voice session with 4014. Without `userId`, every
   * bot's in the guild (its voice server went away).
   */
  disconnectGuild(guildId: string, userId?: string): void {
    for (const [key, allocation] of this.allocations)
      if (allocation.guildId === guildId && (userId === undefined || allocation.userId === userId))
        this.allocations.delete(key);
    this.closeGuildSessions(guildId, VoiceClose.Disconnected, userId);
  }

  /** A user entered or left a voice channel: each other bot's session there is told (op 11/13, or its DAVE group). */
  clientConnected(guildId: string, channelId: string, userId: string, connected: boolean): void {
    for (const session of this.sessions) {
      const { allocation } = session;
      if (
        allocation.guildId !== guildId ||
        allocation.channelId !== channelId ||
        allocation.userId === userId ||
        !session.key
      )
        continue;
      if (session.dave) {
        // The group sends op 11/13 itself, ordered with the proposals that follow.
        if (connected) session.dave.listenerJoined(userId);
        else session.dave.listenerLeft(userId);
      } else if (connected) session.send(Op.ClientsConnect, { user_ids: [userId] });
      else session.send(Op.ClientDisconnect, { user_id: userId });
    }
  }

  /** The DAVE group of this bot's current voice session in this guild, if DAVE is in use there. */
  daveState(guildId: string, userId: string): DaveGroupState | undefined {
    for (const session of this.sessions)
      if (session.allocation.guildId === guildId && session.allocation.userId === userId && session.dave)
        return session.dave.state();
    return undefined;
  }

  /** Damages the next op 29 (commit) or op 30 (welcome) sent to the bot in this guild: it must answer op 31. */
  damageNextDaveMessage(guildId: string, kind: 'commit' | 'welcome'): void {
    this.damageNext.set(guildId, kind);
  }

  /** For the next voice sessions of this guild: send op 27 before op 11 (a client must survive that order). */
  setProposalsBeforeClientsConnect(guildId: string, on: boolean): void {
    if (on) this.misorderedGuilds.add(guildId);
    else this.misorderedGuilds.delete(guildId);
  }

  /** A session outlives its socket (RESUME); it ends when the guild disconnects or the fake closes. */
  private accept(ws: WebSocket): void {
    delaySocket(ws, this.options.latencyMs ?? 0);
    let session: VoiceSession | undefined;
    ws.on('error', (error) => this.options.report(`voice gateway socket error: ${String(error)}`));
    ws.send(JSON.stringify({ op: Op.Hello, d: { v: 8, heartbeat_interval: 13_750 } }));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        session = this.onMessage(ws, session, data, isBinary);
      } catch (error) {
        this.options.report(`voice gateway: failed handling a message: ${String(error)}`);
        this.closeSocket(ws, VoiceClose.DecodeError, 'Failed to decode payload.');
      }
    });
  }

  private onMessage(
    ws: WebSocket,
    session: VoiceSession | undefined,
    data: RawData,
    isBinary: boolean,
  ): VoiceSession | undefined {
    if (isBinary) {
      this.onBinary(
        session,
        Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]),
      );
      return session;
    }
    let packet: { op?: unknown; d?: unknown };
    try {
      packet = JSON.parse(
        Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'),
      ) as typeof packet;
    } catch {
      this.options.report('voice gateway: a message that is not JSON -> close 4002');
      this.closeSocket(ws, VoiceClose.DecodeError, 'Failed to decode payload.');
      return session;
    }
    const d = (typeof packet.d === 'object' && packet.d !== null ? packet.d : {}) as Record<string, unknown>;
    switch (packet.op) {
      case Op.Heartbeat:
        ws.send(JSON.stringify({ op: Op.HeartbeatAck, d: { t: d.t ?? packet.d } }));
        return session;
      case Op.Identify:
        if (session) {
          this.closeSocket(ws, VoiceClose.AlreadyAuthenticated, 'Already authenticated.');
          return session;
        }
        return this.identify(ws, d);
      case Op.Resume:
        return this.resume(ws, d) ?? session;
      case Op.SelectProtocol:
        if (!session) return this.notAuthenticated(ws);
        this.selectProtocol(session, d);
        return session;
      case Op.Speaking:
        if (!session) return this.notAuthenticated(ws);
        session.speaking = typeof d.speaking === 'number' ? d.speaking : 0;
        return session;
      case DaveOp.ReadyForTransition:
      case DaveOp.InvalidCommitWelcome: {
        if (!session) return this.notAuthenticated(ws);
        const group = session.dave;
        const transitionId = typeof d.transition_id === 'number' ? d.transition_id : -1;
        if (group) {
          const op = packet.op;
          session.inbox?.post(() => {
            if (op === DaveOp.ReadyForTransition) group.onReady(session.allocation.userId, transitionId);
            else group.onBotInvalid(transitionId, group.damagedMessages > 0);
          });
        }
        return session;
      }
      default:
        if (typeof packet.op === 'number' && packet.op >= 21 && packet.op <= 31) return session; // other DAVE JSON opcodes
        this.options.report(`voice gateway: unknown opcode ${String(packet.op)} -> close 4001`);
        this.closeSocket(ws, VoiceClose.UnknownOpcode, 'Unknown opcode.');
        return session;
    }
  }

  /** Binary DAVE messages from the client: [u8 op][payload]; handled after the inbound delay, in order. */
  private onBinary(session: VoiceSession | undefined, frame: Buffer): void {
    const group = session?.dave;
    if (!session || !group || frame.length < 1) {
      this.options.report(`voice gateway: a binary message (op ${frame[0] ?? 'none'}) outside a DAVE session`);
      return;
    }
    const op = frame[0];
    const payload = frame.subarray(1);
    session.inbox?.post(() => {
      if (op === DaveOp.KeyPackage) group.onBotKeyPackage(payload);
      else if (op === DaveOp.CommitWelcome) group.onBotCommitWelcome(payload);
      else this.options.report(`voice gateway DAVE: unexpected binary opcode ${String(op)} from the client`);
    });
  }

  private identify(ws: WebSocket, d: Record<string, unknown>): VoiceSession | undefined {
    const allocation = this.allocations.get(`${String(d.server_id)} ${String(d.user_id)}`);
    if (
      !allocation ||
      d.token !== allocation.token ||
      d.session_id !== allocation.sessionId ||
      d.user_id !== allocation.userId
    ) {
      this.options.report(
        `voice gateway: IDENTIFY for guild ${String(d.server_id)} does not match the last VOICE_SERVER_UPDATE/VOICE_STATE_UPDATE -> close 4004`,
      );
      this.closeSocket(ws, VoiceClose.AuthenticationFailed, 'Authentication failed.');
      return undefined;
    }
    this.identifyLog.push({ guildId: allocation.guildId, userId: allocation.userId, atMs: performance.now() });
    keepLast(this.identifyLog, this.retain);
    const refusal = this.refuseIdentify.get(allocation.guildId);
    if (refusal) {
      refusal.left -= 1;
      if (refusal.left <= 0) this.refuseIdentify.delete(allocation.guildId);
      const reason = CLOSE_REASONS[refusal.code] ?? `Closed with ${refusal.code}.`;
      this.closeSocket(ws, refusal.code, reason);
      this.noteClose({
        guildId: allocation.guildId,
        userId: allocation.userId,
        code: refusal.code,
        reason,
        atMs: performance.now(),
      });
      this.options.daveChanged();
      return undefined;
    }
    const maxDaveVersion = typeof d.max_dave_protocol_version === 'number' ? d.max_dave_protocol_version : 0;
    if (this.options.dave.mode === 'required' && maxDaveVersion < 1) {
      // Not a protocol problem of the fake: what Discord does since March 2026. The client must report it.
      this.closeSocket(ws, VoiceClose.DaveRequired, 'E2EE/DAVE protocol required.');
      this.noteClose({
        guildId: allocation.guildId,
        userId: allocation.userId,
        code: VoiceClose.DaveRequired,
        reason: 'E2EE/DAVE protocol required.',
        atMs: performance.now(),
      });
      this.options.daveChanged();
      return undefined;
    }
    // One voice session per bot and guild: a new IDENTIFY (rejoin, move) replaces its previous one.
    for (const old of this.sessions) {
      if (old.allocation.guildId === allocation.guildId && old.allocation.userId === allocation.userId)
        this.end(old, 1000, 'Replaced by a new session.');
    }
    const session = new VoiceSession(
      allocation,
      ws,
      this.options.audio,
      maxDaveVersion,
      this.options.hearInFull(allocation.guildId),
    );
    this.sessions.add(session);
    this.options.udp.register(session.ssrc, session);
    session.send(Op.Ready, {
      ssrc: session.ssrc,
      ip: this.options.udp.host,
      port: this.options.udp.port,
      modes: this.options.modes,
      experiments: [],
    });
    return session;
  }

  private resume(ws: WebSocket, d: Record<string, unknown>): VoiceSession | undefined {
    const session = [...this.sessions].find(
      (s) =>
        s.allocation.guildId === d.server_id &&
        s.allocation.sessionId === d.session_id &&
        s.allocation.token === d.token,
    );
    const key = `${String(d.server_id)} ${String(d.session_id)} ${String(d.token)}`;
    if (!session && this.crashed.delete(key)) {
      const reason = CLOSE_REASONS[VoiceClose.SessionInvalid] as string;
      this.closeSocket(ws, VoiceClose.SessionInvalid, reason);
      this.noteClose({
        guildId: String(d.server_id),
        code: VoiceClose.SessionInvalid,
        reason,
        atMs: performance.now(),
      });
      this.options.daveChanged();
      return undefined;
    }
    if (!session) {
      this.options.report(`voice gateway: RESUME for an unknown session (guild ${String(d.server_id)}) -> close 4006`);
      this.closeSocket(ws, VoiceClose.SessionInvalid, CLOSE_REASONS[VoiceClose.SessionInvalid] as string);
      return undefined;
    }
    if (session.ws !== ws) this.closeSocket(session.ws, 1000, 'Resumed elsewhere.');
    session.ws = ws;
    session.send(Op.Resumed, null);
    return session;
  }

  private selectProtocol(session: VoiceSession, d: Record<string, unknown>): void {
    const data = (typeof d.data === 'object' && d.data !== null ? d.data : {}) as Record<string, unknown>;
    const mode = typeof data.mode === 'string' ? data.mode : '';
    if (d.protocol !== 'udp' || !this.options.modes.includes(mode)) {
      this.options.report(
        `voice gateway: SELECT_PROTOCOL with protocol ${String(d.protocol)} mode ${mode} (offered ${this.options.modes.join(', ')}) -> close 4016`,
      );
      this.closeSocket(session.ws, VoiceClose.UnknownEncryptionMode, 'Unknown encryption mode.');
      return;
    }
    session.mode = mode;
    session.key = new Uint8Array(randomBytes(32));
    session.daveVersion = this.options.dave.mode !== 'off' && session.maxDaveVersion >= 1 ? 1 : 0;
    this.options.audio.setMode(session.allocation, mode);
    session.send(Op.SessionDescription, {
      mode,
      secret_key: [...session.key],
      dave_protocol_version: session.daveVersion,
      media_session_id: randomToken(16),
      audio_codec: 'opus',
      video_codec: null,
    });
    const { guildId, channelId } = session.allocation;
    const others = this.options.usersInChannel(guildId, channelId);
    if (session.daveVersion === 0) {
      this.options.audio.stopDave(session.allocation);
      if (others.length > 0) session.send(Op.ClientsConnect, { user_ids: others });
      return;
    }
    const failed = (error: unknown): void =>
      this.options.report(`voice gateway DAVE: failed handling a message: ${String(error)}`);
    session.outbox = new DelayedQueue(this.options.dave.handshakeDelayMs, failed);
    session.inbox = new DelayedQueue(this.options.dave.handshakeDelayMs, failed);
    this.options.audio.startDave(session.allocation);
    session.dave = new DaveGroup({
      guildId,
      channelId,
      externalSender: this.externalSender,
      committer: this.options.dave.committer,
      proposalsBeforeClientsConnect: this.misorderedGuilds.has(guildId),
      report: this.options.report,
      changed: this.options.daveChanged,
      damage: (kind) => {
        if (this.damageNext.get(guildId) !== kind) return false;
        this.damageNext.delete(guildId);
        return true;
      },
      bot: {
        userId: session.allocation.userId,
        sendJson: (op, d) => session.send(op, d),
        sendBinary: (op, payload) => session.sendBinary(op, payload),
      },
    });
    session.dave.start(others);
    this.options.daveChanged();
  }

  private notAuthenticated(ws: WebSocket): undefined {
    this.options.report('voice gateway: a message before IDENTIFY -> close 4003');
    this.closeSocket(ws, VoiceClose.NotAuthenticated, 'Not authenticated.');
    return undefined;
  }

  private end(session: VoiceSession, code: number, reason: string): void {
    this.sessions.delete(session);
    if (code === VoiceClose.ServerCrashed) {
      const { guildId, sessionId, token } = session.allocation;
      this.crashed.add(`${guildId} ${sessionId} ${token}`);
      // Bounded: a session never resumed stays until CRASHED_KEPT newer crashes push it out.
      if (this.crashed.size > CRASHED_KEPT) this.crashed.delete(this.crashed.values().next().value as string);
    }
    this.noteClose({
      guildId: session.allocation.guildId,
      userId: session.allocation.userId,
      code,
      reason,
      atMs: performance.now(),
    });
    this.options.daveChanged();
    this.options.udp.unregister(session.ssrc, session.allocation.guildId, () => session.closeDave());
    this.closeSocket(session.ws, code, reason);
  }

  private noteClose(entry: VoiceCloseEntry): void {
    this.closeLog.push(entry);
    keepLast(this.closeLog, this.retain);
  }

  private closeSocket(ws: WebSocket, code: number, reason: string): void {
    try {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
    } catch {
      ws.terminate();
    }
  }

  close(): Promise<void> {
    for (const session of [...this.sessions]) this.end(session, 1001, 'Going away.');
    for (const ws of this.wss.clients) ws.terminate();
    return new Promise((resolve) => {
      this.wss.close(() => {
        this.server.closeAllConnections();
        this.server.close(() => resolve());
      });
    });
  }
}
