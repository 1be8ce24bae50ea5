// The one-job-at-a-time worker thread is fair between owners (servers): one server's long queue of renders never
// holds up another server's file, and the audio and clip threads bound what one server may have waiting.
import { afterEach, describe, expect, it } from 'vitest';
import {
  joinPartsOffThread,
  MAX_AUDIO_JOBS_PER_GUILD,
} from '../../../../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { AudioBusyError, JobUnavailableError } from '../../../../src/core/audio/errors.ts';
import { JobThread } from '../../../../src/core/audio/workers/job-thread.ts';
import {
  ClipCheckUnavailableError,
  MAX_CLIPS_PER_GUILD,
  measureClipOffThread,
} from '../../../../src/core/audio/jobs/clip-check/clip-thread.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

const ECHO = new URL('../../../support/echo-job-worker.ts', import.meta.url);
const SLOW_LOAD = new URL('../../../support/slow-load-job-worker.ts', import.meta.url);
const CPU = new URL('../../../support/cpu-job-worker.ts', import.meta.url);

let thread: JobThread<{ label: string }, { id: number; label: string }> | undefined;
afterEach(() => {
  // An idle worker ends by itself (idleMs): nothing to close.
  thread = undefined;
});

describe('JobThread', () => {
  it("takes owners' jobs in turn: a second server's one job runs right after the first server's job under way", async () => {
    thread = new JobThread({
      worker: ECHO,
      maxWaiting: 64,
      timeoutMs: 10_000,
      idleMs: 10,
      unavailable: (reason, message) => new JobUnavailableError(reason, message),
    });
    const done: string[] = [];
    const run = (owner: string, label: string) =>
      thread?.run({ label }, [], owner).then((reply) => done.push(reply.label));
    const jobs = Array.from({ length: 10 }, (_, i) => run('guild-a', `a${i + 1}`));
    jobs.push(run('guild-b', 'b1'));
    await Promise.all(jobs);
    // a1 was under way; b1 is next, then the rest of guild-a's (one queue, first come first served, ran it 11th).
    expect(done.slice(0, 3)).toEqual(['a1', 'b1', 'a2']);
    expect(done).toHaveLength(11);
  });

  it("a new thread's start and its module's first load are not counted in its first job's limit (a slow host)", async () => {
    // The load (CPU time of its own) is longer than the limit; the job itself answers at once, and a second is a
    // bound for that answer beside a busy run (200 ms was passed once, both cores full).
    thread = new JobThread({
      worker: SLOW_LOAD,
      workerData: { loadMs: 1_500 },
      maxWaiting: 4,
      timeoutMs: 1_000,
      idleMs: 10,
      unavailable: (reason, message) => new JobUnavailableError(reason, message),
    });
    await expect(thread.run({ label: 'first' })).resolves.toMatchObject({ label: 'first' });
  });

  it('a job that overruns its own limit fails as a timeout (the member is told it is busy), not as a crash', async () => {
    const cpu = new JobThread<{ label: string; cpuMs: number }, { id: number; label: string }>({
      worker: CPU,
      maxWaiting: 4,
      timeoutMs: 200,
      idleMs: 10,
      unavailable: (reason, message) => new JobUnavailableError(reason, message),
    });
    const error = await cpu.run({ label: 'long', cpuMs: 5_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JobUnavailableError);
    expect(error).toMatchObject({ reason: 'timeout' });
  });
});

describe('the audio thread', () => {
  it(`refuses a server's job past ${MAX_AUDIO_JOBS_PER_GUILD} under way or waiting, while another server's still runs`, async () => {
    const wav = encodeWav(toneSamples({ pitchHz: 220, seconds: 0.2, amplitude: 0.5, sampleRate: 24_000 }), 24_000);
    const mine = Array.from({ length: MAX_AUDIO_JOBS_PER_GUILD + 1 }, () =>
      joinPartsOffThread([wav, wav], 'wav', { guild: 'guild-a' }).then(
        () => 'joined',
        (error: unknown) => error,
      ),
    );
    const theirs = joinPartsOffThread([wav], 'wav', { guild: 'guild-b' });
    const results = await Promise.all(mine);
    expect(results.filter((r) => r === 'joined')).toHaveLength(MAX_AUDIO_JOBS_PER_GUILD);
    const refused = results.find((r) => r !== 'joined');
    expect(refused).toBeInstanceOf(AudioBusyError);
    expect(refused).toMatchObject({ reason: 'owner-busy', limit: MAX_AUDIO_JOBS_PER_GUILD });
    expect((await theirs).seconds).toBeCloseTo(0.2, 2);
    // Its share is given back as its jobs end.
    expect((await joinPartsOffThread([wav], 'wav', { guild: 'guild-a' })).seconds).toBeCloseTo(0.2, 2);
  });
});

describe('the clip thread', () => {
  it(`refuses a server's clip past ${MAX_CLIPS_PER_GUILD} under way or waiting, while another server's is still measured`, async () => {
    const wav = () => encodeWav(toneSamples({ pitchHz: 220, seconds: 4, amplitude: 0.5, sampleRate: 24_000 }), 24_000);
    const mine = Array.from({ length: MAX_CLIPS_PER_GUILD + 3 }, () =>
      measureClipOffThread(wav(), 60, 'guild-a').then(
        () => 'measured',
        (error: unknown) => error,
      ),
    );
    const theirs = measureClipOffThread(wav(), 60, 'guild-b');
    const results = await Promise.all(mine);
    expect(results.filter((r) => r === 'measured')).toHaveLength(MAX_CLIPS_PER_GUILD);
    const refused = results.find((r) => r !== 'measured');
    expect(refused).toBeInstanceOf(ClipCheckUnavailableError);
    expect(refused).toMatchObject({ reason: 'owner-busy', limit: MAX_CLIPS_PER_GUILD });
    expect((await theirs).clip.durationSeconds).toBeCloseTo(4, 2);
    expect((await measureClipOffThread(wav(), 60, 'guild-a')).clip.durationSeconds).toBeCloseTo(4, 2);
  });

  it('moves a large clip to the worker and back instead of copying it: the same bytes return', async () => {
    const clip = encodeWav(toneSamples({ pitchHz: 220, seconds: 30, amplitude: 0.5, sampleRate: 48_000 }), 48_000);
    const expected = Buffer.from(clip).toString('base64');
    const measured = await measureClipOffThread(clip, 60, 'guild-a');
    expect(clip.byteLength).toBe(0); // the caller's view went with its buffer
    expect(measured.clip.durationSeconds).toBeCloseTo(30, 2);
    expect(Buffer.from(measured.bytes).toString('base64')).toBe(expected);
  });
});
