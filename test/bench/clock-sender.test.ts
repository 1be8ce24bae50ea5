// A clip on the voice clock under fake timers, its datagrams opened with the local Discord's decryption: nothing before
// the first packet, silence while a packet is late, closing silence, the time played, and a connection not ready.
import { createSecretKey, randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { NetworkingStatusCode, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClockSender } from '../../bench/senders/clock-sender.ts';
import { SILENCE_FRAME } from '../../src/core/voice/packet-sender.ts';
import { AES_GCM_MODE, decryptRtp } from '@saybot/local-discord/rtp-decrypt.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A connection as @discordjs/voice keeps it when ready, whose socket copies what it is given. */
function connection() {
  const key = new Uint8Array(randomBytes(32));
  const sent: Buffer[] = [];
  const connectionData = {
    encryptionMode: AES_GCM_MODE,
    secretKey: createSecretKey(key),
    sequence: 0,
    timestamp: 0,
    nonce: 0,
    ssrc: 42,
    speaking: false,
    packetsPlayed: 0,
  };
  const ready = {
    status: VoiceConnectionStatus.Ready,
    networking: {
      state: {
        code: NetworkingStatusCode.Ready,
        connectionData,
        udp: {
          socket: { getSendQueueCount: () => 0 },
          send: (buffer: Buffer) => sent.push(Buffer.from(buffer)),
        },
      },
    },
  };
  const fake = {
    state: ready as unknown,
    setSpeaking: (speaking: boolean) => {
      connectionData.speaking = speaking;
    },
  };
  const payloads = () => sent.map((d) => decryptRtp(d, AES_GCM_MODE, key)?.payload);
  return { fake, connection: fake as unknown as VoiceConnection, ready, payloads, connectionData };
}

const packet = (n: number) => Buffer.from([0x78, n, n, n]);
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ClockSender', () => {
  it('sends nothing before the first packet, silence while one is late, then five closing silence frames', async () => {
    const c = connection();
    const stream = new PassThrough({ objectMode: true });
    const events = { started: vi.fn(), ended: vi.fn() };
    const clip = new ClockSender().play(c.connection, stream, events);
    vi.advanceTimersByTime(100);
    await tick();
    expect(c.payloads()).toEqual([]);
    stream.write(packet(1));
    await tick();
    expect(c.payloads()).toEqual([packet(1)]);
    expect(events.started).toHaveBeenCalledTimes(1);
    expect(c.connectionData.speaking).toBe(true);
    vi.advanceTimersByTime(20);
    expect(c.payloads()).toEqual([packet(1), SILENCE_FRAME]);
    stream.write(packet(2));
    vi.advanceTimersByTime(20);
    expect(c.payloads()).toEqual([packet(1), SILENCE_FRAME, packet(2)]);
    stream.end();
    await tick();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(20);
      await tick();
    }
    const after = c.payloads().slice(3);
    expect(after.length).toBeGreaterThanOrEqual(5);
    expect(after.every((p) => p?.equals(SILENCE_FRAME))).toBe(true);
    expect(events.ended).toHaveBeenCalledTimes(1);
    expect(events.ended).toHaveBeenCalledWith(undefined);
    expect(clip.playedMs).toBe(40);
    expect(c.connectionData.speaking).toBe(false);
    expect(c.connectionData.sequence).toBe(c.payloads().length);
  });

  it('waits where it is while the connection is not ready, and goes on from there when it is again', async () => {
    const c = connection();
    const stream = new PassThrough({ objectMode: true });
    const clip = new ClockSender().play(c.connection, stream, { started: () => undefined, ended: () => undefined });
    stream.write(packet(1));
    stream.write(packet(2));
    stream.write(packet(3));
    await tick();
    expect(c.payloads()).toEqual([packet(1)]);
    c.fake.state = { status: VoiceConnectionStatus.Connecting };
    vi.advanceTimersByTime(100);
    expect(c.payloads()).toEqual([packet(1)]);
    c.fake.state = c.ready;
    vi.advanceTimersByTime(40);
    expect(c.payloads()).toEqual([packet(1), packet(2), packet(3)]);
    expect(clip.stop()).toBe(true);
    expect(clip.stop()).toBe(false);
    expect(stream.destroyed).toBe(true);
  });

  it('a stream that fails ends the clip with its error after the closing silence', async () => {
    const c = connection();
    const stream = new PassThrough({ objectMode: true });
    const ended = vi.fn();
    new ClockSender().play(c.connection, stream, { started: () => undefined, ended });
    stream.write(packet(1));
    await tick();
    const failure = new Error('body broke off');
    stream.destroy(failure);
    await tick();
    for (let i = 0; i < 8; i++) vi.advanceTimersByTime(20);
    expect(ended).toHaveBeenCalledWith(failure);
    expect(
      c
        .payloads()
        .slice(1)
        .every((p) => p?.equals(SILENCE_FRAME)),
    ).toBe(true);
  });
});
