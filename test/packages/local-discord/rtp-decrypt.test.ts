import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { AES_GCM_MODE, XCHACHA_MODE, decryptRtp, parseRtpHeader } from '@saybot/local-discord/rtp-decrypt.ts';

/** Builds a media datagram the way Discord clients do, optionally with CSRCs and a header extension. */
function seal(
  mode: string,
  key: Uint8Array,
  payload: Buffer,
  opts: { csrcs?: number[]; extension?: Buffer; counter?: number } = {},
): Buffer {
  const csrcs = opts.csrcs ?? [];
  const fixed = Buffer.alloc(12 + 4 * csrcs.length);
  fixed[0] = 0x80 | (opts.extension ? 0x10 : 0) | csrcs.length;
  fixed[1] = 0x78;
  fixed.writeUInt16BE(4242, 2);
  fixed.writeUInt32BE(960 * 7, 4);
  fixed.writeUInt32BE(0xdeadbeef, 8);
  csrcs.forEach((c, i) => fixed.writeUInt32BE(c, 12 + 4 * i));
  let aad = fixed;
  let plain = payload;
  if (opts.extension) {
    const extensionHeader = Buffer.alloc(4);
    extensionHeader.writeUInt16BE(0xbede, 0);
    extensionHeader.writeUInt16BE(opts.extension.length / 4, 2);
    aad = Buffer.concat([fixed, extensionHeader]);
    plain = Buffer.concat([opts.extension, payload]);
  }
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(opts.counter ?? 1, 0);
  let sealed: Buffer;
  if (mode === AES_GCM_MODE) {
    const nonce = Buffer.concat([counter, Buffer.alloc(8)]);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(aad);
    sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  } else {
    const nonce = Buffer.concat([counter, Buffer.alloc(20)]);
    sealed = Buffer.from(xchacha20poly1305(key, nonce, aad).encrypt(plain));
  }
  return Buffer.concat([aad, sealed, counter]);
}

describe('rtp-decrypt', () => {
  const key = new Uint8Array(randomBytes(32));
  const opus = Buffer.from([0xfc, 0xff, 0xfe, 1, 2, 3, 4, 5]);

  for (const mode of [AES_GCM_MODE, XCHACHA_MODE]) {
    it(`${mode}: opens a plain packet and reads the header`, () => {
      const opened = decryptRtp(seal(mode, key, opus, { counter: 77 }), mode, key);
      expect(opened?.payload).toEqual(opus);
      expect(opened?.header).toMatchObject({ sequence: 4242, timestamp: 960 * 7, ssrc: 0xdeadbeef, payloadType: 0x78 });
    });

    it(`${mode}: authenticates CSRCs and the extension header, and strips the extension body`, () => {
      const extension = Buffer.from([0x10, 0xaa, 0, 0, 0x21, 1, 2, 0]);
      const packet = seal(mode, key, opus, { csrcs: [1, 2], extension });
      expect(decryptRtp(packet, mode, key)?.payload).toEqual(opus);
      const tamperedCsrc = Buffer.from(packet);
      tamperedCsrc[13] = (tamperedCsrc[13] ?? 0) ^ 1;
      expect(decryptRtp(tamperedCsrc, mode, key)).toBeUndefined();
    });

    it(`${mode}: rejects a wrong key, a flipped ciphertext bit and truncated packets`, () => {
      const packet = seal(mode, key, opus);
      expect(decryptRtp(packet, mode, new Uint8Array(32))).toBeUndefined();
      const flipped = Buffer.from(packet);
      flipped[14] = (flipped[14] ?? 0) ^ 0x80;
      expect(decryptRtp(flipped, mode, key)).toBeUndefined();
      expect(decryptRtp(packet.subarray(0, 20), mode, key)).toBeUndefined();
    });
  }

  it('parseRtpHeader refuses what is not RTP v2', () => {
    expect(parseRtpHeader(Buffer.alloc(8))).toBeUndefined();
    expect(parseRtpHeader(Buffer.from([0x40, 0x78, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(decryptRtp(seal(AES_GCM_MODE, key, opus), 'xsalsa20_poly1305', key)).toBeUndefined();
  });
});
