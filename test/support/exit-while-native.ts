// Run as a child process by test/core/audio/jobs/transcode/exit-while-native.test.ts: a process that exits while
// its transcoding thread is inside the native Opus addon's calls (native-spin-transcode-worker.ts spins there). With
// `retired`, the pool is closed first, as src/bin/start.ts closes the process's pools before it exits; with
// `not-retired`, the process exits at once, which ends the thread's environment inside the addon's call and aborts
// the process ("FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw").
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeWav16 } from '../../src/core/audio/codecs/wav-file.ts';
import { TranscodePool } from '../../src/core/audio/jobs/transcode/transcode-pool.ts';

const RATE = 48_000;
const tone = new Float32Array(RATE / 5).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE));
const pool = new TranscodePool(1, {
  workerUrl: new URL('./native-spin-transcode-worker.ts', import.meta.url),
  batchDeadlineMs: 120_000,
});
const stream = pool.stream({
  format: 'wav',
  encoder: { complexity: 10, bitrate: 128_000, celtOnly: false, channels: 'stereo' },
});
stream.on('error', () => undefined);
stream.write(encodeWav16([tone], RATE));
await once(stream, 'data');
stream.write(Buffer.from('SPIN!'));
// The thread is in its loop of encoder calls from the next message on.
await sleep(300);
if (process.argv[2] === 'retired') await pool.close();
console.log('exiting');
process.exit(0);
