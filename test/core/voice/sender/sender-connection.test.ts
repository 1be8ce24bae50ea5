// One voice of the sender thread against a UDP server on 127.0.0.1 that answers IP discovery: the order of what it
// sends (no timed assertion: its clock is driven by the `now` the test gives it).
import { randomBytes } from 'node:crypto';
import { voiceUdpServer, type VoiceUdpServer } from '../../../support/voice-udp-server.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AES_GCM_MODE, decryptRtp } from '@saybot/local-discord/rtp-decrypt.ts';
import { createRing, RingWriter } from '../../../../src/core/voice/sender/packet-ring.ts';
import { ConnectionBarrier, type PacketRun } from '../../../../src/core/voice/sender/sender-messages.ts';
import {
  CLOSING_SILENCE_FRAMES,
  PERIOD_MS,
  SenderConnection,
  type ConnectionListener,
} from '../../../../src/core/voice/sender/sender-connection.ts';
import { SILENCE_FRAME } from '../../../../src/core/voice/packet-sender.ts';

const KEY = new Uint8Array(randomBytes(32));
let server: VoiceUdpServer;
let received: Buffer[];
let connection: SenderConnection | undefined;

beforeEach(async () => {
  server = await voiceUdpServer();
  received = server.received;
});
afterEach(() => {
  connection?.close();
  server.close();
});

function listen() {
  const events: string[] = [];
  const listener: ConnectionListener = {
    moved: () => undefined,
    done: (_voice, clip, sent, how) => events.push(`done ${clip} ${sent} ${how}`),
    lost: (_voice, message) => events.push(`lost ${message}`),
    sent: () => undefined,
    skipped: (slots) => events.push(`skipped ${slots}`),
  };
  return { events, listener };
}

let writer: RingWriter;

/** Writes a run into the voice's ring as the main thread does (SenderThread.queue). */
function queue(run: PacketRun): void {
  run.packets.forEach((p, n) => expect(writer.push(run.clip, run.first + n, run.generation, p)).toBe(true));
}

/** The clip's end, after its packets in the ring. */
function end(clip: number): void {
  expect(writer.push(clip, 0, 0, undefined)).toBe(true);
}

async function opened(listener: ConnectionListener, barrier?: Int32Array): Promise<SenderConnection> {
  const ring = createRing(16);
  writer = new RingWriter(ring);
  const v = new SenderConnection(1, 7, listener, ring, barrier);
  const local = await v.discover('127.0.0.1', server.port);
  expect(local.ip).toBe('127.0.0.1');
  v.keys(AES_GCM_MODE, KEY, 0, 0);
  connection = v;
  return v;
}

const packet = (n: number) => Uint8Array.from([0x78, n]);
/** What the server got, opened: the payloads in order. */
async function heard(count: number): Promise<Buffer[]> {
  await expect.poll(() => received.length).toBeGreaterThanOrEqual(count);
  return received.map((d) => decryptRtp(d, AES_GCM_MODE, KEY)?.payload as Buffer);
}

describe('SenderConnection', () => {
  it('sends the first packet at once, one a period after, then closing silence, and says the clip ended', async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1), packet(2)], generation: 0 });
    expect(v.run(0)).toBe(PERIOD_MS);
    end(5);
    let due = v.run(PERIOD_MS);
    while (due !== undefined) due = v.run(due);
    const payloads = await heard(2 + CLOSING_SILENCE_FRAMES);
    expect(payloads.slice(0, 2)).toEqual([Buffer.from(packet(1)), Buffer.from(packet(2))]);
    expect(payloads.slice(2).every((p) => p.equals(SILENCE_FRAME))).toBe(true);
    expect(events).toEqual(['done 5 2 ended']);
  });

  it('a stop drops the packets not yet sent at once and says how many went', async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1), packet(2), packet(3)], generation: 0 });
    v.run(0);
    v.stop(5);
    expect(v.run(1000)).toBeUndefined();
    expect(events).toEqual(['done 5 1 stopped']);
    expect(await heard(1)).toEqual([Buffer.from(packet(1))]);
  });

  it('copies sealed again after a DAVE transition replace those still in the ring, never one already sent', async () => {
    const { listener } = listen();
    const barrier = new Int32Array(new SharedArrayBuffer(ConnectionBarrier.length * Int32Array.BYTES_PER_ELEMENT));
    const v = await opened(listener, barrier);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1), packet(2), packet(3)], generation: 0 });
    v.run(0);
    Atomics.store(barrier, 0, 1);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(11), packet(12), packet(13)], generation: 1 });
    v.run(PERIOD_MS);
    v.run(2 * PERIOD_MS);
    expect(await heard(3)).toEqual([packet(1), packet(12), packet(13)].map((p) => Buffer.from(p)));
  });

  it("only the clip's next packet is sent: a slot of any other number is passed over, never sent out of order or twice", async () => {
    const { listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1)], generation: 0 });
    v.run(0);
    // The main thread writes no gap; were one in the ring, the thread would not jump over the packet it owes.
    queue({ connection: 1, clip: 5, first: 2, packets: [packet(3)], generation: 0 });
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(11), packet(12)], generation: 0 });
    v.run(PERIOD_MS);
    expect(v.progress()).toEqual({ clip: 5, sent: 2, idleSlots: 0 });
    expect(await heard(2)).toEqual([packet(1), packet(12)].map((p) => Buffer.from(p)));
  });

  it("a copy sealed again arriving after the clip's end in the ring is still sent before its closing silence", async () => {
    const { events, listener } = listen();
    const barrier = new Int32Array(new SharedArrayBuffer(ConnectionBarrier.length * Int32Array.BYTES_PER_ELEMENT));
    const v = await opened(listener, barrier);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1), packet(2)], generation: 0 });
    end(5);
    v.run(0);
    Atomics.store(barrier, 0, 1);
    // Packet 2 was sealed before the transition: its slot passes empty (no closing silence yet) until its copy.
    expect(v.run(PERIOD_MS)).toBe(2 * PERIOD_MS);
    queue({ connection: 1, clip: 5, first: 1, packets: [packet(12)], generation: 1 });
    let due = v.run(2 * PERIOD_MS);
    while (due !== undefined) due = v.run(due);
    const payloads = await heard(2 + CLOSING_SILENCE_FRAMES);
    expect(payloads.slice(0, 2)).toEqual([Buffer.from(packet(1)), Buffer.from(packet(12))]);
    expect(payloads.slice(2).every((p) => p.equals(SILENCE_FRAME))).toBe(true);
    expect(events).toEqual(['done 5 2 ended']);
  });

  it("a stopped clip's packets left in the ring are dropped; the next clip in the ring starts at once", async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1), packet(2), packet(3)], generation: 0 });
    v.run(0);
    v.stop(5);
    queue({ connection: 1, clip: 6, first: 0, packets: [packet(21), packet(22)], generation: 0 });
    expect(v.run(1000)).toBe(1000 + PERIOD_MS);
    v.run(1000 + PERIOD_MS);
    expect(events).toEqual(['done 5 1 stopped']);
    expect(v.progress()).toEqual({ clip: 6, sent: 2, idleSlots: 0 });
    expect(await heard(3)).toEqual([packet(1), packet(21), packet(22)].map((p) => Buffer.from(p)));
  });

  it('with nothing to read it sleeps, saying so in the ring: the next write is told to wake it, once', async () => {
    const { listener } = listen();
    const v = await opened(listener);
    // A new ring's reader sleeps until the first write.
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1)], generation: 0 });
    expect(writer.wakeNeeded()).toBe(true);
    expect(writer.wakeNeeded()).toBe(false);
    v.run(0);
    // Under way, it reads on its own clock: a write needs no wake.
    queue({ connection: 1, clip: 5, first: 1, packets: [packet(2)], generation: 0 });
    expect(writer.wakeNeeded()).toBe(false);
    end(5);
    let due = v.run(PERIOD_MS);
    while (due !== undefined) due = v.run(due);
    // Ended, nothing left: asleep again.
    queue({ connection: 1, clip: 6, first: 0, packets: [packet(3)], generation: 0 });
    expect(writer.wakeNeeded()).toBe(true);
  });

  it('a packet sealed before its DAVE generation was raised is never sent: its slot passes empty until the copy comes', async () => {
    const { listener } = listen();
    const barrier = new Int32Array(new SharedArrayBuffer(ConnectionBarrier.length * Int32Array.BYTES_PER_ELEMENT));
    const v = await opened(listener, barrier);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1), packet(2), packet(3)], generation: 0 });
    v.run(0);
    Atomics.store(barrier, 0, 1);
    expect(v.run(PERIOD_MS)).toBe(2 * PERIOD_MS);
    expect(v.progress()).toEqual({ clip: 5, sent: 1, idleSlots: 0 });
    queue({ connection: 1, clip: 5, first: 1, packets: [packet(12), packet(13)], generation: 1 });
    v.run(2 * PERIOD_MS);
    v.run(3 * PERIOD_MS);
    expect(await heard(3)).toEqual([packet(1), packet(12), packet(13)].map((p) => Buffer.from(p)));
    expect(Atomics.load(barrier, 1)).toBe(0);
  });

  it('sends silence while the next packet is late, only once something was said, and nothing while held', async () => {
    const { listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 5, first: 0, packets: [packet(1)], generation: 0 });
    v.run(0);
    expect(v.run(PERIOD_MS)).toBe(2 * PERIOD_MS);
    v.held = true;
    expect(v.run(10 * PERIOD_MS)).toBeUndefined();
    v.held = false;
    queue({ connection: 1, clip: 5, first: 1, packets: [packet(2)], generation: 0 });
    v.run(2 * PERIOD_MS);
    expect(await heard(3)).toEqual([packet(1), SILENCE_FRAME, packet(2)].map((p) => Buffer.from(p)));
  });

  it('closing it ends the clip under way as closed, with the packets that went', async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 9, first: 4, packets: [packet(1), packet(2)], generation: 0 });
    v.run(0);
    v.close();
    expect(events).toEqual(['done 9 5 closed']);
  });

  it('closed as ended since an instant, the clip under way counts only the packets sent before it', async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 9, first: 4, packets: [1, 2, 3, 4, 5].map(packet), generation: 0 });
    for (let n = 0; n < 5; n++) v.run(n * PERIOD_MS);
    // Packets 4 and 5 went at 0 and 20; 6, 7 and 8 from 40 on, after the session may have ended (at 30).
    v.close(30);
    expect(events).toEqual(['done 9 6 closed']);
  });

  it('closed as ended before its first packet here, the clip counts none sent here (not below where it started)', async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 9, first: 4, packets: [packet(1), packet(2)], generation: 0 });
    v.run(100);
    v.run(100 + PERIOD_MS);
    v.close(0);
    expect(events).toEqual(['done 9 4 closed']);
  });

  it('closed as ended since an instant, a clip that ended here since is told closed at its first packet sent from then', async () => {
    const { events, listener } = listen();
    const v = await opened(listener);
    queue({ connection: 1, clip: 9, first: 0, packets: [1, 2, 3].map(packet), generation: 0 });
    end(9);
    for (let n = 0; n <= 3 + CLOSING_SILENCE_FRAMES; n++) v.run(n * PERIOD_MS);
    // Packets 0 and 1 went at 0 and 20, packet 2 at 40: after the session may have ended (at 30).
    v.close(30);
    expect(events).toEqual(['done 9 3 ended', 'done 9 2 closed']);
  });
});
