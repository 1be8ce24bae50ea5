// One voice session's transport encryption (the *_rtpsize AEAD modes Discord offers), as the sender thread applies
// it: the RTP header, the payload sealed with the header as additional data, and the nonce's counter at the end. The
// counter lives here, in the one thread that sends, and only ever goes up for a key: a new key (a new session) is the
// only thing that starts it again.
import { createCipheriv, createSecretKey, type KeyObject } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';

export const AES_GCM_MODE = 'aead_aes256_gcm_rtpsize';
export const XCHACHA_MODE = 'aead_xchacha20_poly1305_rtpsize';
const RTP_HEADER_BYTES = 12;
const TAG_BYTES = 16;
const NONCE_TAIL_BYTES = 4;
const RTP_VERSION_BYTE = 0x80;
const OPUS_PAYLOAD_TYPE = 120;
/** 20 ms at 48 kHz, in the RTP clock's units, as @discordjs/voice counts. */
const TIMESTAMP_STEP = 960;
const MAX_NONCE = 2 ** 32 - 1;

export class NonceExhaustedError extends Error {
  constructor() {
    super('the transport nonce reached its end for this key: the session must be renewed');
    this.name = 'NonceExhaustedError';
  }
}

export class TransportSeal {
  readonly mode: string;
  readonly #keyBytes: Uint8Array;
  readonly #key: KeyObject | undefined;
  readonly #ssrc: number;
  #sequence: number;
  #timestamp: number;
  #nonce = 0;
  readonly #nonce12 = Buffer.alloc(12);
  readonly #nonce24 = Buffer.alloc(24);

  constructor(mode: string, key: Uint8Array, ssrc: number, sequence: number, timestamp: number) {
    if (mode !== AES_GCM_MODE && mode !== XCHACHA_MODE)
      throw new RangeError(`unsupported voice encryption mode: ${mode}`);
    this.mode = mode;
    this.#keyBytes = new Uint8Array(key);
    this.#key = mode === AES_GCM_MODE ? createSecretKey(this.#keyBytes) : undefined;
    this.#ssrc = ssrc;
    this.#sequence = sequence;
    this.#timestamp = timestamp;
  }

  /** Whether `key` is this seal's key (the same session's description again keeps the nonce count). */
  sameKey(mode: string, key: Uint8Array): boolean {
    return mode === this.mode && Buffer.from(key).equals(Buffer.from(this.#keyBytes));
  }

  get nonce(): number {
    return this.#nonce;
  }

  /** The next datagram for `payload`; advances sequence, timestamp and nonce. */
  seal(payload: Uint8Array): Buffer {
    if (this.#nonce >= MAX_NONCE) throw new NonceExhaustedError();
    this.#nonce += 1;
    const datagram = Buffer.allocUnsafe(RTP_HEADER_BYTES + payload.length + TAG_BYTES + NONCE_TAIL_BYTES);
    const header = datagram.subarray(0, RTP_HEADER_BYTES);
    datagram[0] = RTP_VERSION_BYTE;
    datagram[1] = OPUS_PAYLOAD_TYPE;
    datagram.writeUInt16BE(this.#sequence, 2);
    datagram.writeUInt32BE(this.#timestamp, 4);
    datagram.writeUInt32BE(this.#ssrc, 8);
    let at = RTP_HEADER_BYTES;
    if (this.#key) {
      this.#nonce12.writeUInt32BE(this.#nonce, 0);
      const cipher = createCipheriv('aes-256-gcm', this.#key, this.#nonce12);
      cipher.setAAD(header);
      at += cipher.update(payload).copy(datagram, at);
      at += cipher.final().copy(datagram, at);
      at += cipher.getAuthTag().copy(datagram, at);
    } else {
      this.#nonce24.writeUInt32BE(this.#nonce, 0);
      const sealed = datagram.subarray(at, at + payload.length + TAG_BYTES);
      xchacha20poly1305(this.#keyBytes, this.#nonce24, header).encrypt(payload, sealed);
      at += sealed.length;
    }
    datagram.writeUInt32BE(this.#nonce, at);
    this.#sequence = this.#sequence >= 0xffff ? 0 : this.#sequence + 1;
    this.#timestamp = this.#timestamp + TIMESTAMP_STEP >= 2 ** 32 ? 0 : this.#timestamp + TIMESTAMP_STEP;
    return datagram;
  }
}
