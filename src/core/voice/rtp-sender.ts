// One voice connection's packets as Discord wants them (RTP, DAVE, transport encryption, UDP send) written into buffers
// kept for the connection instead of the library's four or five per packet. The session state stays the library's,
// so its gateway handling (resume, rejoin, DAVE transitions) and this sender agree.
import { directSend, sendQueueCount } from './discordjs-voice-seam.ts';
import type { LibraryUdp, ReadySession } from './discordjs-voice-types.ts';
import { datagramBytes, nextPosition, sealInto, type NonceScratch } from './sender/transport-seal.ts';

const MAX_NONCE = 2 ** 32 - 1;
/** Room for the largest Opus packet (1275 bytes) with DAVE's trailer and the transport's header, tag and nonce. */
const DATAGRAM_BYTES = 1500;

/** Discord's "silence" Opus frame: sent after a clip so that decoders do not interpolate into the gap. */
export const SILENCE_FRAME: Buffer = Buffer.from([0xf8, 0xff, 0xfe]);

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
