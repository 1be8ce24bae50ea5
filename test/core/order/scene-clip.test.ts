// A scene's lines as one clip of the guild's queue (sceneClip): each line's pause as silent frames, then its parts'
// packets in turn, each part prepared when the one before it opens; what was never opened is released.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sceneClip, type ScenePart } from '../../../src/core/order/scene-clip.ts';
import { SILENCE_FRAME } from '../../../src/core/voice/rtp-sender.ts';

/** What happened to the fake parts, in order: `prepare a`, `open a`, `dispose b`... */
type Log = string[];

const packet = (name: string) => Buffer.from(name);

interface FakePart extends ScenePart {
  /** Settles the part's open() (when made with `gated`). */
  release?: () => void;
  /** Settles when open() is called. */
  opening: Promise<void>;
}

/** A part whose open() gives `packets` (the part's name and an index), logging what is done with it. */
function fakePart(
  log: Log,
  name: string,
  count: number,
  options: { gated?: boolean; endless?: boolean } = {},
): FakePart {
  let release: (() => void) | undefined;
  const gate = options.gated ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const opening = Promise.withResolvers<void>();
  const part: FakePart = {
    opening: opening.promise,
    label: name,
    prepare: () => log.push(`prepare ${name}`),
    dispose: () => log.push(`dispose ${name}`),
    open: async (signal) => {
      log.push(`open ${name}`);
      opening.resolve();
      await gate;
      const packets = Array.from({ length: count }, (_, i) => packet(`${name}${i + 1}`));
      if (!options.endless) return Readable.from(packets, { objectMode: true });
      // Packets as they would come from the service: these, then nothing more until aborted.
      const stream = new Readable({ objectMode: true, read: () => undefined, signal });
      for (const p of packets) stream.push(p);
      return stream;
    },
  };
  if (release) part.release = release;
  return part;
}

async function readAll(stream: Readable): Promise<string[]> {
  const read: string[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>)
    read.push(chunk === SILENCE_FRAME ? '·' : chunk.toString());
  return read;
}

/** The next packet the stream gives, as readAll names it. */
async function nextPacket(iterator: AsyncIterator<Buffer>): Promise<string | undefined> {
  const { value, done } = await iterator.next();
  if (done) return undefined;
  return value === SILENCE_FRAME ? '·' : value.toString();
}

describe('sceneClip', () => {
  it("plays each line's pause as silent 20 ms frames, then its parts' packets in order", async () => {
    const log: Log = [];
    const clip = sceneClip('scene', [
      { pauseBefore: 0.06, parts: [fakePart(log, 'a', 2), fakePart(log, 'b', 1)] },
      { pauseBefore: 0.1, parts: [fakePart(log, 'c', 3)] },
      { pauseBefore: 0, parts: [fakePart(log, 'd', 1)] },
    ]);
    const read = await readAll(await clip.open(new AbortController().signal));
    // 0.06 s: 3 frames; 0.1 s: 5; none before a line without a pause, nor between the parts of one line.
    expect(read).toEqual(['·', '·', '·', 'a1', 'a2', 'b1', '·', '·', '·', '·', '·', 'c1', 'c2', 'c3', 'd1']);
    expect(read.filter((p) => p === '·')).toHaveLength(3 + 5);
    // Every part opened once, in order; none disposed (an opened part's stream is its own release).
    expect(log.filter((entry) => entry.startsWith('open'))).toEqual(['open a', 'open b', 'open c', 'open d']);
    expect(log.filter((entry) => entry.startsWith('dispose'))).toEqual([]);
  });

  it('rounds a pause to whole 20 ms frames', async () => {
    const frames = async (pauseBefore: number) => {
      const clip = sceneClip('scene', [{ pauseBefore, parts: [fakePart([], 'a', 1)] }]);
      return (await readAll(await clip.open(new AbortController().signal))).filter((p) => p === '·').length;
    };
    expect(await frames(0)).toBe(0);
    expect(await frames(0.009)).toBe(0);
    expect(await frames(0.011)).toBe(1);
    expect(await frames(1)).toBe(50);
    expect(await frames(1.234)).toBe(62);
  });

  it('prepares only the first part when prepared, and each later part once the one before it is opened', async () => {
    const log: Log = [];
    const a = fakePart(log, 'a', 1, { gated: true });
    const b = fakePart(log, 'b', 1, { gated: true });
    const c = fakePart(log, 'c', 1);
    const clip = sceneClip('scene', [
      { pauseBefore: 0, parts: [a, b] },
      { pauseBefore: 0.02, parts: [c] },
    ]);
    clip.prepare?.();
    expect(log).toEqual(['prepare a']);
    const iterator = (await clip.open(new AbortController().signal))[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = nextPacket(iterator);
    // a is being opened: b is not wanted yet.
    await a.opening;
    expect(log).toEqual(['prepare a', 'open a']);
    a.release?.();
    expect(await first).toBe('a1');
    // b's open may follow at once (the stream reads ahead), never before it was prepared.
    expect(log.slice(0, 3)).toEqual(['prepare a', 'open a', 'prepare b']);
    const second = nextPacket(iterator);
    await b.opening;
    expect(log).toEqual(['prepare a', 'open a', 'prepare b', 'open b']);
    b.release?.();
    expect(await second).toBe('b1');
    expect(await nextPacket(iterator)).toBe('·');
    expect(await nextPacket(iterator)).toBe('c1');
    expect(await nextPacket(iterator)).toBeUndefined();
    expect(log).toEqual(['prepare a', 'open a', 'prepare b', 'open b', 'prepare c', 'open c']);
  });

  it('disposes every part, and opens none, when disposed before it was opened', () => {
    const log: Log = [];
    const clip = sceneClip('scene', [
      { pauseBefore: 0, parts: [fakePart(log, 'a', 1), fakePart(log, 'b', 1)] },
      { pauseBefore: 1, parts: [fakePart(log, 'c', 1)] },
    ]);
    clip.prepare?.();
    clip.dispose?.();
    expect(log).toEqual(['prepare a', 'dispose a', 'dispose b', 'dispose c']);
    // Once only.
    clip.dispose?.();
    expect(log.filter((entry) => entry.startsWith('dispose'))).toHaveLength(3);
  });

  it('disposes the parts never opened, and never opens them, when its stream is destroyed during a pause', async () => {
    const log: Log = [];
    const clip = sceneClip('scene', [
      { pauseBefore: 0, parts: [fakePart(log, 'a', 2)] },
      { pauseBefore: 2, parts: [fakePart(log, 'b', 1), fakePart(log, 'c', 1)] },
      { pauseBefore: 0.5, parts: [fakePart(log, 'd', 1)] },
    ]);
    const stream = await clip.open(new AbortController().signal);
    const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    expect(await nextPacket(iterator)).toBe('a1');
    expect(await nextPacket(iterator)).toBe('a2');
    expect(await nextPacket(iterator)).toBe('·');
    const closed = once(stream, 'close');
    stream.destroy();
    await closed;
    expect(log).toEqual(['open a', 'prepare b', 'dispose b', 'dispose c', 'dispose d']);
  });

  it('opens and prepares nothing more once stopped, even when the part playing ends quietly instead of failing', async () => {
    const log: Log = [];
    const stop = new AbortController();
    const clip = sceneClip('scene', [
      { pauseBefore: 0, parts: [fakePart(log, 'a', 1), fakePart(log, 'b', 1)] },
      { pauseBefore: 0, parts: [fakePart(log, 'c', 1)] },
    ]);
    const iterator = (await clip.open(stop.signal))[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    expect(await nextPacket(iterator)).toBe('a1');
    // Stopped while a's last packet was out: a's stream ends without an error.
    stop.abort();
    await expect(iterator.next()).rejects.toThrow();
    expect(log.filter((entry) => entry.startsWith('open'))).toEqual(['open a']);
    expect(log).not.toContain('prepare c');
    expect(log).toContain('dispose b');
    expect(log).toContain('dispose c');
  });

  it('disposes the parts never opened when stopped while a part plays (its signal aborted, its stream destroyed)', async () => {
    const log: Log = [];
    const clip = sceneClip('scene', [
      { pauseBefore: 0, parts: [fakePart(log, 'a', 1, { endless: true }), fakePart(log, 'b', 1)] },
      { pauseBefore: 0.5, parts: [fakePart(log, 'c', 1)] },
    ]);
    const stop = new AbortController();
    const stream = await clip.open(stop.signal);
    stream.on('error', () => undefined);
    const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    expect(await nextPacket(iterator)).toBe('a1');
    const closed = once(stream, 'close');
    // As the guild's player ends a clip early: the abort, then the stream destroyed.
    stop.abort();
    stream.destroy();
    await closed;
    expect(log).toEqual(['open a', 'prepare b', 'dispose b', 'dispose c']);
  });

  it('ends at its cap of seconds (20 ms frames, pauses counted): the part playing cut, the rest never opened, and says so', async () => {
    const log: Log = [];
    // A cap of 0.1 s: 5 frames. a's 3 packets, c's pause of 0.04 s, then 2 of c's 4 packets fit.
    const clip = sceneClip(
      'scene',
      [
        { pauseBefore: 0, parts: [fakePart(log, 'a', 3)] },
        { pauseBefore: 0, parts: [fakePart(log, 'b', 0)] },
        { pauseBefore: 0.04, parts: [fakePart(log, 'c', 4, { endless: true })] },
        { pauseBefore: 0, parts: [fakePart(log, 'd', 1)] },
      ],
      0.1,
    );
    expect(clip.cut()).toBeUndefined();
    const read = await readAll(await clip.open(new AbortController().signal));
    expect(read).toEqual(['a1', 'a2', 'a3', '·', '·']);
    expect(clip.cut()).toEqual({ at: 0.1, lines: 2 });
    expect(log.filter((entry) => entry.startsWith('open'))).toEqual(['open a', 'open b']);
    // c was prepared as b began (requested one ahead), then let go with d: neither is opened.
    expect(log).toContain('dispose c');
    expect(log).toContain('dispose d');
  });

  it('requests no part ahead that the cap may cut away: near the cap, at the rate its audio has run, only in its turn', async () => {
    const log: Log = [];
    // A cap of 0.2 s: 10 frames. Each part is estimated at 0.06 s (3 frames) and lasts twice that.
    const clip = sceneClip(
      'scene',
      [
        { pauseBefore: 0, parts: [fakePart(log, 'a', 6)], estimates: [0.06] },
        { pauseBefore: 0, parts: [fakePart(log, 'b', 6, { endless: true })], estimates: [0.06] },
        { pauseBefore: 0, parts: [fakePart(log, 'c', 1)], estimates: [0.06] },
      ],
      0.2,
    );
    const read = await readAll(await clip.open(new AbortController().signal));
    expect(read).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b1', 'b2', 'b3', 'b4']);
    expect(clip.cut()).toEqual({ at: 0.2, lines: 2 });
    // b was requested ahead as a began (0 + 3 × 2 frames < 10); c was not as b began (6 + 3 × 2.5 ≥ 10): never
    // requested, only let go.
    expect(log).toEqual(['open a', 'prepare b', 'open b', 'dispose c']);
  });

  it('cuts a part that plays past its cap, and is not cut when it ends on the cap exactly', async () => {
    const long = sceneClip('scene', [{ pauseBefore: 0, parts: [fakePart([], 'a', 10, { endless: true })] }], 0.08);
    expect(await readAll(await long.open(new AbortController().signal))).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(long.cut()).toEqual({ at: 0.08, lines: 1 });

    const exact = sceneClip('scene', [{ pauseBefore: 0.02, parts: [fakePart([], 'a', 3)] }], 0.08);
    expect(await readAll(await exact.open(new AbortController().signal))).toEqual(['·', 'a1', 'a2', 'a3']);
    expect(exact.cut()).toBeUndefined();
  });

  it('disposes every part when its stream is destroyed before a packet was read', async () => {
    // The guild's player destroys an opened clip unread when the clip ended while opening (a /skip, a failed join).
    const log: Log = [];
    const clip = sceneClip('scene', [
      { pauseBefore: 0, parts: [fakePart(log, 'a', 1)] },
      { pauseBefore: 1, parts: [fakePart(log, 'b', 1)] },
    ]);
    clip.prepare?.();
    const stream = await clip.open(AbortSignal.abort());
    const closed = once(stream, 'close');
    stream.destroy();
    await closed;
    expect(log).toEqual(['prepare a', 'dispose a', 'dispose b']);
  });
});
