// The sender thread's transport seal, opened with the local Discord's decryption: both modes, the RTP header's
// counters, and a nonce that only goes up for a key.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AES_GCM_MODE, XCHACHA_MODE, decryptRtp } from '@saybot/local-discord/rtp-decrypt.ts';
import { TransportSeal } from '../../../../src/core/voice/sender/transport-seal.ts';

describe('TransportSeal', () => {
  for (const mode of [AES_GCM_MODE, XCHACHA_MODE]) {
    it(`seals packets the voice server opens (${mode}), sequence and timestamp counting on, each nonce new`, () => {
      const key = new Uint8Array(randomBytes(32));
      const seal = new TransportSeal(mode, key, 42, 0xfffe, 1000);
      const payloads = [Buffer.from([0x78, 1, 2]), Buffer.from([0x78, 3]), Buffer.from([0x78, 4, 5, 6])];
      const opened = payloads.map((p) => decryptRtp(seal.seal(p), mode, key));
      expect(opened.map((o) => o?.payload)).toEqual(payloads);
      expect(opened.map((o) => o?.header.sequence)).toEqual([0xfffe, 0xffff, 0]);
      expect(opened.map((o) => o?.header.timestamp)).toEqual([1000, 1960, 2920]);
      expect(opened.map((o) => o?.header.ssrc)).toEqual([42, 42, 42]);
      expect(seal.nonce).toBe(3);
    });
  }

  it('sealTo writes into a buffer the caller keeps (the sender thread reuses its own): the same datagram as seal', () => {
    const key = new Uint8Array(randomBytes(32));
    const fresh = new TransportSeal(AES_GCM_MODE, key, 7, 10, 20);
    const reusing = new TransportSeal(AES_GCM_MODE, key, 7, 10, 20);
    const buffer = Buffer.alloc(1_600, 0xaa);
    for (const payload of [Buffer.from([0x78, 1, 2]), Buffer.from([0x78, 3])]) {
      const length = reusing.sealTo(buffer, payload);
      expect(buffer.subarray(0, length)).toEqual(fresh.seal(payload));
      expect(decryptRtp(buffer.subarray(0, length), AES_GCM_MODE, key)?.payload).toEqual(payload);
    }
    expect(reusing.nonce).toBe(2);
  });

  it('knows its own key again, and only its own', () => {
    const key = new Uint8Array(randomBytes(32));
    const seal = new TransportSeal(AES_GCM_MODE, key, 1, 0, 0);
    expect(seal.sameKey(AES_GCM_MODE, new Uint8Array(key))).toBe(true);
    expect(seal.sameKey(AES_GCM_MODE, new Uint8Array(randomBytes(32)))).toBe(false);
    expect(seal.sameKey(XCHACHA_MODE, key)).toBe(false);
  });

  it('refuses a mode it cannot seal with', () => {
    expect(() => new TransportSeal('xsalsa20_poly1305', new Uint8Array(32), 1, 0, 0)).toThrow(/unsupported/);
  });
});
