import { createSecretKey, type KeyObject } from 'node:crypto';
import type { NetworkingState } from '@discordjs/voice';

const AES_GCM_MODE = 'aead_aes256_gcm_rtpsize';

/**
 * Gives a ready voice session its transport key as a KeyObject, made once. @discordjs/voice 0.19 keeps the key as
 * bytes and calls createCipheriv with them for every packet, so Node imports the raw key again 50 times a second per
 * voice: measured at about a tenth of the main thread's time with 100 voices playing (docs/benchmarks.md).
 * createCipheriv and createDecipheriv take a KeyObject as they take bytes; only the AES-GCM mode uses the key that
 * way (XChaCha20 hands the bytes to a library, so it is left alone).
 */
export function keepTransportKey(state: NetworkingState): void {
  if (!('connectionData' in state)) return;
  const data = state.connectionData as { encryptionMode?: string; secretKey?: Uint8Array | KeyObject };
  if (data.encryptionMode !== AES_GCM_MODE || !(data.secretKey instanceof Uint8Array)) return;
  data.secretKey = createSecretKey(data.secretKey);
}
