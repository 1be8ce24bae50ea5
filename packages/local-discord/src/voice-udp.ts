// The voice media socket: IP discovery, keep-alives, and RTP handed to the session that owns the SSRC.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { Worker } from 'node:worker_threads';
import { afterDelay } from './network-delay.ts';
import { OPUS_PAYLOAD_TYPE, parseRtpHeader } from './rtp-decrypt.ts';
import type { ReceivedBatch, ReceiveThreadCommand } from './udp-receive-worker.ts';

const DISCOVERY_BYTES = 74;
const KEEP_ALIVE_BYTES = 8;
/** A test's mark in the order datagrams arrive (mark()): no RTP, discovery or keep-alive is this. */
const MARK = Buffer.from('local-discord-mark');
const RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;
/** The receive thread's name (udpReceiveThread), as Linux shows it in /proc/<pid>/task/<tid>/comm. */
export const UDP_RECEIVE_THREAD_NAME = 'udp-receive';

export interface UdpPeer {
  /** An RTP datagram with this peer's SSRC, as received. */
  onRtp(packet: Buffer, receivedAtMs: number, from: RemoteInfo): void;
}

/** Ended sessions whose SSRC is remembered, to count the packets still sent to them. */
const ENDED_KEPT = 256;

export class VoiceUdp {
  /** The SSRCs of ended sessions, by guild, and the packets that reached each guild's after they ended. */
  private readonly ended = new Map<number, string>();
  private readonly toEnded = new Map<string, number>();
  readonly host = '127.0.0.1';
  port = 0;
  keepAlives = 0;
  malformed = 0;
  private readonly socket: Socket | undefined;
  private readonly receiveThread: boolean;
  /** With `receiveThread`: the thread that owns the socket and stamps arrivals. */
  private thread: Worker | undefined;
  private readonly peers = new Map<number, UdpPeer>();
  /** Connected to this socket once it listens: sends a mark in the call. */
  private marker: Socket | undefined;
  /** What to do as each mark sent arrives, in order. */
  private readonly marks: Array<() => void> = [];
  private readonly report: (line: string) => void;
  /** One-way network delay on every datagram, both ways (network-delay.ts); 0 on loopback. */
  private readonly latencyMs: number;

  /**
   * `receiveThread`: the socket lives in a thread of its own that stamps each arrival (benchmarks: this process's
   * busy event loop then cannot shift arrival times).
   */
  constructor(report: (line: string) => void, latencyMs = 0, receiveThread = false) {
    this.receiveThread = receiveThread;
    this.report = report;
    this.latencyMs = latencyMs;
    if (receiveThread) return;
    this.socket = createSocket('udp4');
    this.socket.on('message', (packet, from) => this.received(packet, from, undefined));
    this.socket.on('error', (error) => this.report(`voice UDP socket error: ${String(error)}`));
  }

  /**
   * A datagram, handled after the network's one-way delay; stamped then, or (stamped by the receive thread) at
   * `arrivedAtMs` (performance.now()) plus that delay.
   */
  private received(packet: Buffer, from: RemoteInfo, arrivedAtMs: number | undefined): void {
    afterDelay(this.latencyMs, () => {
      const receivedAtMs = arrivedAtMs === undefined ? performance.now() : arrivedAtMs + this.latencyMs;
      try {
        this.onMessage(packet, from, receivedAtMs);
      } catch (error) {
        this.malformed++;
        this.report(`voice UDP: dropped a datagram from ${from.address}:${from.port}: ${String(error)}`);
      }
    });
  }

  private send(packet: Buffer, port: number, address: string): void {
    if (this.thread) this.thread.postMessage({ type: 'send', packet, port, address } satisfies ReceiveThreadCommand);
    else this.socket?.send(packet, port, address);
  }

  private listenInThread(): Promise<void> {
    const thread = new Worker(new URL('./udp-receive-worker.ts', import.meta.url), {
      workerData: { host: this.host, receiveBufferBytes: RECEIVE_BUFFER_BYTES },
      // Named, so that a benchmark can find the thread that stamps arrivals (and a person reading `top -H`).
      name: UDP_RECEIVE_THREAD_NAME,
    });
    this.thread = thread;
    return new Promise((resolve, reject) => {
      thread.once('error', reject);
      thread.on('message', (message: ReceivedBatch | { bound: number } | { error: string }) => {
        if ('bound' in message) {
          this.port = message.bound;
          resolve();
        } else if ('error' in message) this.report(`voice UDP socket error: ${message.error}`);
        else
          for (const d of message.datagrams) {
            const from = { address: d.address, port: d.port, family: 'IPv4', size: d.packet.length } as RemoteInfo;
            const packet = Buffer.from(d.packet.buffer, d.packet.byteOffset, d.packet.byteLength);
            this.received(packet, from, d.atEpochMs - performance.timeOrigin);
          }
      });
    });
  }

  /**
   * Sends a mark to this socket now, and calls `arrived` when it is received. On 127.0.0.1 a datagram is in the
   * receiving socket's queue when its send returns, so every datagram any thread sent here before this call is
   * received (and handled) before the mark: a test can tell which frames came after a moment of its own.
   */
  mark(arrived: () => void): void {
    if (!this.marker) throw new Error('voice UDP: mark() before listen()');
    this.marks.push(arrived);
    this.marker.send(MARK);
  }

  private async connectMarker(): Promise<void> {
    const marker = createSocket('udp4');
    marker.on('error', (error) => this.report(`voice UDP mark socket error: ${String(error)}`));
    await new Promise<void>((resolve) => marker.connect(this.port, this.host, resolve));
    this.marker = marker;
  }

  async listen(): Promise<void> {
    await this.listenSocket();
    await this.connectMarker();
  }

  private listenSocket(): Promise<void> {
    if (this.receiveThread) return this.listenInThread();
    const socket = this.socket as Socket;
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, this.host, () => {
        socket.off('error', reject);
        this.port = socket.address().port;
        // Many streams at once arrive in bursts whenever this process is busy decoding: with the default buffer
        // (~200 KB) the kernel drops datagrams before they are counted. Ask for more (capped by net.core.rmem_max).
        try {
          socket.setRecvBufferSize(RECEIVE_BUFFER_BYTES);
        } catch {
          // Keep the default where the system refuses.
        }
        resolve();
      });
    });
  }

  register(ssrc: number, peer: UdpPeer): void {
    this.peers.set(ssrc, peer);
  }

  /**
   * The session of `ssrc` ends now, as Discord ends it: a datagram sent before this moment is heard, though this
   * loop reads it later (busy, as in a test that holds it up); one sent after counts in packetsToEnded. So the SSRC
   * is let go as a mark sent now arrives, and `after` runs then (the session's decryption is kept until it).
   */
  unregister(ssrc: number, guildId?: string, after?: () => void): void {
    const peer = this.peers.get(ssrc);
    const end = (): void => {
      // A new session may have taken the SSRC meanwhile: only this one's ends.
      if (peer && this.peers.get(ssrc) === peer) this.peers.delete(ssrc);
      if (peer && guildId !== undefined) {
        this.ended.set(ssrc, guildId);
        // Bounded: the oldest ended session is forgotten first.
        if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value as number);
      }
      after?.();
    };
    if (peer && this.marker) this.mark(end);
    else end();
  }

  /** RTP packets that reached an ended session of `guildId` (sent after its socket was closed): nobody heard them. */
  packetsToEnded(guildId: string): number {
    return this.toEnded.get(guildId) ?? 0;
  }

  private onMessage(packet: Buffer, from: RemoteInfo, receivedAtMs: number): void {
    if (packet.length === DISCOVERY_BYTES && packet.readUInt16BE(0) === 1) {
      this.discover(packet, from);
      return;
    }
    if (packet.equals(MARK)) {
      this.marks.shift()?.();
      return;
    }
    if (packet.length === KEEP_ALIVE_BYTES) {
      this.keepAlives++;
      return;
    }
    const header = parseRtpHeader(packet);
    if (!header || header.payloadType !== OPUS_PAYLOAD_TYPE) {
      this.malformed++;
      return;
    }
    const peer = this.peers.get(header.ssrc);
    if (!peer) {
      const guildId = this.ended.get(header.ssrc);
      if (guildId === undefined) this.malformed++;
      else this.toEnded.set(guildId, (this.toEnded.get(guildId) ?? 0) + 1);
      return;
    }
    peer.onRtp(packet, receivedAtMs, from);
  }

  /** IP discovery reply: type 2, length 70, SSRC, the sender's address (NUL-terminated) and port (u16 BE at 72). */
  private discover(request: Buffer, from: RemoteInfo): void {
    const ssrc = request.readUInt32BE(4);
    if (!this.peers.has(ssrc)) {
      this.report(`voice UDP: IP discovery for unknown SSRC ${ssrc}`);
      return;
    }
    const reply = Buffer.alloc(DISCOVERY_BYTES);
    reply.writeUInt16BE(2, 0);
    reply.writeUInt16BE(70, 2);
    reply.writeUInt32BE(ssrc, 4);
    reply.write(from.address, 8, 'ascii');
    reply.writeUInt16BE(from.port, 72);
    afterDelay(this.latencyMs, () => this.send(reply, from.port, from.address));
  }

  close(): Promise<void> {
    try {
      this.marker?.close();
    } catch {
      // Closed already.
    }
    this.marker = undefined;
    // Closing: what waited for a mark is done now (an ended session's decryption let go).
    for (const arrived of this.marks.splice(0)) arrived();
    const thread = this.thread;
    if (thread) {
      this.thread = undefined;
      return new Promise((resolve) => {
        thread.once('exit', () => resolve());
        thread.postMessage({ type: 'close' } satisfies ReceiveThreadCommand);
      });
    }
    return new Promise((resolve) => {
      try {
        if (!this.socket) return resolve();
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
