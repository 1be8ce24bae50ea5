// The parts of @discordjs/voice's ready voice session that SayBot's sender reads and writes, as the pinned version
// (discordjs-voice-seam.ts) keeps them. Only the seam checks that a live session has this shape.
import type { KeyObject } from 'node:crypto';
import type { Socket } from 'node:dgram';

/** The session's RTP and transport state (the library's ConnectionData, advanced as it would). */
export interface SenderConnectionData {
  encryptionMode: string;
  secretKey: Uint8Array | KeyObject;
  sequence: number;
  timestamp: number;
  nonce: number;
  ssrc: number;
  speaking: boolean;
  packetsPlayed: number;
}

/** The library's VoiceUDPSocket, as far as the sender uses it: `socket` and `remote` are private fields there. */
export interface LibraryUdp {
  send(buffer: Buffer): void;
  socket?: Partial<Pick<Socket, 'connect' | 'send' | 'getSendQueueCount'>>;
  remote?: { ip: string; port: number };
}

/** A ready session (the library's NetworkingReadyState, narrowed to what the sender uses). */
export interface ReadySession {
  connectionData: SenderConnectionData;
  dave?: { encrypt(packet: Buffer): Buffer } | undefined;
  udp: LibraryUdp;
}

/** What takes a voice session's UDP socket over from the library at its IP discovery (SenderThread.udpOwner, sender/sender-thread.ts). */
export interface UdpOwner {
  /** Runs IP discovery on a socket of its own for the library's `udp` (its own socket closed unused). */
  claim(udp: object, remote: { ip: string; port: number }, ssrc: number): Promise<{ ip: string; port: number }>;
  /**
   * The voice gateway's socket of `udp`'s session starts closing (Discord's close frame came, or the library closes it):
   * the session is over from now, though the library may let `udp` go only once the close handshake is done.
   */
  ending(udp: object): void;
  /** The library let `udp` go (the session is over). */
  released(udp: object): void;
}
