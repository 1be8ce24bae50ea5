// One voice connection's packets as Discord wants them (RTP, DAVE, transport encryption, UDP send) written into buffers
// kept for the connection instead of the library's four or five per packet. The session state stays the library's,
// so its gateway handling (resume, rejoin, DAVE transitions) and this sender agree.
import type { Socket } from 'node:dgram';
import type { LibraryUdp, ReadySession } from '../../src/core/voice/discordjs-voice-types.ts';
import {
  datagramBytes,
  nextPosition,
  sealInto,
  type NonceScratch,
} from '../../src/core/voice/sender/transport-seal.ts';

const MAX_NONCE = 2 ** 32 - 1;
/** Room for the largest Opus packet (1275 bytes) with DAVE's trailer and the transport's header, tag and nonce. */
const DATAGRAM_BYTES = 1500;

/** The UDP socket's count of datagrams the kernel has not taken yet (Node queues them, holding their buffers). */
function sendQueueCount(udp: LibraryUdp): number {
  return udp.socket?.getSendQueueCount?.() ?? Number.POSITIVE_INFINITY;
}

const directSends = new WeakMap<LibraryUdp, (buffer: Buffer) => void>();

/** Datagrams held while the socket connects (a turn of the event loop): a second of audio at most. */
const MAX_HELD_DATAGRAMS = 50;

/**
 * How to send on the library's socket: connected, Node's dgram sends in the call (an addressed send takes a closure and
 * a tick per datagram, an eighth of the main thread's allocations at 50 voices) and the kernel skips its route lookup.
 * A connected socket refuses addressed sends, so datagrams are held (copied) while it connects, and the library's own
 * sends are pointed here too. A socket that cannot connect is sent to with addresses.
 */
function directSend(udp: LibraryUdp): (buffer: Buffer) => void {
  const known = directSends.get(udp);
  if (known) return known;
  const { socket, remote } = udp;
  if (!socket?.connect || !socket.send || !remote) {
    const send = (buffer: Buffer): void => udp.send(buffer);
    directSends.set(udp, send);
    return send;
  }
  const raw = socket as Socket;
  let state: 'connecting' | 'connected' | 'addressed' = 'connecting';
  const held: Buffer[] = [];
  const send = (buffer: Buffer): void => {
    if (state === 'connected') raw.send(buffer);
    else if (state === 'addressed') raw.send(buffer, remote.port, remote.ip);
    else if (held.length < MAX_HELD_DATAGRAMS) held.push(Buffer.from(buffer));
  };
  const settle = (next: 'connected' | 'addressed'): void => {
    state = next;
    for (const buffer of held.splice(0)) send(buffer);
  };
  udp.send = send;
  directSends.set(udp, send);
  try {
    raw.connect(remote.port, remote.ip, (error?: Error) => settle(error === undefined ? 'connected' : 'addressed'));
  } catch (error) {
    // Connected already (to the same server: the library never connects it), or closed (nothing goes anywhere then).
    settle((error as { code?: string }).code === 'ERR_SOCKET_DGRAM_IS_CONNECTED' ? 'connected' : 'addressed');
  }
  return send;
}

function datagram(bytes: number): Buffer {
  return Buffer.allocUnsafeSlow(bytes);
}

export class RtpSender {
  /** Datagram buffers reused across turns: dgram reads a buffer after this turn unless its send was queued. */
  #datagrams: Buffer[] = [datagram(DATAGRAM_BYTES)];
  #turn = -1;
  #used = 0;
  readonly #scratch: NonceScratch = { nonce12: Buffer.alloc(12), nonce24: Buffer.alloc(24) };
  /** Times the buffers were given up because the socket still held one (a queued send): for the benchmark. */
  replacedBuffers = 0;

  /** A buffer nothing else will read before this packet is sent. `turn` changes with each turn of the event loop. */
  #acquire(turn: number, udp: LibraryUdp, size: number): Buffer {
    if (size > DATAGRAM_BYTES) return datagram(size);
    if (turn !== this.#turn) {
      this.#turn = turn;
      this.#used = 0;
      if (sendQueueCount(udp) > 0) {
        this.#datagrams = [];
        this.replacedBuffers += 1;
      }
    }
    let next = this.#datagrams[this.#used];
    if (!next) {
      next = datagram(DATAGRAM_BYTES);
      this.#datagrams.push(next);
    }
    this.#used += 1;
    return next;
  }

  /** Sends one Opus packet now: DAVE-encrypted when the group is ready (never silence), then sealed and sent. */
  send(session: ReadySession, opus: Buffer, turn: number): void {
    const data = session.connectionData;
    const payload = session.dave ? session.dave.encrypt(opus) : opus;
    const datagram = this.#acquire(turn, session.udp, datagramBytes(payload.length));
    data.nonce = data.nonce >= MAX_NONCE ? 0 : data.nonce + 1;
    const length = sealInto(datagram, payload, data, data.encryptionMode, data.secretKey, this.#scratch);
    directSend(session.udp)(datagram.subarray(0, length));
    // The library's own bookkeeping (Networking.playAudioPacket), so that it and this sender always agree.
    data.packetsPlayed += 1;
    ({ sequence: data.sequence, timestamp: data.timestamp } = nextPosition(data.sequence, data.timestamp));
  }
}
