import { describe, expect, it } from 'vitest';
import type { CachedAudio } from '../../src/cache/audio-fill.ts';
import { CorruptEntryError, decodeEntry, decodeEntryOffThread, encodeEntry, encodeEntryOffThread } from '../../src/cache/entry-file.ts';
import { buildWav, sine } from '../audio/fixtures.ts';

const entry = (packets: number): CachedAudio => ({
  format: 'wav',
  audio: buildWav(sine(440, 0.2, 8_000), { sampleRate: 8_000, channels: 1 }),
  packets: Array.from({ length: packets }, (_, i) => Buffer.from(`packet ${i}`.padEnd(80 + (i % 7), '.'))),
});

describe('cache entry files: hashed off the main thread by the cache, the same bytes either way', () => {
  it('writes the same file whether the checksum is taken here or on the thread pool, and reads it back whole', async () => {
    const audio = entry(250);
    const here = encodeEntry('k1', 'voice-a', audio);
    const off = await encodeEntryOffThread('k1', 'voice-a', audio);
    expect(off.equals(here)).toBe(true);
    const back = await decodeEntryOffThread(off, 'k1');
    expect(back.voice).toBe('voice-a');
    expect(back.audio.equals(audio.audio)).toBe(true);
    expect(back.packets?.map((p) => p.toString())).toEqual(audio.packets?.map((p) => p.toString()));
    expect(decodeEntry(here, 'k1').packets).toHaveLength(250);
  });

  it('reads packets as views of the file it read: no copy per packet on a hit', async () => {
    const file = encodeEntry('k2', 'voice-a', entry(50));
    const back = await decodeEntryOffThread(file, 'k2');
    for (const packet of back.packets ?? []) expect(packet.buffer).toBe(file.buffer);
    expect(back.audio.buffer).toBe(file.buffer);
  });

  it('refuses a file altered in one byte of its body, or read for another key, on either path', async () => {
    const file = encodeEntry('k3', 'voice-a', entry(20));
    const altered = Buffer.from(file);
    altered[altered.length - 3] = (altered[altered.length - 3] ?? 0) ^ 0xff;
    await expect(decodeEntryOffThread(altered, 'k3')).rejects.toThrow(/checksum mismatch/);
    expect(() => decodeEntry(altered, 'k3')).toThrow(CorruptEntryError);
    await expect(decodeEntryOffThread(file, 'another')).rejects.toThrow(/key does not match/);
  });

  it('keeps an entry without packets (a format the player cannot encode) as bytes only', async () => {
    const bytesOnly: CachedAudio = { format: 'wav', audio: entry(0).audio };
    const back = await decodeEntryOffThread(await encodeEntryOffThread('k4', 'voice-a', bytesOnly), 'k4');
    expect(back.packets).toBeUndefined();
    expect(back.audio.equals(bytesOnly.audio)).toBe(true);
  });
});
