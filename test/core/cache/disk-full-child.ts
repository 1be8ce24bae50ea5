// A process whose files may not grow past a limit (run under `ulimit -f`), for test/core/cache/disk-full.test.ts.
// Usage: node disk-full-child.ts <dir>. Two caches on <dir> stand for this process and another one: the other
// fills the directory past this one's cap (which this one, having seen none of it, does not know), then this one
// writes an entry over the file-size limit. Prints one JSON line: what the failure left behind.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { encodeEntry } from '../../../src/core/cache/entry-file.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { buildWav, sine } from '../audio/fixtures.ts';

const [dir] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: disk-full-child.ts <dir>');
const VOICE = 'voice-b-en-f-01';
const key = (text: string) => partCacheKey({ kind: 'tts', text, voice: VOICE, format: 'wav' }, text);
// About 40 kB each: under the limit. The big one, about 160 kB, is over it.
const small = {
  format: 'wav' as const,
  audio: [buildWav(sine(300, 1.25, 16_000), { sampleRate: 16_000, channels: 1 })],
  packets: [Buffer.alloc(100)],
};
const big = {
  format: 'wav' as const,
  audio: [buildWav(sine(300, 10, 8_000), { sampleRate: 8_000, channels: 1 })],
  packets: [Buffer.alloc(100)],
};
const one = encodeEntry(key('s0'), VOICE, small).length;

// Room for the big entry (a cap below it would not even try), not for the other's five small ones.
const mine = await AudioCache.open({ dir, maxBytes: one * 4.3, logger: silentLogger, rescanAfterMs: 3_600_000 });
const other = await AudioCache.open({ dir, maxBytes: one * 100, logger: silentLogger });
for (let i = 0; i < 5; i++) await other.put(key(`s${i}`), VOICE, small, 0);
await other.close();
await mine.put(key('big'), VOICE, big, 0);
await mine.close();
const names = await readdir(path.join(dir, VOICE));
process.stdout.write(
  `${JSON.stringify({
    writeFailures: mine.writeFailures,
    temps: names.filter((n) => n.endsWith('.tmp')).length,
    entries: names.filter((n) => n.endsWith('.sbc')).length,
    bigWritten: names.includes(`${key('big')}.sbc`),
  })}\n`,
);
