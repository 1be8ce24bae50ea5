import { createCipheriv, KeyObject, randomBytes } from 'node:crypto';
import type { NetworkingState } from '@discordjs/voice';
import { describe, expect, it } from 'vitest';
import { keepTransportKey } from '../../src/voice/transport-key.ts';

function seal(key: Uint8Array | KeyObject, nonce: Buffer, packet: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from('rtp header'));
  return Buffer.concat([cipher.update(packet), cipher.final(), cipher.getAuthTag()]);
}

describe('keepTransportKey', () => {
  it('turns an AES-GCM session key into a KeyObject that seals packets exactly as the bytes did', () => {
    const bytes = new Uint8Array(randomBytes(32));
    const state = { code: 4, connectionData: { encryptionMode: 'aead_aes256_gcm_rtpsize', secretKey: bytes } } as unknown as NetworkingState;
    keepTransportKey(state);
    const key = (state as unknown as { connectionData: { secretKey: unknown } }).connectionData.secretKey;
    expect(key).toBeInstanceOf(KeyObject);
    const nonce = Buffer.alloc(12, 7);
    const packet = randomBytes(120);
    expect(seal(key as KeyObject, nonce, packet)).toEqual(seal(bytes, nonce, packet));
  });

  it('leaves an XChaCha20 session key as bytes (the library hands those to another cipher)', () => {
    const bytes = new Uint8Array(randomBytes(32));
    const state = { code: 4, connectionData: { encryptionMode: 'aead_xchacha20_poly1305_rtpsize', secretKey: bytes } } as unknown as NetworkingState;
    keepTransportKey(state);
    expect((state as unknown as { connectionData: { secretKey: unknown } }).connectionData.secretKey).toBe(bytes);
  });
});
