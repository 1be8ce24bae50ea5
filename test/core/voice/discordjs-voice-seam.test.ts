import { createCipheriv, KeyObject, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  VoiceConnectionStatus,
  VoiceUDPSocket,
  version as discordjsVoiceVersion,
  type NetworkingState,
  type VoiceConnection,
} from '@discordjs/voice';
import { describe, expect, it } from 'vitest';
import {
  keepTransportKey,
  readySession,
  readySessionProblem,
  udpSocketProblem,
  sendableSession,
  untilSendable,
  DISCORDJS_VOICE_VERSION,
  DiscordjsVoiceShapeError,
} from '../../../src/core/voice/discordjs-voice-seam.ts';
import { daveConnection } from '../../support/dave-connection.ts';

function seal(key: Uint8Array | KeyObject, nonce: Buffer, packet: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from('rtp header'));
  return Buffer.concat([cipher.update(packet), cipher.final(), cipher.getAuthTag()]);
}

describe('keepTransportKey', () => {
  it('turns an AES-GCM session key into a KeyObject that seals packets exactly as the bytes did', () => {
    const bytes = new Uint8Array(randomBytes(32));
    const state = {
      code: 4,
      connectionData: { encryptionMode: 'aead_aes256_gcm_rtpsize', secretKey: bytes },
    } as unknown as NetworkingState;
    keepTransportKey(state);
    const key = (state as unknown as { connectionData: { secretKey: unknown } }).connectionData.secretKey;
    expect(key).toBeInstanceOf(KeyObject);
    const nonce = Buffer.alloc(12, 7);
    const packet = randomBytes(120);
    expect(seal(key as KeyObject, nonce, packet)).toEqual(seal(bytes, nonce, packet));
  });

  it('leaves an XChaCha20 session key as bytes (the library hands those to another cipher)', () => {
    const bytes = new Uint8Array(randomBytes(32));
    const state = {
      code: 4,
      connectionData: { encryptionMode: 'aead_xchacha20_poly1305_rtpsize', secretKey: bytes },
    } as unknown as NetworkingState;
    keepTransportKey(state);
    expect((state as unknown as { connectionData: { secretKey: unknown } }).connectionData.secretKey).toBe(bytes);
  });
});

/** A ready networking state shaped as @discordjs/voice 0.19.2 keeps it, with a real dgram socket. */
function readyState(socket: Socket) {
  return {
    code: 4,
    connectionData: {
      encryptionMode: 'aead_aes256_gcm_rtpsize',
      secretKey: new Uint8Array(32),
      sequence: 1,
      timestamp: 960,
      nonce: 0,
      ssrc: 7,
      speaking: false,
      packetsPlayed: 0,
    },
    udp: { send: () => undefined, socket, remote: { ip: '127.0.0.1', port: 9 } },
  };
}

/** A VoiceConnection in the Ready state whose networking is in this state (what readySession reads). */
function connectionWith(networkingState: unknown): VoiceConnection {
  return {
    state: { status: VoiceConnectionStatus.Ready, networking: { state: networkingState } },
  } as unknown as VoiceConnection;
}

describe('the @discordjs/voice seam', () => {
  it('package.json pins @discordjs/voice to exactly the release the seam was written for, and that release is installed', () => {
    const root = join(import.meta.dirname, '../../..');
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@discordjs/voice']).toBe(DISCORDJS_VOICE_VERSION);
    expect(discordjsVoiceVersion).toBe(DISCORDJS_VOICE_VERSION);
  });

  it("finds the private fields it uses on the library's own UDP socket", async () => {
    const listener = createSocket('udp4');
    listener.bind(0, '127.0.0.1');
    await once(listener, 'listening');
    const udp = new VoiceUDPSocket({ ip: '127.0.0.1', port: listener.address().port });
    try {
      const fields = udp as unknown as { socket: Socket };
      expect(readySessionProblem({ ...readyState(fields.socket), udp })).toBeUndefined();
      expect(udpSocketProblem(udp)).toBeUndefined();
      // The socket sends its first keep-alive in the next turn; it is closed after that, not under it.
      await once(listener, 'message');
    } finally {
      udp.destroy();
      listener.close();
    }
  });

  it('accepts a session of the pinned shape and refuses a renamed field with a message naming it and the release', () => {
    const socket = createSocket('udp4');
    try {
      const good = readyState(socket);
      expect(readySession(connectionWith(good))).toBe(good);

      const renamed = readyState(socket);
      const { sequence, ...rest } = renamed.connectionData;
      const changed = { ...renamed, connectionData: { ...rest, seq: sequence } };
      expect(() => readySession(connectionWith(changed))).toThrow(DiscordjsVoiceShapeError);
      expect(() => readySession(connectionWith(changed))).toThrow(
        /not shaped as in 0\.19\.2 \(connectionData\.sequence is not a number\).*src\/core\/voice\/discordjs-voice-seam\.ts/,
      );

      const { remote: _remote, ...udpWithoutRemote } = good.udp;
      expect(udpSocketProblem(udpWithoutRemote)).toBe('udp.remote has no ip and port');
      expect(readySessionProblem({ ...good, udp: { sendPacket: good.udp.send } })).toBe('udp.send is not a function');
    } finally {
      socket.close();
    }
  });
});

describe('whether a clip may go now (sendableSession, untilSendable)', () => {
  it('waits while the DAVE group reinitializes and ends once it is ready again, though no event of the library says so', async () => {
    const c = daveConnection(new Uint8Array(32));
    const order: string[] = [];
    c.dave.reinitializing = true;
    expect(sendableSession(c.connection)).toBeUndefined();
    const stop = new AbortController();
    const waited = untilSendable(c.connection, stop.signal).then(() => order.push('sendable'));
    // A state change that leaves the group reinitializing does not end the wait.
    c.emitter.emit('stateChange', {}, c.emitter.state);
    await new Promise((resolve) => setImmediate(resolve));
    order.push('group ready');
    c.dave.reinitializing = false;
    await waited;
    expect(order).toEqual(['group ready', 'sendable']);
    expect(sendableSession(c.connection)).toBe(readySession(c.connection));
  });

  it('ends a wait with the signal, and answers at once when the connection may send already', async () => {
    const c = daveConnection(new Uint8Array(32));
    await untilSendable(c.connection, AbortSignal.abort());
    c.setReady(false);
    const stop = new AbortController();
    const waited = untilSendable(c.connection, stop.signal);
    stop.abort(new Error('let go'));
    await expect(waited).rejects.toThrow('let go');
  });
});
