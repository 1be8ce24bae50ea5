import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioFill, type CachedAudio } from '../../../src/core/cache/audio-fill.ts';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { buildWav, sine } from '../audio/fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = (maxBytes: number) => AudioCache.open({ dir, maxBytes, logger: silentLogger });
const key = (text: string, voice = 'voice-b-en-f-01') =>
  partCacheKey({ kind: 'tts', text, voice, format: 'wav' }, text);

/** A real part: 0.2 s of WAV at `hz`, with its Opus packets, as a fill makes it. */
/** A part heard to the end by one listener, as a played reply is: its packets are encoded and kept. */
async function part(hz: number): Promise<CachedAudio> {
  const body = new PassThrough();
  const fill = new AudioFill({ format: 'wav', body });
  body.end(buildWav(sine(hz, 0.2, 24_000), { sampleRate: 24_000, channels: 1 }));
  await fill.part().packets().toArray();
  return fill.complete;
}

describe('AudioFill', () => {
  const wav = (seconds: number) => buildWav(sine(440, seconds, 24_000), { sampleRate: 24_000, channels: 1 });

  it('encodes nothing when nobody listens (a file): the bytes alone are kept', async () => {
    const body = new PassThrough();
    const fill = new AudioFill({ format: 'wav', body });
    body.end(wav(0.5));
    const whole = await fill.complete;
    expect(Buffer.concat(whole.audio)).toEqual(wav(0.5));
    expect(whole.packets).toBeUndefined();
  });

  it('keeps the encoder only a few packets ahead of a listener that is not reading', async () => {
    const body = new PassThrough();
    const fill = new AudioFill({ format: 'wav', body });
    body.end(wav(3)); // 150 packets' worth, all arrived at once
    const listener = fill.part().packets();
    // Once paused, the encoder pushes nothing until a packet is read: the count below cannot move under us.
    await vi.waitFor(() => expect(fill.encoderWaiting).toBe(true), { timeout: 30_000, interval: 5 });
    const whileWaiting = fill.packetsEncoded;
    // Not 150: the encoder waits for the listener (10 ahead of what it has taken into its buffer).
    expect(whileWaiting).toBeGreaterThan(0);
    expect(whileWaiting).toBeLessThan(40);
    // Reading lets it go on, and it waits again a few packets further.
    for (let i = 0; i < 20; i++)
      if (listener.read() === null) await new Promise((resolve) => listener.once('readable', resolve));
    await vi.waitFor(() => expect(fill.encoderWaiting).toBe(true), { timeout: 30_000, interval: 5 });
    expect(fill.packetsEncoded).toBeGreaterThan(whileWaiting);
    expect(fill.packetsEncoded).toBeLessThan(20 + 40);
    listener.destroy();
    const whole = await fill.complete; // settles although nobody read to the end
    expect(whole.packets).toBeUndefined();
    expect(Buffer.concat(whole.audio).length).toBe(wav(3).length);
  });

  it('plays the whole part to a listener that comes after every listener before it left, the body still arriving', async () => {
    // A reply stopped (a /leave) while its body streams, and the same text asked for again at once: the second
    // request joins the same fill, and its listener must hear the part to its end, not what was encoded before
    // the first listener left (e2e voice-rights: 20 packets, then the sender's 15 s of nothing).
    const whole = wav(3);
    const heard = await new AudioFill({ format: 'wav', body: Readable.from([whole]) }).part().packets().toArray();
    const body = new PassThrough();
    const fill = new AudioFill({ format: 'wav', body });
    body.write(whole.subarray(0, whole.length / 2));
    const first = fill.part().packets();
    await vi.waitFor(() => expect(fill.encoderWaiting).toBe(true), { timeout: 30_000, interval: 5 });
    first.read();
    first.destroy();
    // Nobody listens now: its encoder stopped. Then a listener comes, and the rest of the body.
    const second = fill.part().packets();
    body.end(whole.subarray(whole.length / 2));
    await fill.complete;
    // A bound on a hang, not a figure: the packets of a 3 s part come within milliseconds once encoded.
    const packets = await Promise.race([
      second.toArray(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the listener got stuck')), 20_000)),
    ]);
    expect(packets.length).toBe(heard.length);
    expect(Buffer.concat(packets)).toEqual(Buffer.concat(heard));
  });
});

async function entryFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const voice of await readdir(dir))
    for (const name of await readdir(path.join(dir, voice))) out.push(path.join(voice, name));
  return out.sort();
}

describe('AudioCache', () => {
  it('gives back exactly what was put, packets included, after a restart', async () => {
    const audio = await part(440);
    expect(audio.packets?.length).toBeGreaterThan(5);
    const cache = await open(10_000_000);
    await cache.put(key('a'), 'voice-b-en-f-01', audio, cache.generation('voice-b-en-f-01'));
    await cache.close();
    const reopened = await open(10_000_000);
    expect(await reopened.has(key('a'), 'voice-b-en-f-01')).toBe(true);
    const back = await reopened.get(key('a'), 'voice-b-en-f-01');
    expect(Buffer.concat(back?.audio ?? [])).toEqual(Buffer.concat(audio.audio));
    expect(back?.packets?.map((p) => p.toString('hex'))).toEqual(audio.packets?.map((p) => p.toString('hex')));
  });

  it('keeps under its cap by evicting the least recently used, and remembers use order across a restart', async () => {
    const audio = await part(440);
    const probe = await open(10_000_000);
    await probe.put(key('size'), 'voice-b-en-f-01', audio, 0);
    const one = probe.size.bytes;
    await probe.purgeVoice('voice-b-en-f-01');

    // Room for two entries, not three.
    const cache = await open(one * 2 + one / 2);
    await cache.put(key('a'), 'voice-b-en-f-01', audio, cache.generation('voice-b-en-f-01'));
    await cache.put(key('b'), 'voice-b-en-f-01', audio, cache.generation('voice-b-en-f-01'));
    // Make 'a' the more recent: both entries are dated an hour back first, so a's touch moves it past b's on any
    // file system clock, with no wait for the clock to tick.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const file of await entryFiles()) await utimes(path.join(dir, file), anHourAgo, anHourAgo);
    expect(await cache.get(key('a'), 'voice-b-en-f-01')).toBeDefined();
    await cache.close();

    const reopened = await open(one * 2 + one / 2);
    await reopened.put(key('c'), 'voice-b-en-f-01', audio, reopened.generation('voice-b-en-f-01'));
    expect(await reopened.has(key('b'), 'voice-b-en-f-01')).toBe(false);
    expect(await reopened.has(key('a'), 'voice-b-en-f-01')).toBe(true);
    expect(await reopened.has(key('c'), 'voice-b-en-f-01')).toBe(true);
    expect(reopened.size.bytes).toBeLessThanOrEqual(one * 2 + one / 2);
    expect(await entryFiles()).toHaveLength(2);
  });

  it("treats a damaged entry as a miss and deletes it; removes a dead process's half-written file at open, not a write under way", async () => {
    const audio = await part(330);
    const cache = await open(10_000_000);
    await cache.put(key('a'), 'voice-b-en-f-01', audio, 0);
    await cache.put(key('b'), 'voice-b-en-f-01', audio, 0);
    const [fileA, fileB] = (await entryFiles()).map((f) => path.join(dir, f));
    const bytes = await readFile(fileA ?? '');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 10) ^ 0xff, bytes.length - 10); // one flipped byte in the packets
    await writeFile(fileA ?? '', bytes);
    await writeFile(`${fileB}.0123.tmp`, bytes.subarray(0, 50));
    // Left 20 minutes ago by a process that died mid-write; the other one is another process's write under way.
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
    await utimes(`${fileB}.0123.tmp`, twentyMinutesAgo, twentyMinutesAgo);
    await writeFile(`${fileB}.4567.tmp`, bytes.subarray(0, 50));
    await cache.close();

    const reopened = await open(10_000_000);
    const damagedKey = path.basename(fileA ?? '', '.sbc');
    expect(await reopened.get(damagedKey, 'voice-b-en-f-01')).toBeUndefined();
    expect(await reopened.has(damagedKey, 'voice-b-en-f-01')).toBe(false);
    expect(await entryFiles()).toEqual([
      path.join('voice-b-en-f-01', path.basename(fileB ?? '')),
      path.join('voice-b-en-f-01', `${path.basename(fileB ?? '')}.4567.tmp`),
    ]);
  });

  it("purges one voice's entries, and a fill that began before the purge cannot put its entry back", async () => {
    const audio = await part(220);
    const cache = await open(10_000_000);
    const before = cache.generation('clone_abc');
    await cache.put(key('x', 'clone_abc'), 'clone_abc', audio, before);
    await cache.put(key('y'), 'voice-b-en-f-01', audio, 0);
    expect(await cache.purgeVoice('clone_abc')).toBe(1);
    await cache.put(key('z', 'clone_abc'), 'clone_abc', audio, before);
    expect(await cache.has(key('z', 'clone_abc'), 'clone_abc')).toBe(false);
    expect(await stat(path.join(dir, 'clone_abc')).catch(() => undefined)).toBeUndefined();
    expect(await cache.has(key('y'), 'voice-b-en-f-01')).toBe(true);
  });
});
