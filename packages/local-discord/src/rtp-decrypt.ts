// Voice media: RTP headers and the two *_rtpsize AEAD modes Discord uses.
// Layout: [RTP header (12 + 4*CC) (+4-byte extension header if X)][ciphertext + 16-byte tag][4-byte nonce counter].
// The AAD is everything before the ciphertext; the extension *body* is encrypted and leads the plaintext.
import { createDecipheriv } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';

export const AES_GCM_MODE = 'aead_aes256_gcm_rtpsize';
export const XCHACHA_MODE = 'aead_xchacha20_poly1305_rtpsize';
export const SUPPORTED_MODES: readonly string[] = [AES_GCM_MODE, XCHACHA_MODE];
export const OPUS_PAYLOAD_TYPE = 0x78;
const TAG_BYTES = 16;
const NONCE_COUNTER_BYTES = 4;

export interface RtpHeader {
  sequence: number;
  timestamp: number;
  ssrc: number;
  payloadType: number;
  /** Bytes of authenticated, unencrypted header: fixed part, CSRCs and the 4-byte extension header. */
  aadLength: number;
  hasExtension: boolean;
}

/** Parses an RTP v2 header; undefined when the datagram is not one. */
export function parseRtpHeader(packet: Uint8Array): RtpHeader | undefined {
  if (packet.length < 12) return undefined;
  const b0 = packet[0] ?? 0;
  if (b0 >> 6 !== 2) return undefined;
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  const csrcCount = b0 & 0x0f;
  const hasExtension = (b0 & 0x10) !== 0;
  const aadLength = 12 + 4 * csrcCount + (hasExtension ? 4 : 0);
  if (packet.length < aadLength) return undefined;
  return {
    payloadType: (packet[1] ?? 0) & 0x7f,
    sequence: view.getUint16(2),
    timestamp: view.getUint32(4),
    ssrc: view.getUint32(8),
    aadLength,
    hasExtension,
  };
}

/** Decrypts one media datagram and strips the RTP extension body; undefined when it does not authenticate. */
export function decryptRtp(
  packet: Uint8Array,
  mode: string,
  key: Uint8Array,
): { header: RtpHeader; payload: Buffer } | undefined {
  const header = parseRtpHeader(packet);
  if (!header || packet.length < header.aadLength + TAG_BYTES + NONCE_COUNTER_BYTES) return undefined;
  const aad = packet.subarray(0, header.aadLength);
  const sealed = packet.subarray(header.aadLength, packet.length - NONCE_COUNTER_BYTES);
  const counter = packet.subarray(packet.length - NONCE_COUNTER_BYTES);
  let plain: Buffer;
  try {
    if (mode === AES_GCM_MODE) {
      const nonce = Buffer.alloc(12);
      nonce.set(counter, 0);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    } else if (mode === XCHACHA_MODE) {
      const nonce = new Uint8Array(24);
      nonce.set(counter, 0);
      plain = Buffer.from(xchacha20poly1305(key, nonce, aad).decrypt(sealed));
    } else {
      return undefined;
    }
  } catch {
    return undefined;
  }
  if (header.hasExtension) {
    const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
    const extensionBytes = 4 * view.getUint16(header.aadLength - 2);
    if (extensionBytes > plain.length) return undefined;
    plain = plain.subarray(extensionBytes);
  }
  return { header, payload: plain };
}
