// Another process on the same cache directory, for test/core/cache/shared-dir.test.ts.
// Usage: node cache-child.ts <dir> <name> <maxBytes> <count>. It writes <count> entries of its own and <count>
// shared ones (the other child writes the same keys), reading the other child's and the shared keys between its
// writes, with eviction running throughout (a small cap, a scan at every write). Its cache's warnings go to
// stdout as JSON lines; the last line is a summary.
import pino from 'pino';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { buildWav, sine } from '../audio/fixtures.ts';

const [dir, name, maxBytes, count] = process.argv.slice(2);
if (dir === undefined || name === undefined || maxBytes === undefined || count === undefined)
  throw new Error('usage: cache-child.ts <dir> <name> <maxBytes> <count>');
const other = name === 'a' ? 'b' : 'a';
const VOICE = 'voice-b-en-f-01';
const key = (text: string) => partCacheKey({ kind: 'tts', text, voice: VOICE, format: 'wav' }, text);
/** A whole entry whose audio and packets say which text they are for, so a mixed-up read would show. */
const entry = (text: string) => ({
  format: 'wav' as const,
  audio: [buildWav(sine(200 + (text.length % 50) * 10, 0.05, 8_000), { sampleRate: 8_000, channels: 1 })],
  packets: Array.from({ length: 20 }, (_, i) => Buffer.from(`${text}#${i}`.padEnd(120, '.'))),
});

const logger = pino({ level: 'warn' }, pino.destination(1));
const cache = await AudioCache.open({ dir, maxBytes: Number(maxBytes), logger, rescanAfterMs: 0 });
let hits = 0;
let misses = 0;
let wrong = 0;
const read = async (text: string) => {
  const got = await cache.get(key(text), VOICE);
  if (!got) return void misses++;
  hits++;
  if (got.packets?.[0]?.toString().startsWith(`${text}#0`) !== true) wrong++;
};
for (let i = 0; i < Number(count); i++) {
  await cache.put(key(`${name}-${i}`), VOICE, entry(`${name}-${i}`), 0);
  await cache.put(key(`shared-${i}`), VOICE, entry(`shared-${i}`), 0);
  if (await cache.has(key(`${other}-${i}`), VOICE)) await read(`${other}-${i}`);
  await read(`shared-${i}`);
  await read(`${other}-${Math.max(0, i - 1)}`);
}
await cache.close();
process.stdout.write(`${JSON.stringify({ summary: true, hits, misses, wrong })}\n`);
