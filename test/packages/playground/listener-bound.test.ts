// A page listening to the voice channel that never reads must not grow the playground's memory: its queue is measured
// (the bytes written to it and not yet taken by its socket) while heard audio floods in, and it is dropped at its
// bound, while a page that reads keeps hearing. The page server runs for real over HTTP; what the local Discord hears
// is played into it through its onHeard tap, faster than any voice, so the bound is reached in a moment.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeDiscord } from '@saybot/local-discord';
import { BOUNDS } from '@saybot/playground/bounds.ts';
import { startPage, type Page } from '@saybot/playground/web.ts';

type Tap = (pcm: Int16Array) => void;

describe('the playground page: a listener that never reads', () => {
  const taps = new Set<Tap>();
  const heard = { onHeard: (_guildId: string, tap: Tap) => (taps.add(tap), () => taps.delete(tap)) };
  let page: Page;
  let port: number;
  beforeAll(async () => {
    page = await startPage({
      discord: heard as unknown as FakeDiscord,
      saybot: { stopped: () => undefined },
      dashboardUrl: 'http://127.0.0.1:9',
      speech: 'tones',
      host: '127.0.0.1',
      port: 0,
    });
    port = Number(new URL(page.url).port);
  });
  afterAll(async () => {
    await page?.close();
  });

  /** A listener on a raw socket; `reads` false: it sends its request and never reads a byte of the answer. */
  async function listener(reads: boolean): Promise<{ socket: Socket; received: () => number; closed: Promise<void> }> {
    const socket = connect(port, '127.0.0.1');
    let received = 0;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /api/audio HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    if (reads) socket.on('data', (chunk: Buffer) => (received += chunk.length));
    else socket.pause();
    return { socket, received: () => received, closed };
  }

  it('is dropped at its 512 KiB bound; what it queued never passed it; a page that reads hears on', async () => {
    const stalled = await listener(false);
    const reading = await listener(true);
    await expect.poll(() => page.listening().length).toBe(2);
    // A second of 48 kHz stereo at a time: 96 KB of base64 per event for each listener.
    const second = new Int16Array(48_000 * 2).map((_, i) => Math.round(8000 * Math.sin(i / 20)));
    let most = 0;
    let pushed = 0;
    for (; pushed < 2000 && page.listening().length === 2; pushed++) {
      for (const tap of [...taps]) tap(second);
      most = Math.max(most, ...page.listening());
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(page.listening()).toHaveLength(1);
    expect(most).toBeLessThanOrEqual(BOUNDS.listenerBytes);
    // The queue was really measured: it reached most of the bound before the listener was dropped.
    expect(most).toBeGreaterThan(BOUNDS.listenerBytes / 2);
    // The server ended it: reading again, the stalled page finds its stream closed.
    stalled.socket.resume();
    await stalled.closed;
    const before = reading.received();
    for (const tap of [...taps]) tap(second);
    await expect.poll(() => reading.received()).toBeGreaterThan(before);
    reading.socket.destroy();
    stalled.socket.destroy();
    await expect.poll(() => page.listening().length).toBe(0);
  });
});
