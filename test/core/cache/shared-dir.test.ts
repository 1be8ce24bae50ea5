import { mkdtempSync, rmSync } from 'node:fs';
import { open as openFile, readdir, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CachedAudio } from '../../../src/core/cache/audio-fill.ts';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { encodeEntry, readEntryFile } from '../../../src/core/cache/entry-file.ts';
import { createLogger, silentLogger } from '../../../src/core/log.ts';
import { buildWav, sine } from '../audio/fixtures.ts';
import { runChild } from '../../support/run-child.ts';

// Several processes (shards) on one CACHE_DIR: two AudioCache instances stand for two processes here, and the
// last test runs two real ones.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-shared-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const VOICE = 'voice-b-en-f-01';
const key = (text: string) => partCacheKey({ kind: 'tts', text, voice: VOICE, format: 'wav' }, text);
const audio = (text: string): CachedAudio => ({
  format: 'wav',
  audio: [buildWav(sine(300, 0.1, 8_000), { sampleRate: 8_000, channels: 1 })],
  packets: Array.from({ length: 10 }, (_, i) => Buffer.from(`${text}#${i}`.padEnd(100, '.'))),
});
const ONE = encodeEntry(key('x'), VOICE, audio('x')).length; // every entry here is this size (texts of one length)
const open = (
  maxBytes: number,
  options: { rescanAfterMs?: number; logger?: Parameters<typeof AudioCache.open>[0]['logger'] } = {},
) => AudioCache.open({ dir, maxBytes, logger: silentLogger, ...options });
const fileOf = (text: string) => path.join(dir, VOICE, `${key(text)}.sbc`);
const onDisk = async () => (await readdir(path.join(dir, VOICE)).catch(() => [] as string[])).sort();
const age = async (...texts: string[]) => {
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const text of texts) await utimes(fileOf(text), anHourAgo, anHourAgo);
};

/** Warnings and errors a cache logs, as parsed lines. */
function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  const logger = createLogger({ level: 'warn', destination });
  return { logger, lines };
}

describe('two caches on one directory', () => {
  it("find each other's entries (a miss in memory looks on disk) and read them whole", async () => {
    const a = await open(1_000_000);
    const b = await open(1_000_000);
    await a.put(key('p1'), VOICE, audio('p1'), 0);
    expect(b.size.entries).toBe(0); // b opened before: its index has not seen it
    expect(await b.has(key('p1'), VOICE)).toBe(true);
    expect(b.size).toEqual({ entries: 1, bytes: ONE });
    expect((await b.get(key('p1'), VOICE))?.packets?.[3]?.toString()).toMatch(/^p1#3/);
    await a.put(key('p2'), VOICE, audio('p2'), 0);
    expect((await b.get(key('p2'), VOICE))?.packets).toHaveLength(10); // get() alone looks on disk too
    expect(await b.has(key('never'), VOICE)).toBe(false);
  });

  it('take an entry another removed as a miss, not an error, and log nothing', async () => {
    const { logger, lines } = capture();
    const a = await open(1_000_000);
    const b = await open(1_000_000, { logger });
    await a.put(key('gone'), VOICE, audio('gone'), 0);
    expect(await b.has(key('gone'), VOICE)).toBe(true);
    await a.purgeVoice(VOICE);
    expect(await b.get(key('gone'), VOICE)).toBeUndefined();
    expect(await b.has(key('gone'), VOICE)).toBe(false);
    expect(b.size).toEqual({ entries: 0, bytes: 0 });
    expect(lines).toEqual([]);
  });

  it("evict the machine's least recently used: a hit in one process keeps the entry from another's eviction", async () => {
    const a = await open(ONE * 2.5);
    const b = await open(ONE * 2.5);
    await a.put(key('old'), VOICE, audio('old'), 0);
    await a.put(key('new'), VOICE, audio('new'), 0);
    await age('old', 'new');
    // Only b uses 'old'; in a's memory 'old' is still its least recently used.
    expect(await b.get(key('old'), VOICE)).toBeDefined();
    await b.close(); // its touch is written
    await a.put(key('third'), VOICE, audio('third'), 0);
    expect(await onDisk()).toEqual([`${key('old')}.sbc`, `${key('third')}.sbc`].sort());
  });

  it('keep the total under the cap when each alone is under it: a scan counts every writer', async () => {
    const a = await open(ONE * 4.5);
    const b = await open(ONE * 4.5);
    for (const text of ['a1', 'a2', 'a3']) await a.put(key(text), VOICE, audio(text), 0);
    await age('a1', 'a2', 'a3');
    // b's own count passes the cap only at its fifth; by then the directory holds eight.
    for (const text of ['b1', 'b2', 'b3', 'b4']) await b.put(key(text), VOICE, audio(text), 0);
    expect(b.size.entries).toBe(4);
    expect((await onDisk()).length).toBe(7);
    await b.put(key('b5'), VOICE, audio('b5'), 0);
    const left = await onDisk();
    // Down to 90 % of the cap (four entries), a's older ones first; b's figures are the directory's.
    expect(left).toHaveLength(4);
    expect(left).not.toContain(`${key('a1')}.sbc`);
    expect(b.size).toEqual({ entries: 4, bytes: 4 * ONE });
    // a's own count says three, but with a short rescan interval its next write finds the truth too.
    const a2 = await open(ONE * 4.5, { rescanAfterMs: 0 });
    await a2.put(key('a4'), VOICE, audio('a4'), 0);
    expect(a2.size.bytes).toBeLessThanOrEqual(ONE * 4.5);
    expect(a2.size.bytes).toBe((await onDisk()).length * ONE);
  });

  it('never cut a read short: a reader holds the open file, which an eviction elsewhere only unlinks', async () => {
    const a = await open(ONE * 1.5);
    await a.put(key('read-me'), VOICE, audio('read-me'), 0);
    // A reader in another process has opened the entry (get() opens first, then reads) ...
    const reader = await openFile(fileOf('read-me'), 'r');
    // ... when this process's next write evicts it.
    await a.put(key('newcomer'), VOICE, audio('newcomer'), 0);
    expect(await stat(fileOf('read-me')).catch(() => undefined)).toBeUndefined();
    const read = await readEntryFile(reader, (await reader.stat()).size, key('read-me'));
    await reader.close();
    expect(read.packets?.[9]?.toString()).toMatch(/^read-me#9/);
  });
});

describe('two processes on one directory', () => {
  const CHILD = fileURLToPath(new URL('./cache-child.ts', import.meta.url));
  function run(
    name: string,
    maxBytes: number,
    count: number,
  ): Promise<{ code: number | null; lines: Array<Record<string, unknown>>; stderr: string }> {
    return runChild(process.execPath, [CHILD, dir, name, String(maxBytes), String(count)]).then(
      ({ code, stdout, stderr }) => ({
        code,
        stderr,
        lines: stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      }),
    );
  }

  it('write, read and evict at once without a torn read, a wrong entry, a warning or a leftover, and end under the cap', async () => {
    const childOne = encodeEntry(key('x'), VOICE, {
      format: 'wav',
      audio: [buildWav(sine(300, 0.05, 8_000), { sampleRate: 8_000, channels: 1 })],
      packets: Array.from({ length: 20 }, () => Buffer.alloc(120)),
    }).length;
    const cap = childOne * 12; // 160 entries written, 12 fit: eviction runs all the time in both
    const [a, b] = await Promise.all([run('a', cap, 40), run('b', cap, 40)]);
    for (const child of [a, b]) {
      expect(child.stderr).toBe('');
      expect(child.code).toBe(0);
      // Only the summary: no warning (unreadable, unusable, not written) from either cache.
      expect(child.lines).toHaveLength(1);
      expect(child.lines[0]).toMatchObject({ summary: true, wrong: 0 });
    }
    const summaries = [a, b].map((child) => child.lines[0] as { hits: number; misses: number });
    // Reads found entries the other process wrote (shared keys, the other's keys) while both ran.
    expect(summaries.reduce((sum, s) => sum + s.hits, 0)).toBeGreaterThan(0);

    const names = await onDisk();
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    let total = 0;
    for (const name of names) {
      const handle = await openFile(path.join(dir, VOICE, name), 'r');
      const { size } = await handle.stat();
      total += size;
      await expect(readEntryFile(handle, size, name.replace('.sbc', ''))).resolves.toBeDefined();
      await handle.close();
    }
    expect(names.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(cap);
  });
});
