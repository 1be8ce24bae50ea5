// Run as a child process by test/core/audio/jobs/audio-thread/opus-job-ended.test.ts: the audio worker's Opus
// job (a file made a voice message) on two minutes of WAV, ended by its thread's time limit while it encodes, at
// limits spread over the encoding (wherever a machine's speed puts it, some land inside an encoder's call). A thread ended inside a native addon's call aborts the whole process (no exception can be thrown into a
// stopping thread), so "alive" is printed only if the process outlives every end.
import { JobThread } from '../../src/core/audio/workers/job-thread.ts';
import { encodeWav16 } from '../../src/core/audio/codecs/wav-file.ts';
import type { AudioJob, AudioJobReply } from '../../src/core/audio/jobs/audio-thread/audio-thread-protocol.ts';

const RATE = 24_000;
const samples = new Float32Array(RATE * 120);
for (let i = 0; i < samples.length; i++) samples[i] = 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE);
const wav = encodeWav16([samples], RATE);

type Job = AudioJob extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;
const thread = new JobThread<Job, AudioJobReply>({
  worker: new URL('../../src/core/audio/jobs/audio-thread/audio-worker.ts', import.meta.url),
  maxWaiting: 4,
  timeoutMs: 60_000,
  idleMs: 60_000,
  unavailable: (_reason, message) => new Error(message),
  workerData: { workClass: 'short' },
});
const spec = {
  format: 'wav' as const,
  encoder: { complexity: 5, bitrate: 64_000, celtOnly: true, channels: 'source' as const },
};
let ended = 0;
for (const limitMs of [300, 600, 900, 1200, 1500]) {
  const file = new Uint8Array(wav).buffer;
  await thread.run({ kind: 'voice-message', file, spec }, [file], '', limitMs).then(
    () => console.log('finished within its limit'),
    () => (ended += 1),
  );
}
console.log(`alive after ${ended} ended`);
process.exit(0);
