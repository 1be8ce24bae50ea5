// A clip played by the real sender thread on a connection shaped as @discordjs/voice keeps a ready one, its socket
// discovered against a UDP server on 127.0.0.1 that opens what arrives: the order of what is sent (no timed
// assertion), what a stop drops, what a hold keeps, what a DAVE key change seals again, and what is counted played.
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { MessageChannel, Worker } from 'node:worker_threads';
import { voiceUdpServer, type VoiceUdpServer } from '../../../support/voice-udp-server.ts';
import { daveConnection } from '../../../support/dave-connection.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AES_GCM_MODE, decryptRtp } from '@saybot/local-discord/rtp-decrypt.ts';
import { senderThread } from '../../../../src/core/voice/sender/sender-thread.ts';
import { watchNetworking } from '../../../../src/core/voice/discordjs-voice-seam.ts';
import { START_LEAD_PACKETS, START_WAIT_MS, WorkerSender } from '../../../../src/core/voice/sender/worker-clip.ts';
import type { PacketRun } from '../../../../src/core/voice/sender/sender-messages.ts';
import { SILENCE_FRAME } from '../../../../src/core/voice/packet-sender.ts';

const KEY = new Uint8Array(randomBytes(32));
let server: VoiceUdpServer;
let received: Buffer[];

beforeEach(async () => {
  server = await voiceUdpServer();
  received = server.received;
});
afterEach(() => {
  vi.restoreAllMocks();
  server.close();
});

/** The runs of packets handed to the sender thread, in order. */
function handedRuns(): PacketRun[] {
  const runs: PacketRun[] = [];
  const queue = senderThread.queue.bind(senderThread);
  vi.spyOn(senderThread, 'queue').mockImplementation((run) => {
    runs.push({ ...run, packets: [...run.packets] });
    queue(run);
  });
  return runs;
}

/** A ready connection (test/support/dave-connection.ts) whose sender connection the sender thread opened. */
async function connection() {
  const c = daveConnection(KEY);
  const { discovered } = senderThread.open(c.udp, { ip: '127.0.0.1', port: server.port }, 42, () => {});
  await discovered;
  const close = () => {
    const connection = senderThread.connectionOf(c.udp);
    if (connection !== undefined) senderThread.close(connection);
  };
  return { ...c, close };
}

/** What the server got: each payload's frame number and DAVE epoch, or 'silence'. */
function payloads(): Array<string> {
  return received.map((d) => {
    const payload = decryptRtp(d, AES_GCM_MODE, KEY)?.payload as Buffer;
    return payload.equals(SILENCE_FRAME) ? 'silence' : `${payload[1]}@${payload.at(-1)}`;
  });
}

const frame = (n: number) => Buffer.from([0x78, n, n]);

/**
 * What the server got once `words` frames and the closing silence are in, silence in between left out: with a ring
 * smaller than the lead, a main thread late to top it up (a busy host) makes the thread cover a slot with silence, as
 * the library does. That is timing, not asserted either way; which frames went, once each and in order, is.
 */
async function wordsHeard(words: number): Promise<string[]> {
  await vi.waitFor(
    () => {
      expect(payloads().filter((p) => p !== 'silence').length).toBeGreaterThanOrEqual(words);
      expect(payloads().slice(-5)).toEqual(Array(5).fill('silence'));
    },
    { timeout: 20_000 },
  );
  return payloads().filter((p) => p !== 'silence');
}

function play(c: Awaited<ReturnType<typeof connection>>, frames: number, startLead = true) {
  const stream = new PassThrough({ objectMode: true });
  for (let n = 0; n < frames; n++) stream.write(frame(n));
  const events = { started: vi.fn(), ended: vi.fn() };
  const clip = new WorkerSender({ startLead }).play(c.connection, stream, events);
  return { stream, events, clip };
}

describe('a clip on the sender thread', () => {
  it('plays every frame once and in order, then closing silence; counts as played what was reported sent', async () => {
    const c = await connection();
    const { stream, events, clip } = play(c, 8);
    stream.end();
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(events.ended).toHaveBeenCalledWith(undefined);
    expect(events.started).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(received.length).toBe(8 + 5), { timeout: 20_000 });
    expect(payloads()).toEqual([...Array.from({ length: 8 }, (_, n) => `${n}@1`), ...Array(5).fill('silence')]);
    expect(clip.playedMs).toBe(8 * 20);
    c.close();
  });

  it('a stream destroyed with an error before its first frame ends the clip with that error, nothing sent', async () => {
    const c = await connection();
    const { stream, events, clip } = play(c, 0);
    const cut = new Error('the body was reset');
    // destroy() marks the stream destroyed at once and emits its error on the next tick: the clip may look first.
    stream.destroy(cut);
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(events.ended).toHaveBeenCalledWith(cut);
    expect(events.started).not.toHaveBeenCalled();
    expect(clip.playedMs).toBe(0);
    expect(received).toEqual([]);
    c.close();
  });

  it('a stop drops what was queued and not sent: played is what the server got, no closing silence', async () => {
    const c = await connection();
    const { events, clip } = play(c, 20);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 20_000 });
    expect(clip.stop()).toBe(true);
    expect(clip.stop()).toBe(false);
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const sent = clip.playedMs / 20;
    // Nothing arrives after the stop's answer: what went is what was counted.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(20);
    expect(payloads()).toEqual(Array.from({ length: sent }, (_, n) => `${n}@1`));
    c.close();
  });

  it('held while the connection is not ready, it goes on from where it was, nothing lost or twice', async () => {
    const c = await connection();
    const { stream, events } = play(c, 20);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 20_000 });
    c.setReady(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.length).toBeLessThan(20);
    c.setReady(true);
    stream.end();
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(received.length).toBe(20 + 5), { timeout: 20_000 });
    expect(payloads().slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => `${n}@1`));
    c.close();
  });

  it('held while DAVE reinitializes, it goes on once the group is ready again, though no event of the library says so', async () => {
    const c = await connection();
    // Read whole at once (under the lead): its end is handed over with its packets, nothing left to read.
    const { stream, events } = play(c, 20);
    stream.end();
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 20_000 });
    const holds = senderThread.counts.messages['hold'] ?? 0;
    c.dave.reinitializing = true;
    c.emitter.emit('stateChange', {}, c.emitter.state);
    expect(senderThread.counts.messages['hold']).toBe(holds + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.length).toBeLessThan(20);
    // Ready again without a 'transitioned' or a state change (the library sets the flag and tells no one).
    c.dave.reinitializing = false;
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(received.length).toBe(20 + 5), { timeout: 20_000 });
    expect(payloads().slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => `${n}@1`));
    c.close();
  });

  it('on a watched connection the session is looked up once while nothing changes it, and a voice gateway message that reinitializes the DAVE group is noticed at the next look', async () => {
    const c = await connection();
    // The library's handlers: DAVE's group changes in a voice gateway message's handler, and tells no one.
    c.voiceGateway.on('packet', (reinitializing: boolean) => (c.dave.reinitializing = reinitializing));
    c.voiceGateway.on('binary', (reinitializing: boolean) => (c.dave.reinitializing = reinitializing));
    watchNetworking(c.connection, { onClose: () => undefined, onHandlerError: () => undefined });
    let looks = 0;
    let state: unknown = c.emitter.state;
    Object.defineProperty(c.emitter, 'state', {
      get: () => (looks++, state),
      set: (next: unknown) => (state = next),
    });
    const { stream, events } = play(c, 10);
    await vi.waitFor(() => expect(payloads().length).toBeGreaterThanOrEqual(10), { timeout: 20_000 });
    const looked = looks;
    expect(looked).toBeGreaterThan(0);
    for (let n = 10; n < 20; n++) stream.write(frame(n));
    await vi.waitFor(() => expect(payloads()).toContain('19@1'), { timeout: 20_000 });
    expect(looks).toBe(looked);

    const holds = senderThread.counts.messages['hold'] ?? 0;
    c.voiceGateway.emit('packet', true);
    stream.write(frame(20));
    await vi.waitFor(() => expect(senderThread.counts.messages['hold']).toBeGreaterThan(holds), { timeout: 10_000 });
    expect(payloads()).not.toContain('20@1');
    c.voiceGateway.emit('binary', false);
    stream.end();
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(await wordsHeard(21)).toEqual(Array.from({ length: 21 }, (_, n) => `${n}@1`));
    c.close();
  });

  it('a clip stopped while it holds its voice lets go of the hold: the next clip on that voice plays', async () => {
    const c = await connection();
    const first = play(c, 20);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 20_000 });
    // The session is not ready: the clip holds its sender connection (a hold is the connection's, not the clip's).
    c.setReady(false);
    first.clip.stop();
    await vi.waitFor(() => expect(first.events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    c.setReady(true);
    const next = play(c, 3);
    next.stream.end();
    await vi.waitFor(() => expect(next.events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    // What the server got last (its datagrams can be read after the thread's word that the clip ended).
    await vi.waitFor(() => expect(payloads().slice(-8)).toEqual(['0@1', '1@1', '2@1', ...Array(5).fill('silence')]), {
      timeout: 20_000,
    });
    c.close();
  });

  it('a DAVE key change seals the frames queued and not sent again with the new keys before they go', async () => {
    const c = await connection();
    const { stream, events } = play(c, 20);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 20_000 });
    // Held, so that the change lands while most of the clip is still queued in the sender.
    c.setReady(false);
    c.transition(2);
    c.setReady(true);
    stream.end();
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(received.length).toBe(20 + 5), { timeout: 20_000 });
    const heard = payloads().slice(0, 20);
    expect(heard.map((p) => p.split('@')[0])).toEqual(Array.from({ length: 20 }, (_, n) => `${n}`));
    const firstNew = heard.findIndex((p) => p.endsWith('@2'));
    expect(firstNew).toBeGreaterThan(0);
    // Once the new keys are in use, every later frame has them: none of the old ones queued went out.
    expect(heard.slice(firstNew).every((p) => p.endsWith('@2'))).toBe(true);
    expect(heard.at(-1)).toBe('19@2');
    c.close();
  });

  it('a DAVE transition with the main thread held up right after it: no frame sealed before it leaves once it executed', async () => {
    const c = await connection();
    const { stream, events } = play(c, 40);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 10_000 });
    // The execute, as the library emits it; the mark follows in the same turn, so every datagram the thread sent
    // before the transition returned reaches the server before the mark.
    c.transition(2);
    server.mark();
    // The main thread is held up (a garbage collection, a long task on a slow host) before the copies sealed again
    // can be handed over: the thread must not fill that time with what it had queued.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    stream.end();
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(received.length).toBe(40 + 5), { timeout: 10_000 });
    const heard = payloads();
    expect(server.marks).toHaveLength(1);
    const mark = server.marks[0] as number;
    // Frames were still queued at the transition (some after the mark), and every one after the mark has the new keys.
    expect(mark).toBeLessThan(40);
    expect(heard.slice(mark).filter((p) => p !== 'silence' && !p.endsWith('@2'))).toEqual([]);
    // Nothing lost, nothing twice, in order.
    expect(heard.slice(0, 40).map((p) => p.split('@')[0])).toEqual(Array.from({ length: 40 }, (_, n) => `${n}`));
    c.close();
  });

  it('the per-packet path posts no message: a whole clip costs its keys and at most a wake or two, its packets and end go through the ring', async () => {
    const c = await connection();
    const types: string[] = [];
    const post = Worker.prototype.postMessage;
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, ...args: unknown[]) {
      types.push(String((args[0] as { type?: unknown }).type));
      return (post as (...a: unknown[]) => void).apply(this, args);
    });
    const { stream, events } = play(c, 60);
    stream.end();
    await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 20_000 });
    await vi.waitFor(() => expect(received.length).toBe(60 + 5), { timeout: 20_000 });
    // 60 packets handed over (in several runs, LEAD_PACKETS ahead at most), and not one message for them: the keys,
    // and a wake where the thread slept on an empty ring when packets came (none when it was reading the ring
    // already, as when it was starting the voice with its keys that moment; two when the clip's first packets came
    // in two runs with the thread asleep between them).
    expect(types.filter((type) => type !== 'wake')).toEqual(['keys']);
    expect(types.filter((type) => type === 'wake').length).toBeLessThanOrEqual(2);
    expect(payloads().slice(0, 60)).toEqual(Array.from({ length: 60 }, (_, n) => `${n}@1`));
    c.close();
  });

  describe('a ring smaller than the lead (the main thread finds it full and waits for room)', () => {
    let slots: number;
    beforeEach(() => {
      slots = senderThread.ringSlots;
      senderThread.ringSlots = 4;
    });
    afterEach(() => {
      senderThread.ringSlots = slots;
    });

    it('loses nothing and overruns nothing: every frame once, in order, on contiguous RTP sequence numbers', async () => {
      const c = await connection();
      const full = senderThread.counts.ringFull;
      const { stream, events, clip } = play(c, 60);
      stream.end();
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 20_000 });
      expect(await wordsHeard(60)).toEqual(Array.from({ length: 60 }, (_, n) => `${n}@1`));
      expect(senderThread.counts.ringFull).toBeGreaterThan(full);
      const sequences = received.map((d) => decryptRtp(d, AES_GCM_MODE, KEY)?.header.sequence as number);
      expect(sequences).toEqual(sequences.map((_, n) => ((sequences[0] as number) + n) & 0xffff));
      expect(clip.playedMs).toBe(60 * 20);
      c.close();
    });

    it('a DAVE transition while it is full: nothing sealed before it leaves after it, nothing lost or twice', async () => {
      const c = await connection();
      const { stream, events } = play(c, 40);
      await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 10_000 });
      c.transition(2);
      server.mark();
      stream.end();
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 20_000 });
      const words = await wordsHeard(40);
      const mark = server.marks[0] as number;
      expect(mark).toBeLessThan(40);
      expect(
        payloads()
          .slice(mark)
          .filter((p) => p !== 'silence' && !p.endsWith('@2')),
      ).toEqual([]);
      // Once each and in order (47 datagrams where 45 were expected was a late top-up's silence, never a double).
      expect(words.map((p) => p.split('@')[0])).toEqual(Array.from({ length: 40 }, (_, n) => `${n}`));
      c.close();
    });

    it('copies sealed again after a transition start at the packet the thread sends next, not at the last one reported: a copy of a packet already sent never takes a slot', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events } = play(c, 40);
      await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 10_000 });
      // The main thread held up: the thread goes on sending from the ring, its reports not read yet.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      server.mark();
      const before = runs.length;
      c.transition(2);
      stream.end();
      const copies = runs[before] as PacketRun;
      expect(copies.generation).toBeGreaterThan(0);
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 20_000 });
      await vi.waitFor(() => expect(server.marks).toHaveLength(1), { timeout: 10_000 });
      // Every frame the server had before the transition was sent before it: none of them is copied again (silence
      // covered the slots the held main thread did not top up).
      const sentBefore = payloads()
        .slice(0, server.marks[0])
        .filter((p) => p !== 'silence').length;
      expect(sentBefore).toBeGreaterThan(1);
      expect(copies.first).toBeGreaterThanOrEqual(sentBefore);
      expect((await wordsHeard(40)).map((p) => p.split('@')[0])).toEqual(Array.from({ length: 40 }, (_, n) => `${n}`));
      c.close();
    });

    it('a stop while the main thread waits for room: what waited is dropped, the next clip plays whole', async () => {
      const c = await connection();
      const sender = new WorkerSender();
      const first = new PassThrough({ objectMode: true });
      for (let n = 0; n < 40; n++) first.write(frame(n));
      const firstEvents = { started: vi.fn(), ended: vi.fn() };
      const playing = sender.play(c.connection, first, firstEvents);
      await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 20_000 });
      expect(playing.stop()).toBe(true);
      await vi.waitFor(() => expect(firstEvents.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      const before = payloads().filter((p) => p !== 'silence').length;
      const second = new PassThrough({ objectMode: true });
      for (let n = 100; n < 110; n++) second.write(frame(n));
      second.end();
      const secondEvents = { started: vi.fn(), ended: vi.fn() };
      sender.play(c.connection, second, secondEvents);
      await vi.waitFor(() => expect(secondEvents.ended).toHaveBeenCalledTimes(1), { timeout: 20_000 });
      const words = await wordsHeard(before + 10);
      expect(words.filter((p) => Number(p.split('@')[0]) >= 100)).toEqual(
        Array.from({ length: 10 }, (_, n) => `${100 + n}@1`),
      );
      c.close();
    });
  });

  describe('its start: a lead handed over at once, so that a pause of the main thread then is not heard', () => {
    it('a clip whose first frame comes alone, the rest just after (as an encoder gives them), hands the sender at least START_LEAD_PACKETS in its first run', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events } = play(c, 1);
      // The clip reads frame 0 in a microtask of its own; the rest come before any timer could run.
      await Promise.resolve();
      await Promise.resolve();
      for (let n = 1; n < 40; n++) stream.write(frame(n));
      stream.end();
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(events.ended).toHaveBeenCalledWith(undefined);
      expect(runs[0]?.first).toBe(0);
      expect(runs[0]?.packets.length).toBeGreaterThanOrEqual(START_LEAD_PACKETS);
      // Every frame once and in order, then the closing silence (a slot covered with silence between is timing).
      expect(await wordsHeard(40)).toEqual(Array.from({ length: 40 }, (_, n) => `${n}@1`));
      c.close();
    });

    it('without the start lead (the benchmark compares it), the first frame read goes over alone at once', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events } = play(c, 1, false);
      await Promise.resolve();
      await Promise.resolve();
      for (let n = 1; n < 40; n++) stream.write(frame(n));
      stream.end();
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(runs[0]?.first).toBe(0);
      expect(runs[0]?.packets.length).toBe(1);
      // Every frame once and in order, then the closing silence (a slot covered with silence between is timing).
      expect(await wordsHeard(40)).toEqual(Array.from({ length: 40 }, (_, n) => `${n}@1`));
      c.close();
    });

    it('a pause of the main thread as its start wait runs out is no stall: frames due by then are read first, and it starts with its lead (200 clips starting at once)', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events } = play(c, 2);
      // The clip reads its 2 frames in a microtask of its own, and its start wait begins.
      await Promise.resolve();
      await Promise.resolve();
      // The rest is due as a message (as a transcoding thread's reply is) while the main thread is held past the wait.
      const { port1, port2 } = new MessageChannel();
      port2.once('message', () => {
        for (let n = 2; n < 40; n++) stream.write(frame(n));
        stream.end();
        port2.close();
      });
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          port1.postMessage('frames');
          const until = performance.now() + START_WAIT_MS + 50;
          while (performance.now() < until) {
            // Held: the start wait's timer is due before the message is read.
          }
          resolve();
        }),
      );
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(runs[0]?.first).toBe(0);
      expect(runs[0]?.packets.length).toBeGreaterThanOrEqual(START_LEAD_PACKETS);
      // Every frame once and in order, then the closing silence (a slot covered with silence between is timing).
      expect(await wordsHeard(40)).toEqual(Array.from({ length: 40 }, (_, n) => `${n}@1`));
      c.close();
    });

    it('frames read while the start wait ran, fewer than the lead, are no stall: it waits on for the lead (a transcoder busy with clips starting at once)', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events } = play(c, 2);
      await Promise.resolve();
      await Promise.resolve();
      // 5 more frames come in the wait (due as a message when the main thread is free again), the rest just after.
      const { port1, port2 } = new MessageChannel();
      port2.once('message', () => {
        for (let n = 2; n < 7; n++) stream.write(frame(n));
        setImmediate(() => {
          for (let n = 7; n < 40; n++) stream.write(frame(n));
          stream.end();
        });
        port2.close();
      });
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          port1.postMessage('frames');
          const until = performance.now() + START_WAIT_MS + 50;
          while (performance.now() < until) {
            // Held: the start wait's timer is due before the message is read.
          }
          resolve();
        }),
      );
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(runs[0]?.first).toBe(0);
      expect(runs[0]?.packets.length).toBeGreaterThanOrEqual(START_LEAD_PACKETS);
      // Every frame once and in order, then the closing silence (a slot covered with silence between is timing).
      expect(await wordsHeard(40)).toEqual(Array.from({ length: 40 }, (_, n) => `${n}@1`));
      c.close();
    });

    it('a clip shorter than the lead is handed over whole, in one run, and played whole', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events, clip } = play(c, 5);
      stream.end();
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(runs.map((r) => [r.first, r.packets.length])).toEqual([[0, 5]]);
      await vi.waitFor(() => expect(received.length).toBe(5 + 5), { timeout: 20_000 });
      expect(payloads()).toEqual([...Array.from({ length: 5 }, (_, n) => `${n}@1`), ...Array(5).fill('silence')]);
      expect(clip.playedMs).toBe(5 * 20);
      c.close();
    });

    it('a stream that gives 3 frames and then nothing starts with those 3 once the start wait is over', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events } = play(c, 3);
      // No end: the stream stalls. The wait is bounded, not timed here: the first run is awaited as an event.
      await vi.waitFor(() => expect(runs.length).toBeGreaterThan(0), { timeout: 10_000 });
      expect(runs[0]?.first).toBe(0);
      expect(runs[0]?.packets.length).toBe(3);
      await vi.waitFor(() => expect(events.started).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      stream.write(frame(3));
      stream.end();
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(events.ended).toHaveBeenCalledWith(undefined);
      const heard = payloads().filter((p) => p !== 'silence');
      expect(heard).toEqual(['0@1', '1@1', '2@1', '3@1']);
      c.close();
    });

    it('stopped before the lead is handed over: ended with nothing handed, nothing sent', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { events, clip } = play(c, 3);
      // The clip reads its frames in a microtask of its own; the stop comes before any timer could run.
      await Promise.resolve();
      await Promise.resolve();
      expect(clip.stop()).toBe(true);
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(events.ended).toHaveBeenCalledWith(undefined);
      expect(events.started).not.toHaveBeenCalled();
      // Nothing arrives after the clip ended.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs).toEqual([]);
      expect(received).toEqual([]);
      expect(clip.playedMs).toBe(0);
      c.close();
    });

    it('a stream that fails during the start wait plays what it gave, then ends with its error', async () => {
      const c = await connection();
      const runs = handedRuns();
      const { stream, events, clip } = play(c, 3);
      const cut = new Error('the body was reset');
      await Promise.resolve();
      await Promise.resolve();
      stream.destroy(cut);
      await vi.waitFor(() => expect(events.ended).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(events.ended).toHaveBeenCalledWith(cut);
      expect(runs.map((r) => [r.first, r.packets.length])).toEqual([[0, 3]]);
      // Its three frames once each and in order, then the closing silence; a slot covered with silence before its
      // end came (a busy host: the error reaches the thread after its last frame went) is timing, as in wordsHeard.
      expect(await wordsHeard(3)).toEqual(['0@1', '1@1', '2@1']);
      expect(clip.playedMs).toBe(3 * 20);
      c.close();
    });
  });
});
