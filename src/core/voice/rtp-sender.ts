// One voice connection's packets as Discord wants them: RTP header, DAVE end-to-end encryption (the library's own
// session), transport encryption (the *_rtpsize AEAD modes) and the UDP send, written into buffers kept for the
// connection instead of the four or five new buffers @discordjs/voice makes per packet (header, concatenations).
// The session's state stays the library's: its connection data (sequence, timestamp, nonce, key, speaking), its
// DAVE session and its UDP socket, so that the library's gateway handling (resume, rejoin, DAVE transitions) and
// this sender always agree.
import { createCipheriv } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { directSend, sendQueueCount } from './discordjs-voice-seam.ts';
import type { LibraryUdp, ReadySession } from './discordjs-voice-types.ts';

const AES_GCM_MODE = 'aead_aes256_gcm_rtpsize';
const XCHACHA_MODE = 'aead_xchacha20_poly1305_rtpsize';
const RTP_HEADER_BYTES = 12;
const TAG_BYTES = 16;
const NONCE_TAIL_BYTES = 4;
const RTP_VERSION_BYTE = 0x80;
const OPUS_PAYLOAD_TYPE = 120;
/** 20 ms at 48 kHz, in the RTP clock's units, as the library counts (it doubles for its stereo clock). */
const TIMESTAMP_STEP = 960;
const MAX_NONCE = 2 ** 32 - 1;
/** Room for the largest Opus packet (1275 bytes) with DAVE's trailer and the transport's header, tag and nonce. */
const DATAGRAM_BYTES = 1500;

/** Discord's "silence" Opus frame: sent after a clip so that decoders do not interpolate into the gap. */
export const SILENCE_FRAME: Buffer = Buffer.from([0xf8, 0xff, 0xfe]);

interface Datagram {
  buffer: Buffer;
  /** Its first 12 bytes: the RTP header, which is also the AEAD's additional data. */
  header: Buffer;
}

function datagram(bytes: number): Datagram {
  const buffer = Buffer.allocUnsafeSlow(bytes);
  return { buffer, header: buffer.subarray(0, RTP_HEADER_BYTES) };
}

export class RtpSender {
  /**
   * Datagram buffers, reused turn after turn. Node's dgram sends on the next tick (it looks the address up first,
   * even an IP), so a buffer handed to send() is read after this turn of the event loop: within one turn (the clock
   * catching up sends several packets) each packet needs a buffer of its own, and in the next turn a buffer is free
   * again unless Node had to queue its send (the socket's buffer was full), which getSendQueueCount() tells.
   */
  #datagrams: Datagram[] = [datagram(DATAGRAM_BYTES)];
  #turn = -1;
  #used = 0;
  readonly #nonce12 = Buffer.alloc(12);
  readonly #nonce24 = Buffer.alloc(24);
  /** Times the buffers were given up because the socket still held one (a queued send): for the benchmark. */
  replacedBuffers = 0;

  /** A buffer nothing else will read before this packet is sent. `turn` changes with each turn of the event loop. */
  #acquire(turn: number, udp: LibraryUdp, size: number): Datagram {
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

  /**
   * Sends one Opus packet now on a ready session (readySession): DAVE-encrypted when the session's group is ready
   * (silence frames never are, as the library's DAVESession.encrypt decides), then sealed and sent.
   */
  send(session: ReadySession, opus: Buffer, turn: number): void {
    const data = session.connectionData;
    const payload = session.dave ? session.dave.encrypt(opus) : opus;
    const { buffer: datagram, header } = this.#acquire(
      turn,
      session.udp,
      RTP_HEADER_BYTES + payload.length + TAG_BYTES + NONCE_TAIL_BYTES,
    );
    datagram[0] = RTP_VERSION_BYTE;
    datagram[1] = OPUS_PAYLOAD_TYPE;
    datagram.writeUInt16BE(data.sequence, 2);
    datagram.writeUInt32BE(data.timestamp, 4);
    datagram.writeUInt32BE(data.ssrc, 8);
    data.nonce = data.nonce >= MAX_NONCE ? 0 : data.nonce + 1;
    let at = RTP_HEADER_BYTES;
    if (data.encryptionMode === AES_GCM_MODE) {
      this.#nonce12.writeUInt32BE(data.nonce, 0);
      const cipher = createCipheriv('aes-256-gcm', data.secretKey, this.#nonce12);
      cipher.setAAD(header);
      at += cipher.update(payload).copy(datagram, at);
      at += cipher.final().copy(datagram, at);
      at += cipher.getAuthTag().copy(datagram, at);
    } else if (data.encryptionMode === XCHACHA_MODE) {
      this.#nonce24.writeUInt32BE(data.nonce, 0);
      const sealed = datagram.subarray(at, at + payload.length + TAG_BYTES);
      xchacha20poly1305(data.secretKey as Uint8Array, this.#nonce24, header).encrypt(payload, sealed);
      at += sealed.length;
    } else {
      throw new RangeError(`unsupported voice encryption mode: ${data.encryptionMode}`);
    }
    datagram.writeUInt32BE(data.nonce, at);
    at += NONCE_TAIL_BYTES;
    directSend(session.udp)(datagram.subarray(0, at));
    // The library's own bookkeeping (Networking.playAudioPacket), so that it and this sender always agree.
    data.packetsPlayed += 1;
    data.sequence = data.sequence >= 0xffff ? 0 : data.sequence + 1;
    data.timestamp = data.timestamp + TIMESTAMP_STEP >= 2 ** 32 ? 0 : data.timestamp + TIMESTAMP_STEP;
  }
}
