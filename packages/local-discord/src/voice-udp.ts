// The voice media socket: IP discovery, keep-alives, and RTP handed to the session that owns the SSRC.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { afterDelay } from './network-delay.ts';
import { OPUS_PAYLOAD_TYPE, parseRtpHeader } from './rtp-decrypt.ts';

const DISCOVERY_BYTES = 74;
const KEEP_ALIVE_BYTES = 8;
const RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;

export interface UdpPeer {
  /** An RTP datagram with this peer's SSRC, as received. */
  onRtp(packet: Buffer, receivedAtMs: number, from: RemoteInfo): void;
}

export class VoiceUdp {
  readonly host = '127.0.0.1';
  port = 0;
  keepAlives = 0;
  malformed = 0;
  private readonly socket: Socket;
  private readonly peers = new Map<number, UdpPeer>();
  private readonly report: (line: string) => void;
  /** One-way network delay on every datagram, both ways (network-delay.ts); 0 on loopback. */
  private readonly latencyMs: number;

  constructor(report: (line: string) => void, latencyMs = 0) {
    this.report = report;
    this.latencyMs = latencyMs;
    this.socket = createSocket('udp4');
    this.socket.on('message', (packet, from) =>
      afterDelay(this.latencyMs, () => {
        const receivedAtMs = performance.now();
        try {
          this.onMessage(packet, from, receivedAtMs);
        } catch (error) {
          this.malformed++;
          this.report(`voice UDP: dropped a datagram from ${from.address}:${from.port}: ${String(error)}`);
        }
      }),
    );
    this.socket.on('error', (error) => this.report(`voice UDP socket error: ${String(error)}`));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(0, this.host, () => {
        this.socket.off('error', reject);
        this.port = this.socket.address().port;
        // Many streams at once arrive in bursts whenever this process is busy decoding: with the default buffer
        // (~200 KB) the kernel drops datagrams before they are counted. Ask for more (capped by net.core.rmem_max).
        try {
          this.socket.setRecvBufferSize(RECEIVE_BUFFER_BYTES);
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

  unregister(ssrc: number): void {
    this.peers.delete(ssrc);
  }

  private onMessage(packet: Buffer, from: RemoteInfo, receivedAtMs: number): void {
    if (packet.length === DISCOVERY_BYTES && packet.readUInt16BE(0) === 1) {
      this.discover(packet, from);
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
      this.malformed++;
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
    afterDelay(this.latencyMs, () => this.socket.send(reply, from.port, from.address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
