// The one-job-at-a-time worker thread is fair between owners (servers): one server's long queue of renders never
// holds up another server's file. A pool of them spreads jobs over its threads and refuses one owner past its share
// at once, with the caller's own error, while another owner's job still runs; the audio and clip threads bound what
// one server may have waiting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  joinPartsOffThread,
  MAX_AUDIO_JOBS_PER_GUILD,
} from '../../../../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { AudioBusyError, JobUnavailableError } from '../../../../src/core/audio/errors.ts';
import {
  classedPools,
  JobThread,
  ThreadPool,
  type JobThreadFailure,
  type ThreadPoolOptions,
} from '../../../../src/core/audio/workers/job-thread.ts';
import {
  ClipCheckUnavailableError,
  MAX_CLIPS_PER_GUILD,
  measureClipOffThread,
} from '../../../../src/core/audio/jobs/clip-check/clip-thread.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { getPriority } from 'node:os';

const ECHO = new URL('../../../support/echo-job-worker.ts', import.meta.url);
const SLOW_LOAD = new URL('../../../support/slow-load-job-worker.ts', import.meta.url);
const CPU = new URL('../../../support/cpu-job-worker.ts', import.meta.url);

let thread: JobThread<{ label: string }, { id: number; label: string }> | undefined;
afterEach(() => {
  // An idle worker ends by itself (idleMs): nothing to close.
  thread = undefined;
});

/** A job of test/support/cpu-job-worker.ts: its thread's setup, then its own work, each off the CPU or on it. */
type CpuJob = { label: string; idleMs?: number; cpuMs?: number; setupIdleMs?: number; setupCpuMs?: number };

/** A short and a long pool of one thread each of cpu-job-worker.ts; `short` and `long` change their options. */
function cpuPools(timeoutMs: number, short: Partial<ThreadPoolOptions>, long: Partial<ThreadPoolOptions> = {}) {
  return classedPools<CpuJob, { id: number; label: string }>(
    {
      name: 'test pool',
      jobs: 'jobs',
      worker: CPU,
      threads: 1,
      maxWaitingPerThread: 4,
      timeoutMs,
      idleMs: 10,
      perOwner: 4,
      unavailable: (reason, message, options) => new JobUnavailableError(reason, message, options),
      ...short,
    },
    { threads: 1, perMember: 1, ...long },
  );
}

function pool(perOwner: number) {
  return new ThreadPool<{ label: string }, { id: number; label: string }>({
    name: 'test pool',
    jobs: 'labels',
    worker: ECHO,
    threads: 2,
    maxWaitingPerThread: 64,
    timeoutMs: 10_000,
    idleMs: 10,
    perOwner,
    unavailable: (reason, message, options) => new JobUnavailableError(reason, message, options),
  });
}

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

  describe('a job that throws before its worker has it fails with that error, and gives its slot back', () => {
    const unavailable = (reason: JobThreadFailure, message: string) => new JobUnavailableError(reason, message);

    it('when its thread cannot start (a workerData that cannot be cloned): the next job is not left waiting', async () => {
      const unstartable = new JobThread<{ label: string }, { id: number; label: string }>({
        worker: ECHO,
        workerData: { notCloneable: () => undefined },
        maxWaiting: 4,
        timeoutMs: 60_000,
        idleMs: 10,
        unavailable,
      });
      const first = unstartable.run({ label: 'first' }).then(
        () => 'ran',
        (error: unknown) => error,
      );
      await vi.waitFor(() => expect(unstartable.load).toBe(0), { timeout: 20_000 });
      expect(await first).toMatchObject({ name: 'DataCloneError' });
      await expect(unstartable.run({ label: 'second' })).rejects.toMatchObject({ name: 'DataCloneError' });
    });

    it('when the job cannot be posted (a buffer to move was moved already): the thread takes the next job', async () => {
      thread = new JobThread({ worker: ECHO, maxWaiting: 4, timeoutMs: 60_000, idleMs: 10, unavailable });
      const moved = new ArrayBuffer(8);
      structuredClone(moved, { transfer: [moved] });
      const sent = thread.run({ label: 'moved' }, [moved]).then(
        () => 'ran',
        (error: unknown) => error,
      );
      await vi.waitFor(() => expect(thread?.load).toBe(0), { timeout: 20_000 });
      expect(await sent).toMatchObject({ name: 'DataCloneError' });
      await expect(thread.run({ label: 'next' })).resolves.toMatchObject({ label: 'next' });
    });
  });
});

describe('ThreadPool', () => {
  it('answers every job with its own reply across its threads', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pool(10).run({ label: `job${i}` }, [], `guild-${i}`)),
    );
    expect(replies.map((r) => r.label)).toEqual(['job0', 'job1', 'job2', 'job3', 'job4', 'job5']);
  });

  it("refuses an owner's job past its share, naming the pool and its limit, while another owner's runs", async () => {
    const tested = pool(2);
    const mine = Array.from({ length: 3 }, (_, i) =>
      tested.run({ label: `a${i}` }, [], 'guild-a').then(
        (reply) => reply.label,
        (error: unknown) => error,
      ),
    );
    const theirs = tested.run({ label: 'b0' }, [], 'guild-b');
    const results = await Promise.all(mine);
    expect(results.slice(0, 2)).toEqual(['a0', 'a1']);
    expect(results[2]).toBeInstanceOf(JobUnavailableError);
    expect(results[2]).toMatchObject({ reason: 'owner-busy' });
    expect((results[2] as Error).message).toBe('test pool: this server already has 2 labels under way or waiting');
    expect((await theirs).label).toBe('b0');
  });

  it('gives no share to a job with no owner', async () => {
    const tested = pool(1);
    const replies = await Promise.all(Array.from({ length: 3 }, (_, i) => tested.run({ label: `n${i}` })));
    expect(replies.map((r) => r.label)).toEqual(['n0', 'n1', 'n2']);
  });

  it.runIf(process.platform === 'linux')(
    "runs long work's threads at a lower priority than short work's, each told its class",
    async () => {
      const pools = classedPools<object, { id: number; niceness: number; workClass: unknown }>(
        {
          name: 'test pool',
          jobs: 'jobs',
          worker: new URL('../../../support/niceness-job-worker.ts', import.meta.url),
          threads: 1,
          maxWaitingPerThread: 4,
          timeoutMs: 10_000,
          idleMs: 10,
          perOwner: 4,
          unavailable: (reason, message, options) => new JobUnavailableError(reason, message, options),
        },
        { threads: 1, perMember: 1 },
      );
      const short = await pools.short.run({}, [], 'guild-a');
      const long = await pools.long.run({}, [], 'guild-a', { member: 'm' });
      expect(short).toMatchObject({ workClass: 'short', niceness: Math.min(19, getPriority(0) + 10) });
      expect(long).toMatchObject({ workClass: 'long', niceness: Math.min(19, getPriority(0) + 15) });
    },
  );
  describe("long work's limit counts its own CPU time, so a busy host's other processes do not cut it", () => {
    const longPool = (timeoutMs: number, wallCeilingMs: number) => cpuPools(timeoutMs, {}, { wallCeilingMs });

    it('a long job kept off the CPU past its limit is not cut; a short job is (its limit is wall-clock)', async () => {
      const pools = longPool(600, 60_000);
      const job = { label: 'waited', idleMs: 1500 };
      expect(await pools.long.run(job, [], 'guild-a', { member: 'm' })).toMatchObject({ label: 'waited' });
      await expect(pools.short.run(job, [], 'guild-a')).rejects.toMatchObject({ reason: 'timeout' });
    });

    it('a long job that uses its limit of CPU time is cut, and so is one past its wall-clock ceiling', async () => {
      const burning = longPool(300, 60_000).long.run({ label: 'burning', cpuMs: 5000 }, [], 'a', { member: 'm' });
      await expect(burning).rejects.toThrow('within 300 ms of its own CPU time');
      const stuck = longPool(60_000, 1000).long.run({ label: 'stuck', idleMs: 5000 }, [], 'a', { member: 'm' });
      await expect(stuck).rejects.toThrow('did not finish within 1000 ms');
    });
  });

  describe("a thread's setup for a job (loading what it keeps for later jobs) is not counted in the job's limit", () => {
    // Threads kept while idle: each case's jobs run on one thread, its start behind it after the first.
    const pools = (timeoutMs: number, setupCeilingMs?: number) =>
      cpuPools(timeoutMs, { idleMs: 60_000, ...(setupCeilingMs === undefined ? {} : { setupCeilingMs }) });

    it('a short job whose thread sets itself up for longer than its wall-clock limit is not cut', async () => {
      const { short } = pools(600);
      // The thread started and its module loaded first, in a job of a generous limit: a busy host's slow start of a
      // thread is not what is tested here.
      expect(await short.run({ label: 'started' }, [], 'guild-a', { timeoutMs: 60_000 })).toMatchObject({
        label: 'started',
      });
      expect(await short.run({ label: 'set up', setupIdleMs: 2000 }, [], 'guild-a')).toMatchObject({
        label: 'set up',
      });
      // The same wait in the job's own work is cut: the limit still holds for what follows the setup.
      await expect(short.run({ label: 'own', idleMs: 2000 }, [], 'guild-a')).rejects.toMatchObject({
        reason: 'timeout',
      });
    });

    it("a long job whose thread's setup uses more CPU time than the job's limit is not cut", async () => {
      const job = { label: 'set up', setupCpuMs: 1500 };
      expect(await pools(500).long.run(job, [], 'guild-a', { member: 'm' })).toMatchObject({ label: 'set up' });
    });

    it('a setup has a bound of its own: one that never ends fails the job and replaces the thread', async () => {
      // The bound also holds the new thread's start (JobThread's whenLoaded): 5 s, so that a busy host's slow start of
      // a thread (over a second beside a loaded run) is not what fails here.
      const pool = pools(60_000, 5000).short;
      await expect(pool.run({ label: 'stuck', setupIdleMs: 120_000 }, [], 'guild-a')).rejects.toThrow(
        "the thread's setup for the job did not finish within 5000 ms",
      );
      expect(await pool.run({ label: 'next' }, [], 'guild-a')).toMatchObject({ label: 'next' });
    });
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
