// The one module that reads @discordjs/voice beyond its public API: whether audio sent now reaches listeners, the ready
// session's fields, the UDP socket's private parts, the transport key, the voice websocket listeners and IP discovery.
// package.json pins the library to DISCORDJS_VOICE_VERSION; a session of another shape fails here naming the field.
import { createSecretKey, type KeyObject } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import {
  NetworkingStatusCode,
  VoiceConnectionStatus,
  VoiceUDPSocket,
  type Networking,
  type NetworkingState,
  type VoiceConnection,
  type VoiceConnectionState,
} from '@discordjs/voice';
import type { Socket } from 'node:dgram';
import type { ReadySession, UdpOwner } from './discordjs-voice-types.ts';

/** The @discordjs/voice release this module was written against (package.json pins exactly this one). */
export const DISCORDJS_VOICE_VERSION = '0.19.2';

const AES_GCM_MODE = 'aead_aes256_gcm_rtpsize';

export class DiscordjsVoiceShapeError extends Error {
  constructor(problem: string) {
    super(
      `@discordjs/voice's ready voice session is not shaped as in ${DISCORDJS_VOICE_VERSION} (${problem}); ` +
        `SayBot's sender needs exactly that release: install it, or adapt src/core/voice/discordjs-voice-seam.ts`,
    );
    this.name = 'DiscordjsVoiceShapeError';
  }
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

const NUMBER_FIELDS = ['sequence', 'timestamp', 'nonce', 'ssrc', 'packetsPlayed'] as const;

/** What is missing or of another kind in a ready networking state, or undefined when it has the sender's shape. */
export function readySessionProblem(state: unknown): string | undefined {
  if (!isObject(state)) return 'no ready state';
  const data = state.connectionData;
  if (!isObject(data)) return 'no connectionData';
  for (const field of NUMBER_FIELDS) {
    if (typeof data[field] !== 'number') return `connectionData.${field} is not a number`;
  }
  if (typeof data.encryptionMode !== 'string') return 'connectionData.encryptionMode is not a string';
  if (typeof data.speaking !== 'boolean') return 'connectionData.speaking is not a boolean';
  if (!(data.secretKey instanceof Uint8Array) && !isObject(data.secretKey))
    return 'connectionData.secretKey is missing';
  const udp = state.udp;
  if (!isObject(udp) || typeof udp.send !== 'function') return 'udp.send is not a function';
  if (state.dave !== undefined && (!isObject(state.dave) || typeof state.dave.encrypt !== 'function'))
    return 'dave.encrypt is not a function';
  return undefined;
}

/** What the UDP socket lacks of the private fields directSend uses; without them sends go the library's slower way. */
export function udpSocketProblem(udp: unknown): string | undefined {
  if (!isObject(udp)) return 'no udp socket';
  const socket = udp.socket;
  if (
    !isObject(socket) ||
    typeof socket.send !== 'function' ||
    typeof socket.connect !== 'function' ||
    typeof socket.getSendQueueCount !== 'function'
  ) {
    return 'udp.socket is not a dgram socket';
  }
  const remote = udp.remote;
  if (!isObject(remote) || typeof remote.ip !== 'string' || typeof remote.port !== 'number')
    return 'udp.remote has no ip and port';
  return undefined;
}

/** Ready states already checked: a session is checked once, not per packet. */
const checked = new WeakSet<object>();

/** The networking state when the connection is Ready and its transport up (Discord accepted the join), else undefined. */
function readyNetworking(connection: VoiceConnection) {
  const state = connection.state;
  if (state.status !== VoiceConnectionStatus.Ready) return undefined;
  const networking = state.networking.state;
  return networking.code === NetworkingStatusCode.Ready ? networking : undefined;
}

/** The ready session, whatever DAVE's group says, else undefined; DiscordjsVoiceShapeError when its shape differs. */
export function readySession(connection: VoiceConnection): ReadySession | undefined {
  const networking = readyNetworking(connection);
  if (networking === undefined) return undefined;
  if (!checked.has(networking)) {
    const problem = readySessionProblem(networking);
    if (problem !== undefined) throw new DiscordjsVoiceShapeError(problem);
    checked.add(networking);
  }
  return networking as unknown as ReadySession;
}

const kept = new WeakMap<VoiceConnection, ReadySession | undefined>();
/**
 * Whether a clip's packets may leave now, and to which session: the one answer. Ready, the transport up (a connection
 * given up is not), and no DAVE or its group ready with a transition applied: Ready alone comes before the group, when
 * every client would drop the frames. Kept until a voice gateway message or a state change (watchNetworking).
 */
export function sendableSession(connection: VoiceConnection): ReadySession | undefined {
  if (kept.get(connection)) return kept.get(connection);
  const session = readySession(connection);
  const dave = readyNetworking(connection)?.dave;
  const e2ee =
    !dave ||
    dave.protocolVersion === 0 ||
    (dave.session?.ready === true && dave.lastTransitionId !== undefined && !dave.reinitializing);
  const sendable = session && e2ee ? session : undefined;
  if (sendable && kept.has(connection)) kept.set(connection, sendable);
  return sendable;
}

/**
 * Gives a ready session its transport key as a KeyObject, made once: @discordjs/voice 0.19 passes raw bytes to
 * createCipheriv per packet, a tenth of the main thread at 100 voices (docs/benchmarks.md). AES-GCM only (XChaCha20
 * hands the bytes to a library).
 */
export function keepTransportKey(state: NetworkingState): void {
  if (!('connectionData' in state)) return;
  const data = state.connectionData as { encryptionMode?: string; secretKey?: Uint8Array | KeyObject };
  if (data.encryptionMode !== AES_GCM_MODE || !(data.secretKey instanceof Uint8Array)) return;
  data.secretKey = createSecretKey(data.secretKey);
}

interface NetworkingWatchHandlers {
  /** The voice gateway closed the socket with this code (4006, 4014, 4017 ...), before the library reacts to it. */
  onClose(code: number): void;
  /** A voice gateway message handler of the library threw; it was contained, the connection goes on. */
  onHandlerError(error: unknown, event: 'packet' | 'binary'): void;
  /** Who owns this connection's voice sockets from IP discovery on, in place of the library (UdpOwner). */
  udpOwner?: UdpOwner | undefined;
}

/** The owner of the voice gateway message being handled now (set around the library's own handler). */
let claiming: UdpOwner | undefined;
let discoveryRouted = false;

interface LibraryUdpSocket {
  socket: Socket;
  remote: { ip: string; port: number };
  send(buffer: Buffer): void;
  destroy(): void;
}

/** Routes IP discovery to the Ready's UdpOwner, which sends everything after; the library's socket goes unused. */
function routeDiscovery(): void {
  if (discoveryRouted) return;
  discoveryRouted = true;
  const prototype = VoiceUDPSocket.prototype as unknown as {
    performIPDiscovery(this: LibraryUdpSocket, ssrc: number): Promise<{ ip: string; port: number }>;
  };
  const own = prototype.performIPDiscovery;
  if (typeof own !== 'function') throw new DiscordjsVoiceShapeError('VoiceUDPSocket.performIPDiscovery is missing');
  prototype.performIPDiscovery = function (this: LibraryUdpSocket, ssrc: number) {
    const owner = claiming;
    if (!owner) return own.call(this, ssrc);
    claiming = undefined;
    const { socket, remote } = this;
    if (!isObject(socket) || typeof socket.close !== 'function' || !isObject(remote))
      throw new DiscordjsVoiceShapeError('udp.socket or udp.remote is missing at IP discovery');
    socket.removeAllListeners();
    socket.on('error', () => undefined);
    try {
      socket.close();
    } catch {
      // Closed already: nothing was sent on it.
    }
    this.send = () => undefined;
    const destroy = this.destroy.bind(this);
    this.destroy = () => {
      destroy();
      owner.released(this);
    };
    return owner.claim(this, { ip: remote.ip, port: remote.port }, ssrc);
  };
}

type Listener = (...args: unknown[]) => void;

/**
 * Follows every Networking and voice websocket of a VoiceConnection: reports close codes and contains throws of the
 * library's message handlers, which 0.19 calls straight from onmessage (an MLS proposals message before
 * clients-connect, say). Wrapping exactly those listeners keeps other uncaught exceptions fatal.
 */
export function watchNetworking(connection: VoiceConnection, handlers: NetworkingWatchHandlers): void {
  if (handlers.udpOwner) routeDiscovery();
  // DAVE's group changes only in a voice gateway message's handler (SayBot decrypts nothing) or with a state change.
  const forget = () => kept.set(connection, undefined);
  forget();
  const seen = new WeakSet<object>();
  const guarded = new WeakSet<object>();

  const guardSocket = (ws: EventEmitter, networking: Networking) => {
    if (guarded.has(ws)) return;
    guarded.add(ws);
    // The socket's close starts as Discord's close frame is read (ws answers it with close()); its 'close' event, and
    // the library's letting the UDP socket go, wait for the handshake: the session ended at the first.
    const inner = (ws as EventEmitter & { ws?: { close?: (...args: unknown[]) => void } }).ws;
    const close = inner?.close;
    if (handlers.udpOwner && inner && typeof close === 'function') {
      const owner = handlers.udpOwner;
      inner.close = (...args: unknown[]) => {
        const udp: unknown = 'udp' in networking.state ? networking.state.udp : undefined;
        if (isObject(udp)) owner.ending(udp);
        close.apply(inner, args);
      };
    }
    for (const event of ['packet', 'binary'] as const) {
      for (const listener of ws.listeners(event) as Listener[]) {
        ws.off(event, listener);
        ws.on(event, (...args: unknown[]) => {
          if (event === 'packet') claiming = handlers.udpOwner;
          try {
            listener(...args);
          } catch (error) {
            handlers.onHandlerError(error, event);
          } finally {
            claiming = undefined;
            forget();
          }
        });
      }
    }
  };

  const follow = (networking: Networking) => {
    if (seen.has(networking)) return;
    seen.add(networking);
    // First in line: a close the player ends the connection for (4017, 4021, 4022) must be handled before the
    // library's own listener, which would otherwise send a rejoin first.
    networking.prependListener('close', (code: number) => handlers.onClose(code));
    // The socket is made in the constructor and again on every resume; messages arrive only after this tick.
    const socketOf = (state: NetworkingState) => ('ws' in state ? (state.ws as unknown as EventEmitter) : undefined);
    const first = socketOf(networking.state);
    if (first) guardSocket(first, networking);
    networking.on('stateChange', (_old: NetworkingState, next: NetworkingState) => {
      forget();
      const ws = socketOf(next);
      if (ws) guardSocket(ws, networking);
      keepTransportKey(next);
    });
  };

  const networkingOf = (state: VoiceConnectionState) => ('networking' in state ? state.networking : undefined);
  const current = networkingOf(connection.state);
  if (current) follow(current);
  connection.on('stateChange', (_old, next) => {
    forget();
    const networking = networkingOf(next);
    if (networking) follow(networking);
  });
}

/** Whether this connection's session uses DAVE (for logs). */
export function usesDave(connection: VoiceConnection): boolean {
  return (readyNetworking(connection)?.dave?.protocolVersion ?? 0) > 0;
}

/** How soon a wait looks again on its own: DAVE's readiness does not always come with an event of the library's. */
const SESSION_LOOK_MS = 50;

/**
 * Resolves once sendableSession answers (`transportOnly`: once the transport is up, a join's wait; the DAVE group may
 * still be forming), looked at again on state changes, transitions and every SESSION_LOOK_MS; rejects with the
 * signal's reason, or with DiscordjsVoiceShapeError.
 */
export function untilSendable(connection: VoiceConnection, signal: AbortSignal, transportOnly = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = setInterval(() => check(), SESSION_LOOK_MS);
    const end = (error?: unknown) => {
      clearInterval(look);
      connection.off('stateChange', check);
      connection.off('transitioned', check);
      signal.removeEventListener('abort', abort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const check = () => {
      try {
        if ((transportOnly ? readyNetworking(connection) : sendableSession(connection)) !== undefined) end();
      } catch (error) {
        end(error);
      }
    };
    const abort = () => end(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    connection.on('stateChange', check);
    connection.on('transitioned', check);
    signal.addEventListener('abort', abort, { once: true });
    check();
    if (signal.aborted) abort();
  });
}
