// Run as a child process by test/core/audio/jobs/transcode/native-deadline.test.ts: the real transcoding pool,
// whose worker (native-spin-transcode-worker.ts) is made to spend its time inside the native Opus addon's calls and
// never answer, so that each stream's batch passes its deadline while the thread is most likely inside the addon. A
// thread ended from outside inside a node-addon-api call aborts the whole process ("FATAL ERROR:
// Error::ThrowAsJavaScriptException napi_throw", nodejs/node-addon-api#902), so "alive" is printed only if the
// process outlives every deadline. Each thread past its deadline is gone before the next round: ended at once, or
// left by itself after its call (counted as retiring meanwhile).
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeWav16 } from '../../src/core/audio/codecs/wav-file.ts';
import { TranscodePool } from '../../src/core/audio/jobs/transcode/transcode-pool.ts';

const ROUNDS = Number(process.argv[2] ?? 10);
/** Long enough for a thread to load beside two busy processes (at 500 ms, at load 9 every thread was still loading). */
const DEADLINE_MS = 2000;
/** A fifth of a second of tone: the stream's first packets, so that the thread has loaded before it spins. */
const RATE = 48_000;
const tone = new Float32Array(RATE / 5).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE));
const WAV = encodeWav16([tone], RATE);

const pool = new TranscodePool(1, {
  workerUrl: new URL('./native-spin-transcode-worker.ts', import.meta.url),
  batchDeadlineMs: DEADLINE_MS,
});
let deadlines = 0;
let leftByThemselves = 0;
let loadedLate = 0;
for (let round = 0; deadlines < ROUNDS && round < 3 * ROUNDS; round++) {
  const stream = pool.stream({
    format: 'wav',
    encoder: { complexity: 10, bitrate: 128_000, celtOnly: false, channels: 'stereo' },
  });
  const failed = once(stream, 'error') as Promise<[Error]>;
  stream.write(WAV);
  const first = await Promise.race([once(stream, 'data').then(() => true), failed.then(() => false)]);
  if (first) {
    stream.write(Buffer.from('SPIN!'));
    const [error] = await failed;
    if (!error.message.includes(`did not answer within ${DEADLINE_MS} ms`)) throw error;
    deadlines += 1;
    if (pool.retiring > 0) leftByThemselves += 1;
  } else {
    // A busy host kept the thread loading past the deadline: it never spun; not counted.
    loadedLate += 1;
  }
  // A thread told to retire inside the addon's call leaves when that call returns: microseconds, or however long a
  // busy host keeps it from a core (bounded by the test's own limit, not asserted).
  while (pool.retiring > 0) await sleep(5);
}
await pool.close();
console.log(`alive after ${deadlines} deadlines inside the encoder's loop (${loadedLate} threads loaded late)`);
console.log(`${leftByThemselves} threads left by themselves`);
process.exit(0);
