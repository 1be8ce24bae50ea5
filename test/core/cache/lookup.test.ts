import type * as fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import type * as fsp from 'node:fs/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { encodeEntry } from '../../../src/core/cache/entry-file.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { buildWav, sine } from '../audio/fixtures.ts';

// A lookup is one path (voice folder + key), asked asynchronously: every file system call the cache makes while
// it looks a key up is recorded here, so a directory listing or a synchronous stat per voice folder would show.
const calls = vi.hoisted(() => ({ list: [] as string[] }));

function counting<T extends object>(real: T, prefix: string): T {
  const wrapped: Record<string, unknown> = { ...(real as Record<string, unknown>) };
  for (const [name, value] of Object.entries(real)) {
    if (typeof value !== 'function' || !/^[a-z]/.test(name)) continue;
    wrapped[name] = (...args: unknown[]) => {
      calls.list.push(`${prefix}${name}`);
      return (value as (...a: unknown[]) => unknown).apply(real, args);
    };
  }
  return { ...wrapped, default: wrapped } as T;
}

vi.mock('node:fs', async (importOriginal) => counting(await importOriginal<typeof fs>(), 'fs.'));
vi.mock('node:fs/promises', async (importOriginal) => counting(await importOriginal<typeof fsp>(), 'fs/promises.'));

const VOICES = 200;
const voiceOf = (i: number) => `voice-${i}`;
const key = (text: string, voice: string) => partCacheKey({ kind: 'tts', text, voice, format: 'wav' }, text);
const audio = {
  format: 'wav' as const,
  audio: [buildWav(sine(300, 0.05, 8_000), { sampleRate: 8_000, channels: 1 })],
  packets: [Buffer.alloc(40)],
};

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-cache-lookup-'));
  // One entry in each of 200 voice folders, written as another process would (this cache never saw them).
  for (let i = 0; i < VOICES; i++) {
    await mkdir(path.join(dir, voiceOf(i)));
    const k = key(`line ${i}`, voiceOf(i));
    await writeFile(path.join(dir, voiceOf(i), `${k}.sbc`), encodeEntry(k, voiceOf(i), audio));
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The file system calls made while `lookup` runs (touches of a hit's mtime included). */
async function callsDuring(lookup: () => Promise<unknown>, cache: AudioCache): Promise<string[]> {
  calls.list.length = 0;
  await lookup();
  await cache.close();
  return [...calls.list];
}

describe('a cache lookup', () => {
  it('on a miss, asks for one path asynchronously: no listing, no stat of each voice folder, nothing synchronous', async () => {
    const cache = await AudioCache.open({ dir, maxBytes: 1e9, logger: silentLogger });
    // The 200 entries were indexed at open; the keys asked are nowhere, in memory or on disk.
    const viaHas = await callsDuring(() => cache.has(key('never said', voiceOf(7)), voiceOf(7)), cache);
    const viaGet = await callsDuring(() => cache.get(key('never said either', voiceOf(7)), voiceOf(7)), cache);
    for (const made of [viaHas, viaGet]) {
      expect(made.filter((c) => /readdir|opendir/.test(c))).toEqual([]);
      expect(made.filter((c) => c.endsWith('Sync'))).toEqual([]);
      expect(made.length).toBeLessThanOrEqual(1);
    }
  });

  it("finds another process's entry in its voice folder with one stat, and reads it whole", async () => {
    const cache = await AudioCache.open({ dir, maxBytes: 1e9, logger: silentLogger });
    const wanted = key('line 150', voiceOf(150));
    await writeFile(
      path.join(dir, voiceOf(150), `${key('later', voiceOf(150))}.sbc`),
      encodeEntry(key('later', voiceOf(150)), voiceOf(150), audio),
    );
    const made = await callsDuring(
      async () => expect(await cache.has(key('later', voiceOf(150)), voiceOf(150))).toBe(true),
      cache,
    );
    expect(made.filter((c) => /readdir|opendir|Sync$/.test(c))).toEqual([]);
    expect(made.filter((c) => c.endsWith('stat'))).toHaveLength(1);
    expect((await cache.get(wanted, voiceOf(150)))?.packets).toHaveLength(1);
  });
});
