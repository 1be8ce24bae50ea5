// The sender's datagrams as Discord's voice server reads them (the local Discord's own decryption): RTP numbers,
// both transport modes, the DAVE session's output, and buffers that are never overwritten before Node sends them.
import { createSecretKey, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RtpSender } from '../../bench/senders/rtp-sender.ts';
import { AES_GCM_MODE, XCHACHA_MODE, decryptRtp } from '@saybot/local-discord/rtp-decrypt.ts';

/**
 * A ready session as @discordjs/voice keeps it. Its socket, like Node's dgram, reads a buffer only later (dgram looks
 * the address up and sends on the next tick): `flush()` stands for that, copying what each buffer holds by then.
 */
function session(mode: string, options: { dave?: boolean; queued?: () => number } = {}) {
  const key = new Uint8Array(randomBytes(32));
  const pending: Buffer[] = [];
  const sent: Buffer[] = [];
  const connectionData = {
    encryptionMode: mode,
    secretKey: mode === AES_GCM_MODE ? createSecretKey(key) : key,
    sequence: 0xffff,
    timestamp: 2 ** 32 - 960,
    nonce: 0,
    ssrc: 0x1234_5678,
    speaking: true,
    packetsPlayed: 0,
  };
  const ready = {
    connectionData,
    ...(options.dave
      ? { dave: { encrypt: (packet: Buffer) => Buffer.concat([packet, Buffer.from([0xfa, 0xfa])]) } }
      : {}),
    udp: {
      socket: { getSendQueueCount: options.queued ?? (() => 0) },
      send: (buffer: Buffer): void => {
        pending.push(buffer);
      },
    },
  };
  const flush = () => sent.push(...pending.splice(0).map((b) => Buffer.from(b)));
  const open = (packet: Buffer) => decryptRtp(packet, mode, key);
  return { ready, connectionData, sent, flush, open };
}

const opus = (n: number) => Buffer.from(Array.from({ length: 40 + n }, (_, i) => (i * 7 + n) & 0xff));

describe('RtpSender', () => {
  for (const mode of [AES_GCM_MODE, XCHACHA_MODE]) {
    it(`${mode}: each packet decrypts to its Opus frame with the next sequence, timestamp and nonce (wrapping as the library does)`, () => {
      const s = session(mode);
      const sender = new RtpSender();
      for (let i = 0; i < 3; i++) {
        sender.send(s.ready, opus(i), i);
        s.flush();
      }
      const opened = s.sent.map((p) => s.open(p));
      expect(opened.map((o) => o?.payload)).toEqual([opus(0), opus(1), opus(2)]);
      expect(opened.map((o) => o?.header.sequence)).toEqual([0xffff, 0, 1]);
      expect(opened.map((o) => o?.header.timestamp)).toEqual([2 ** 32 - 960, 0, 960]);
      expect(opened.map((o) => o?.header.ssrc)).toEqual([0x1234_5678, 0x1234_5678, 0x1234_5678]);
      expect(s.sent.map((p) => p.readUInt32BE(p.length - 4))).toEqual([1, 2, 3]);
      expect(s.connectionData).toMatchObject({ sequence: 2, timestamp: 1920, nonce: 3, packetsPlayed: 3 });
    });
  }

  it('sends what the DAVE session made of the frame', () => {
    const s = session(AES_GCM_MODE, { dave: true });
    new RtpSender().send(s.ready, opus(1), 0);
    s.flush();
    expect(s.open(s.sent[0]!)?.payload).toEqual(Buffer.concat([opus(1), Buffer.from([0xfa, 0xfa])]));
  });

  it('packets sent in one turn (the clock catching up) each keep their own buffer until Node has sent them', () => {
    const s = session(AES_GCM_MODE);
    const sender = new RtpSender();
    for (let i = 0; i < 4; i++) sender.send(s.ready, opus(i), 7);
    s.flush();
    expect(s.sent.map((p) => s.open(p)?.payload)).toEqual([opus(0), opus(1), opus(2), opus(3)]);
  });

  it('a buffer whose send Node had to queue is not written again in the next turn', () => {
    let queued = 0;
    const s = session(AES_GCM_MODE, { queued: () => queued });
    const sender = new RtpSender();
    sender.send(s.ready, opus(0), 1);
    queued = 1; // the socket was full: Node still holds that datagram
    sender.send(s.ready, opus(1), 2);
    s.flush();
    expect(s.sent.map((p) => s.open(p)?.payload)).toEqual([opus(0), opus(1)]);
    expect(sender.replacedBuffers).toBe(1);
  });

  it('reuses its buffers turn after turn when nothing is queued (no new buffer per packet)', () => {
    const s = session(AES_GCM_MODE);
    const sender = new RtpSender();
    const seen = new Set<ArrayBufferLike>();
    const send = s.ready.udp.send;
    s.ready.udp.send = (buffer: Buffer) => {
      seen.add(buffer.buffer);
      send(buffer);
    };
    for (let turn = 0; turn < 50; turn++) {
      sender.send(s.ready, opus(turn % 5), turn);
      s.flush();
    }
    expect(seen.size).toBe(1);
    expect(s.sent.map((p) => s.open(p)?.payload)).toEqual(Array.from({ length: 50 }, (_, turn) => opus(turn % 5)));
  });

  it("on a real UDP socket: connects it to the voice server, and every datagram arrives (sent before and after, and the library's own)", async () => {
    const server = createSocket('udp4');
    const bot = createSocket('udp4');
    try {
      server.bind(0, '127.0.0.1');
      await once(server, 'listening');
      const remote = { ip: '127.0.0.1', port: server.address().port };
      const received: Buffer[] = [];
      let arrived: () => void = () => undefined;
      server.on('message', (message: Buffer) => {
        received.push(message);
        arrived();
      });
      const until = (count: number) =>
        new Promise<void>((resolve) => {
          arrived = () => {
            if (received.length >= count) resolve();
          };
          arrived();
        });
      const s = session(AES_GCM_MODE);
      // As @discordjs/voice's VoiceUDPSocket: its socket, the server's address, and addressed sends of its own.
      const udp = {
        socket: bot as Socket,
        remote,
        send(buffer: Buffer): void {
          bot.send(buffer, remote.port, remote.ip);
        },
      };
      const ready = { ...s.ready, udp };
      const sender = new RtpSender();
      sender.send(ready, opus(0), 0);
      await once(bot, 'connect');
      expect(bot.remoteAddress()).toEqual({ address: '127.0.0.1', family: 'IPv4', port: remote.port });
      sender.send(ready, opus(1), 1);
      // The library's keep-alive after the connect: an addressed send would now throw ERR_SOCKET_DGRAM_IS_CONNECTED.
      udp.send(Buffer.from('keepaliv'));
      await until(3);
      const audio = received.filter((m) => m.length > 8).map((m) => s.open(m)?.payload);
      expect(audio).toEqual([opus(0), opus(1)]);
      expect(received.filter((m) => m.toString() === 'keepaliv')).toHaveLength(1);
    } finally {
      bot.close();
      server.close();
    }
  });
});
