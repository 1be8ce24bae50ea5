// One voice session's transport encryption (Discord's *_rtpsize AEAD modes) for the sender thread and the clock sender
// (bench/senders/rtp-sender.ts): RTP header, payload sealed with it as additional data, nonce counter at the end. The
// counter lives in the one sending thread and only goes up for a key.
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

/** Where a datagram's RTP header and nonce come from (the session's counters now). */
interface RtpPosition {
  sequence: number;
  timestamp: number;
  ssrc: number;
  nonce: number;
}

/** Scratch nonces a sealer reuses (the counter goes in their first four bytes). */
export interface NonceScratch {
  readonly nonce12: Buffer;
  readonly nonce24: Buffer;
}

/** The sequence number after `sequence`, wrapping as RTP's does. */
const nextSequence = (sequence: number): number => (sequence >= 0xffff ? 0 : sequence + 1);
/** The timestamp one 20 ms packet after `timestamp`, wrapping as RTP's does. */
const nextTimestamp = (timestamp: number): number =>
  timestamp + TIMESTAMP_STEP >= 2 ** 32 ? 0 : timestamp + TIMESTAMP_STEP;

/** The next sequence number and timestamp after one 20 ms packet, each wrapping as RTP's counters do. */
export function nextPosition(sequence: number, timestamp: number): { sequence: number; timestamp: number } {
  return { sequence: nextSequence(sequence), timestamp: nextTimestamp(timestamp) };
}

/** The datagram's length for a payload of `payloadBytes`: header, sealed payload and tag, nonce tail. */
export function datagramBytes(payloadBytes: number): number {
  return RTP_HEADER_BYTES + payloadBytes + TAG_BYTES + NONCE_TAIL_BYTES;
}

/** Writes one datagram (RTP header, sealed payload, nonce tail); returns its length. Both senders' one rule. */
export function sealInto(
  datagram: Buffer,
  payload: Uint8Array,
  at: RtpPosition,
  mode: string,
  key: KeyObject | Uint8Array,
  scratch: NonceScratch,
): number {
  const header = datagram.subarray(0, RTP_HEADER_BYTES);
  datagram[0] = RTP_VERSION_BYTE;
  datagram[1] = OPUS_PAYLOAD_TYPE;
  datagram.writeUInt16BE(at.sequence, 2);
  datagram.writeUInt32BE(at.timestamp, 4);
  datagram.writeUInt32BE(at.ssrc, 8);
  let written = RTP_HEADER_BYTES;
  if (mode === AES_GCM_MODE) {
    scratch.nonce12.writeUInt32BE(at.nonce, 0);
    const cipher = createCipheriv('aes-256-gcm', key, scratch.nonce12);
    cipher.setAAD(header);
    written += cipher.update(payload).copy(datagram, written);
    written += cipher.final().copy(datagram, written);
    written += cipher.getAuthTag().copy(datagram, written);
  } else if (mode === XCHACHA_MODE) {
    scratch.nonce24.writeUInt32BE(at.nonce, 0);
    const sealed = datagram.subarray(written, written + payload.length + TAG_BYTES);
    xchacha20poly1305(key as Uint8Array, scratch.nonce24, header).encrypt(payload, sealed);
    written += sealed.length;
  } else {
    throw new RangeError(`unsupported voice encryption mode: ${mode}`);
  }
  datagram.writeUInt32BE(at.nonce, written);
  return written + NONCE_TAIL_BYTES;
}

class NonceExhaustedError extends Error {
  constructor() {
    super('the transport nonce reached its end for this key: the session must be renewed');
    this.name = 'NonceExhaustedError';
  }
}

export class TransportSeal {
  readonly mode: string;
  readonly #keyBytes: Uint8Array;
  readonly #key: KeyObject | undefined;
  #sequence: number;
  #timestamp: number;
  #nonce = 0;
  readonly #scratch: NonceScratch = { nonce12: Buffer.alloc(12), nonce24: Buffer.alloc(24) };
  readonly #at: RtpPosition;

  constructor(mode: string, key: Uint8Array, ssrc: number, sequence: number, timestamp: number) {
    if (mode !== AES_GCM_MODE && mode !== XCHACHA_MODE)
      throw new RangeError(`unsupported voice encryption mode: ${mode}`);
    this.mode = mode;
    this.#keyBytes = new Uint8Array(key);
    this.#key = mode === AES_GCM_MODE ? createSecretKey(this.#keyBytes) : undefined;
    this.#sequence = sequence;
    this.#timestamp = timestamp;
    this.#at = { sequence, timestamp, ssrc, nonce: 0 };
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
    const datagram = Buffer.allocUnsafe(datagramBytes(payload.length));
    this.sealTo(datagram, payload);
    return datagram;
  }

  /** The next datagram for `payload`, written into `datagram` (reused); its length. Advances the counters. */
  sealTo(datagram: Buffer, payload: Uint8Array): number {
    if (this.#nonce >= MAX_NONCE) throw new NonceExhaustedError();
    this.#nonce += 1;
    const at = this.#at;
    at.sequence = this.#sequence;
    at.timestamp = this.#timestamp;
    at.nonce = this.#nonce;
    const length = sealInto(datagram, payload, at, this.mode, this.#key ?? this.#keyBytes, this.#scratch);
    this.#sequence = nextSequence(this.#sequence);
    this.#timestamp = nextTimestamp(this.#timestamp);
    return length;
  }
}
