// The main thread's handle on the sender thread when that thread goes wrong: one that stops answering and one that
// dies. Each renews every voice it held once (a new session), tells each clip it is gone, logs one line, and the
// next use starts a new thread. No time is asserted: the waits are for events.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runChild } from '../../../support/run-child.ts';
import type { Logger } from '../../../../src/core/log.ts';
import { readFileSync } from 'node:fs';
import { SENDER_THREAD_NAME, SenderThread, type ClipWatcher } from '../../../../src/core/voice/sender/sender-thread.ts';

const SILENT = new URL('../../../support/silent-sender-worker.ts', import.meta.url);
const SLOW_START = new URL('../../../support/slow-start-sender-worker.ts', import.meta.url);
const ALONE = new URL('../../../support/sender-thread-alone.ts', import.meta.url).pathname;

function logger() {
  const warn = vi.fn();
  return { warn, logger: { warn } as unknown as Logger };
}

function watcher() {
  const gone = vi.fn<() => void>();
  const clip: ClipWatcher = { progress: vi.fn(), done: vi.fn(), gone };
  return { clip, gone };
}

/** A thread of this process, by kernel ID: its name and scheduling policy (0 ordinary, 2 SCHED_RR). */
function task(tid: number | undefined): { name: string; policy: number | undefined } | undefined {
  if (tid === undefined) return undefined;
  try {
    const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    const policy = /^policy\s*:\s*(\d+)/m.exec(readFileSync(`/proc/self/task/${tid}/sched`, 'utf8'))?.[1];
    return { name, policy: policy === undefined ? undefined : Number(policy) };
  } catch {
    return undefined;
  }
}

const threads: SenderThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.kill()));
});

describe('SenderThread', () => {
  it('a thread that stops answering is ended: its voices renewed once, its clips told, one log line', async () => {
    const thread = new SenderThread({ worker: SILENT, stallMs: 200 });
    threads.push(thread);
    const { warn, logger: log } = logger();
    thread.useLogger(log);
    const renew = vi.fn();
    const udp = {};
    const { connection, discovered } = thread.open(udp, { ip: '127.0.0.1', port: 9 }, 1, renew);
    const rejected = discovered.catch((error: unknown) => error);
    const { clip, gone } = watcher();
    thread.watch(connection, clip);
    await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(await rejected).toBeInstanceOf(Error);
    expect(gone).toHaveBeenCalledTimes(1);
    expect(thread.failovers).toBe(1);
    expect(thread.connectionOf(udp)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ code: 'voice-sender-failover', voices: 1, clips: 1 });
  });

  // path11b: the silence was counted from the thread's creation, so on a busy host a thread still loading its modules
  // was ended as stuck, and each new one with it (a /join then waited through failover after failover).
  it('a thread slow to start is not ended as stuck before it says it started; silent after that, it is', async () => {
    const thread = new SenderThread({ worker: SLOW_START, stallMs: 200 });
    threads.push(thread);
    const renew = vi.fn();
    thread.open({}, { ip: '127.0.0.1', port: 9 }, 1, renew).discovered.catch(() => undefined);
    await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(thread.kernelThreadId).toBe(4242);
    expect(thread.failovers).toBe(1);
  });

  it('a thread that dies is noticed at once; the next voice starts a new thread', async () => {
    const thread = new SenderThread({ worker: SILENT, stallMs: 60_000 });
    threads.push(thread);
    const { warn, logger: log } = logger();
    thread.useLogger(log);
    const renew = vi.fn();
    const { discovered } = thread.open({}, { ip: '127.0.0.1', port: 9 }, 1, renew);
    const rejected = discovered.catch((error: unknown) => error);
    const first = thread.threadId;
    await thread.kill();
    await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(1), { timeout: 20_000 });
    expect(await rejected).toBeInstanceOf(Error);
    expect(warn).toHaveBeenCalledTimes(1);
    thread.open({}, { ip: '127.0.0.1', port: 9 }, 2, () => undefined).discovered.catch(() => undefined);
    expect(thread.threadId).toBeDefined();
    expect(thread.threadId).not.toBe(first);
  });

  it.runIf(process.platform === 'linux')(
    'the thread is named, so that top -H and the benchmark tell it from the audio threads',
    async () => {
      const thread = new SenderThread();
      threads.push(thread);
      thread.open({}, { ip: '127.0.0.1', port: 9 }, 1, () => undefined).discovered.catch(() => undefined);
      await vi.waitFor(() => expect(thread.kernelThreadId).toBeDefined(), { timeout: 20_000 });
      expect(task(thread.kernelThreadId)?.name).toBe(SENDER_THREAD_NAME);
    },
  );

  it.runIf(process.platform === 'linux')(
    'the thread asks for real-time scheduling: where the host grants it, it runs at SCHED_RR; where not, it says why',
    async () => {
      const { logger: log } = logger();
      const info = vi.fn();
      const thread = new SenderThread();
      threads.push(thread);
      thread.useLogger({ ...log, info } as unknown as Logger);
      thread.open({}, { ip: '127.0.0.1', port: 9 }, 1, () => undefined).discovered.catch(() => undefined);
      await vi.waitFor(() => expect(thread.priority).toBeDefined(), { timeout: 10_000 });
      const priority = thread.priority;
      if (priority?.realtime === true) expect(task(thread.kernelThreadId)?.policy).toBe(2);
      else {
        expect(task(thread.kernelThreadId)?.policy).toBe(0);
        expect(priority?.why).toMatch(/\S/);
      }
      expect(info).toHaveBeenCalledTimes(1);
      expect(info.mock.calls[0]?.[0]).toMatchObject({ code: 'voice-sender-priority', realtime: priority?.realtime });
    },
  );

  it.runIf(process.platform === 'linux')(
    'with real-time scheduling off, the thread keeps its ordinary priority',
    async () => {
      const thread = new SenderThread();
      thread.realtime = false;
      threads.push(thread);
      thread.open({}, { ip: '127.0.0.1', port: 9 }, 1, () => undefined).discovered.catch(() => undefined);
      // 'started' comes before the answer to stats: by then a request would have been made.
      await thread.stats();
      expect(thread.kernelThreadId).toBeDefined();
      expect(thread.priority).toBeUndefined();
      expect(task(thread.kernelThreadId)).toEqual({ name: SENDER_THREAD_NAME, policy: 0 });
    },
  );

  it(
    'a live thread does not keep the process running: a process that has done its work ends by itself',
    { timeout: 60_000 },
    async () => {
      // The bound is a hang's, not a figure: the child ends in well under a second when the thread is unref'd.
      const run = await runChild(process.execPath, [ALONE], { killAfterMs: 30_000 });
      expect(run.stdout).toMatch(/^answered by thread [1-9]\d*\n$/);
      expect(run.code).toBe(0);
    },
  );
});
