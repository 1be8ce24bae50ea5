// A scene's lines as one clip of the guild's queue (sceneClip): each line's pause as silent frames, then its parts'
// packets in turn, the first part asked for at once and each later one as the one before it begins; a part asked for
// and never played is let go.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sceneClip, type SceneClipLine } from '../../../src/core/order/scene-clip.ts';
import { SILENCE_FRAME } from '../../../src/core/voice/rtp-sender.ts';

/** What happened to the fake parts, in order: `fetch a`, `let go b`... */
type Log = string[];

const packet = (name: string) => Buffer.from(name);

interface FakePart {
  name: string;
  count: number;
  /** Its fetch settles only once released (`release`). */
  gated?: boolean;
  /** Its packets, then nothing more until destroyed (as they would come from the service). */
  endless?: boolean;
  /** Estimated seconds (estimateRequestSeconds); 0 by default. */
  estimate?: number;
}

/**
 * A scene of fake parts: its lines for sceneClip, its fetch, and each gated part's release and fetch under way. Its
 * parts' streams end when `signal` aborts, as a part's packets do when its order ends.
 */
function fakeScene(log: Log, lines: ReadonlyArray<{ pauseBefore: number; parts: FakePart[] }>, signal?: AbortSignal) {
  const parts = lines.flatMap((line) => line.parts);
  const releases = new Map<string, () => void>();
  const fetching = new Map<string, PromiseWithResolvers<void>>(parts.map((p) => [p.name, Promise.withResolvers()]));
  for (const part of parts)
    if (part.gated) {
      const gate = Promise.withResolvers<void>();
      releases.set(part.name, gate.resolve);
      fetching.set(`${part.name}:gate`, gate);
    }
  const fetch = async (index: number): Promise<Readable> => {
    const part = parts[index];
    if (!part) throw new Error(`no part ${index}`);
    log.push(`fetch ${part.name}`);
    fetching.get(part.name)?.resolve();
    await fetching.get(`${part.name}:gate`)?.promise;
    const packets = Array.from({ length: part.count }, (_, i) => packet(`${part.name}${i + 1}`));
    let sent = 0;
    const stream = new Readable({
      objectMode: true,
      ...(signal ? { signal } : {}),
      read() {
        if (sent < packets.length) this.push(packets[sent++]);
        else if (!part.endless) this.push(null);
      },
    });
    // Let go unread: asked for, never played.
    stream.once('close', () => {
      if (sent === 0 && !stream.readableEnded) log.push(`let go ${part.name}`);
    });
    return stream;
  };
  const sceneLines: SceneClipLine[] = lines.map((line) => ({
    pauseBefore: line.pauseBefore,
    estimates: line.parts.map((part) => part.estimate ?? 0),
  }));
  return {
    lines: sceneLines,
    fetch,
    release: (name: string) => releases.get(name)?.(),
    fetched: (name: string) => fetching.get(name)?.promise,
  };
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

const go = () => new AbortController().signal;

describe('sceneClip', () => {
  it("plays each line's pause as silent 20 ms frames, then its parts' packets in order", async () => {
    const log: Log = [];
    const scene = fakeScene(log, [
      {
        pauseBefore: 0.06,
        parts: [
          { name: 'a', count: 2 },
          { name: 'b', count: 1 },
        ],
      },
      { pauseBefore: 0.1, parts: [{ name: 'c', count: 3 }] },
      { pauseBefore: 0, parts: [{ name: 'd', count: 1 }] },
    ]);
    const read = await readAll(sceneClip(scene.lines, scene.fetch, go()).packets);
    // 0.06 s: 3 frames; 0.1 s: 5; none before a line without a pause, nor between the parts of one line.
    expect(read).toEqual(['·', '·', '·', 'a1', 'a2', 'b1', '·', '·', '·', '·', '·', 'c1', 'c2', 'c3', 'd1']);
    expect(read.filter((p) => p === '·')).toHaveLength(3 + 5);
    // Every part asked for once, in order; none let go unplayed.
    expect(log).toEqual(['fetch a', 'fetch b', 'fetch c', 'fetch d']);
  });

  it('rounds a pause to whole 20 ms frames', async () => {
    const frames = async (pauseBefore: number) => {
      const scene = fakeScene([], [{ pauseBefore, parts: [{ name: 'a', count: 1 }] }]);
      return (await readAll(sceneClip(scene.lines, scene.fetch, go()).packets)).filter((p) => p === '·').length;
    };
    expect(await frames(0)).toBe(0);
    expect(await frames(0.009)).toBe(0);
    expect(await frames(0.011)).toBe(1);
    expect(await frames(1)).toBe(50);
    expect(await frames(1.234)).toBe(62);
  });

  it('asks for the first part at once, and each later part once the one before it begins', async () => {
    const log: Log = [];
    const scene = fakeScene(log, [
      {
        pauseBefore: 0,
        parts: [
          { name: 'a', count: 1, gated: true },
          { name: 'b', count: 1, gated: true },
        ],
      },
      { pauseBefore: 0.02, parts: [{ name: 'c', count: 1 }] },
    ]);
    const clip = sceneClip(scene.lines, scene.fetch, go());
    expect(log).toEqual(['fetch a']);
    const iterator = clip.packets[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = nextPacket(iterator);
    // a is still being fetched: b is not wanted yet.
    await scene.fetched('a');
    expect(log).toEqual(['fetch a']);
    scene.release('a');
    expect(await first).toBe('a1');
    // b is asked for as a begins.
    expect(log).toEqual(['fetch a', 'fetch b']);
    const second = nextPacket(iterator);
    scene.release('b');
    expect(await second).toBe('b1');
    expect(await nextPacket(iterator)).toBe('·');
    expect(await nextPacket(iterator)).toBe('c1');
    expect(await nextPacket(iterator)).toBeUndefined();
    expect(log).toEqual(['fetch a', 'fetch b', 'fetch c']);
  });

  it('lets go of the part asked for, and asks for no other, when destroyed before it was read', async () => {
    const log: Log = [];
    const scene = fakeScene(log, [
      {
        pauseBefore: 0,
        parts: [
          { name: 'a', count: 1 },
          { name: 'b', count: 1 },
        ],
      },
      { pauseBefore: 1, parts: [{ name: 'c', count: 1 }] },
    ]);
    const clip = sceneClip(scene.lines, scene.fetch, go());
    const closed = once(clip.packets, 'close');
    clip.packets.destroy();
    await closed;
    await expect.poll(() => log).toEqual(['fetch a', 'let go a']);
    // Once only.
    clip.packets.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['fetch a', 'let go a']);
  });

  it('lets go of the part asked for ahead, and asks for no later one, when its stream is destroyed during a pause', async () => {
    const log: Log = [];
    const scene = fakeScene(log, [
      { pauseBefore: 0, parts: [{ name: 'a', count: 2 }] },
      {
        pauseBefore: 2,
        parts: [
          { name: 'b', count: 1 },
          { name: 'c', count: 1 },
        ],
      },
      { pauseBefore: 0.5, parts: [{ name: 'd', count: 1 }] },
    ]);
    const { packets: stream } = sceneClip(scene.lines, scene.fetch, go());
    const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    expect(await nextPacket(iterator)).toBe('a1');
    expect(await nextPacket(iterator)).toBe('a2');
    expect(await nextPacket(iterator)).toBe('·');
    const closed = once(stream, 'close');
    stream.destroy();
    await closed;
    await expect.poll(() => log).toEqual(['fetch a', 'fetch b', 'let go b']);
  });

  it('asks for nothing more once stopped, even when the part playing ends quietly instead of failing', async () => {
    const log: Log = [];
    const stop = new AbortController();
    const scene = fakeScene(log, [
      {
        pauseBefore: 0,
        parts: [
          { name: 'a', count: 1 },
          { name: 'b', count: 1 },
        ],
      },
      { pauseBefore: 0, parts: [{ name: 'c', count: 1 }] },
    ]);
    const iterator = sceneClip(scene.lines, scene.fetch, stop.signal).packets[
      Symbol.asyncIterator
    ]() as AsyncIterator<Buffer>;
    expect(await nextPacket(iterator)).toBe('a1');
    // Stopped while a's last packet was out: a's stream ends without an error.
    stop.abort();
    await expect(iterator.next()).rejects.toThrow();
    await expect.poll(() => log).toEqual(['fetch a', 'fetch b', 'let go b']);
    expect(log).not.toContain('fetch c');
  });

  it('lets go of the part asked for ahead when stopped while a part plays (its signal aborted, its stream destroyed)', async () => {
    const log: Log = [];
    const stop = new AbortController();
    const scene = fakeScene(
      log,
      [
        {
          pauseBefore: 0,
          parts: [
            { name: 'a', count: 1, endless: true },
            { name: 'b', count: 1 },
          ],
        },
        { pauseBefore: 0.5, parts: [{ name: 'c', count: 1 }] },
      ],
      stop.signal,
    );
    const { packets: stream } = sceneClip(scene.lines, scene.fetch, stop.signal);
    stream.on('error', () => undefined);
    const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    expect(await nextPacket(iterator)).toBe('a1');
    const closed = once(stream, 'close');
    // As the guild's player ends a clip early: the abort, then the stream destroyed.
    stop.abort();
    stream.destroy();
    await closed;
    await expect.poll(() => log).toEqual(['fetch a', 'fetch b', 'let go b']);
  });

  it('ends at its cap of seconds (20 ms frames, pauses counted): the part playing cut, the rest never asked for, and says so', async () => {
    const log: Log = [];
    // A cap of 0.1 s: 5 frames. a's 3 packets, c's pause of 0.04 s, then 2 of c's 4 packets fit.
    const scene = fakeScene(log, [
      { pauseBefore: 0, parts: [{ name: 'a', count: 3 }] },
      { pauseBefore: 0, parts: [{ name: 'b', count: 0 }] },
      { pauseBefore: 0.04, parts: [{ name: 'c', count: 4, endless: true }] },
      { pauseBefore: 0, parts: [{ name: 'd', count: 1 }] },
    ]);
    const clip = sceneClip(scene.lines, scene.fetch, go(), 0.1);
    expect(clip.cut()).toBeUndefined();
    const read = await readAll(clip.packets);
    expect(read).toEqual(['a1', 'a2', 'a3', '·', '·']);
    expect(clip.cut()).toEqual({ at: 0.1, lines: 2 });
    // c was asked for as b began (one ahead), then let go unplayed; d never asked for.
    await expect.poll(() => log).toEqual(['fetch a', 'fetch b', 'fetch c', 'let go c']);
  });

  it('requests no part ahead that the cap may cut away: near the cap, at the rate its audio has run, only in its turn', async () => {
    const log: Log = [];
    // A cap of 0.2 s: 10 frames. Each part is estimated at 0.06 s (3 frames) and lasts twice that.
    const scene = fakeScene(log, [
      { pauseBefore: 0, parts: [{ name: 'a', count: 6, estimate: 0.06 }] },
      { pauseBefore: 0, parts: [{ name: 'b', count: 6, endless: true, estimate: 0.06 }] },
      { pauseBefore: 0, parts: [{ name: 'c', count: 1, estimate: 0.06 }] },
    ]);
    const clip = sceneClip(scene.lines, scene.fetch, go(), 0.2);
    const read = await readAll(clip.packets);
    expect(read).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b1', 'b2', 'b3', 'b4']);
    expect(clip.cut()).toEqual({ at: 0.2, lines: 2 });
    // b was requested ahead as a began (0 + 3 × 2 frames < 10); c was not as b began (6 + 3 × 2.5 ≥ 10): never
    // requested.
    expect(log).toEqual(['fetch a', 'fetch b']);
  });

  it('cuts a part that plays past its cap, and is not cut when it ends on the cap exactly', async () => {
    const long = fakeScene([], [{ pauseBefore: 0, parts: [{ name: 'a', count: 10, endless: true }] }]);
    const longClip = sceneClip(long.lines, long.fetch, go(), 0.08);
    expect(await readAll(longClip.packets)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(longClip.cut()).toEqual({ at: 0.08, lines: 1 });

    const exact = fakeScene([], [{ pauseBefore: 0.02, parts: [{ name: 'a', count: 3 }] }]);
    const exactClip = sceneClip(exact.lines, exact.fetch, go(), 0.08);
    expect(await readAll(exactClip.packets)).toEqual(['·', 'a1', 'a2', 'a3']);
    expect(exactClip.cut()).toBeUndefined();
  });

  it('lets go of the first part when its stream is destroyed unread with its order already ended', async () => {
    // The guild's player destroys a clip unread when its order ended before its turn (a /skip, a failed join).
    const log: Log = [];
    const scene = fakeScene(log, [
      { pauseBefore: 0, parts: [{ name: 'a', count: 1 }] },
      { pauseBefore: 1, parts: [{ name: 'b', count: 1 }] },
    ]);
    const { packets: stream } = sceneClip(scene.lines, scene.fetch, AbortSignal.abort());
    const closed = once(stream, 'close');
    stream.destroy();
    await closed;
    await expect.poll(() => log).toEqual(['fetch a', 'let go a']);
  });
});
