// The fake's voice media socket with its receive thread (benchmarks): IP discovery answered from that thread's
// socket, and each datagram handed to its SSRC's peer stamped between its sending and its handling.
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { VoiceUdp, type UdpPeer } from '@saybot/local-discord/voice-udp.ts';

const udps: VoiceUdp[] = [];
afterEach(async () => {
  await Promise.all(udps.splice(0).map((udp) => udp.close()));
});

describe('VoiceUdp with a receive thread', () => {
  it('answers IP discovery and hands RTP to its peer, stamped after it was sent and before it was handled', async () => {
    const udp = new VoiceUdp(() => undefined, 0, true);
    udps.push(udp);
    await udp.listen();
    expect(udp.port).toBeGreaterThan(0);
    const got: Array<{ bytes: number; receivedAtMs: number; handledAtMs: number }> = [];
    const peer: UdpPeer = {
      onRtp: (packet, receivedAtMs) => got.push({ bytes: packet.length, receivedAtMs, handledAtMs: performance.now() }),
    };
    udp.register(7, peer);
    const client = createSocket('udp4');
    await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
    try {
      const reply = new Promise<Buffer>((resolve) => client.once('message', resolve));
      const discovery = Buffer.alloc(74);
      discovery.writeUInt16BE(1, 0);
      discovery.writeUInt16BE(70, 2);
      discovery.writeUInt32BE(7, 4);
      client.send(discovery, udp.port, udp.host);
      const answer = await reply;
      expect(answer.readUInt16BE(0)).toBe(2);
      expect(answer.readUInt16BE(72)).toBe(client.address().port);

      const rtp = Buffer.alloc(40);
      rtp[0] = 0x80;
      rtp[1] = 0x78;
      rtp.writeUInt32BE(7, 8);
      const sentAtMs = performance.now();
      client.send(rtp, udp.port, udp.host);
      await expect.poll(() => got.length).toBe(1);
      expect(got[0]?.bytes).toBe(40);
      expect(got[0]?.receivedAtMs).toBeGreaterThanOrEqual(sentAtMs);
      expect(got[0]?.receivedAtMs).toBeLessThanOrEqual(got[0]?.handledAtMs ?? 0);
    } finally {
      client.close();
    }
  });
});

describe('VoiceUdp as a session ends', () => {
  it('hears what was sent before the end though it reads it after, and counts only what came after as lost', async () => {
    const udp = new VoiceUdp(() => undefined);
    udps.push(udp);
    await udp.listen();
    let heard = 0;
    udp.register(7, { onRtp: () => heard++ });
    const client = createSocket('udp4');
    await new Promise<void>((resolve) => client.connect(udp.port, udp.host, resolve));
    try {
      const rtp = Buffer.alloc(40);
      rtp[0] = 0x80;
      rtp[1] = 0x78;
      rtp.writeUInt32BE(7, 8);
      // A connected socket sends in the call: the first is queued at the fake's socket, not yet read, as the session
      // ends; the second is sent after.
      client.send(rtp);
      let ended = false;
      udp.unregister(7, 'guild', () => (ended = true));
      client.send(rtp);
      await new Promise<void>((resolve) => udp.mark(resolve));
      expect({ heard, lost: udp.packetsToEnded('guild'), ended }).toEqual({ heard: 1, lost: 1, ended: true });
    } finally {
      client.close();
    }
  });
});
