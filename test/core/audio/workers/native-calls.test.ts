// A thread that may be inside a native call is never ended from outside (src/core/audio/workers/native-calls.ts): told
// to retire inside a guarded call, it finishes that call and leaves by itself before any code after it; outside one,
// it may be ended at once and never enters another. A pool's threads still leaving are counted, and past the bound no
// new one may start. Real worker threads, each held inside its call until the test lets it go (no timing).
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NativeCallGuard,
  RETIRED_EXIT_CODE,
  RetiringThreads,
} from '../../../../src/core/audio/workers/native-calls.ts';

const WORKER = new URL('../../../support/held-native-call-worker.ts', import.meta.url);

interface Held {
  worker: Worker;
  guard: NativeCallGuard;
  hold: Int32Array;
  messages: string[];
  exit: Promise<number>;
}

const started: Held[] = [];
afterEach(async () => {
  for (const held of started.splice(0)) {
    Atomics.store(held.hold, 0, 1);
    Atomics.notify(held.hold, 0);
    await held.exit;
  }
});

async function start(): Promise<Held> {
  const guard = new NativeCallGuard();
  const buffer = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER, { workerData: { ...guard.data, hold: buffer } });
  const messages: string[] = [];
  worker.on('message', (message: string) => messages.push(message));
  const exit = once(worker, 'exit').then(([code]) => code as number);
  const held = { worker, guard, hold: new Int32Array(buffer), messages, exit };
  started.push(held);
  await once(worker, 'message');
  return held;
}

async function inside(held: Held): Promise<void> {
  held.worker.postMessage('enter');
  while (!held.messages.includes('inside')) await once(held.worker, 'message');
}

function letGo(held: Held): void {
  Atomics.store(held.hold, 0, 1);
  Atomics.notify(held.hold, 0);
}

describe('native calls in a worker thread', () => {
  it('a thread told to retire inside a call finishes it and leaves by itself before the code after it', async () => {
    const held = await start();
    await inside(held);
    expect(held.guard.retire()).toBe('by-itself');
    // Asked again (the pool's close after its deadline), the answer stands: still never ended from outside.
    expect(held.guard.retire()).toBe('by-itself');
    letGo(held);
    expect(await held.exit).toBe(RETIRED_EXIT_CODE);
    expect(held.messages).not.toContain('after');
  });

  it('a thread told to retire outside any call may be ended at once, and never enters another call', async () => {
    const held = await start();
    held.worker.postMessage('call');
    while (!held.messages.includes('done')) await once(held.worker, 'message');
    expect(held.guard.retire()).toBe('now');
    held.worker.postMessage('call');
    expect(await held.exit).toBe(RETIRED_EXIT_CODE);
    expect(held.messages.filter((m) => m === 'called')).toHaveLength(1);
  });

  it('counts the threads still leaving; past its bound no new one may start, said once; room again as one leaves', async () => {
    const retiring = new RetiringThreads('a test pool', 2);
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => {
      if (warning.code === 'SAYBOT_RETIRING_THREADS') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const threads = [await start(), await start(), await start()];
      for (const held of threads) await inside(held);
      const gone = threads.map((held) => retiring.retire(held.worker, held.guard));
      expect(retiring.count).toBe(3);
      expect(retiring.room).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([
        'a test pool: 2 threads told to retire are still inside a native call; no new thread is started until one leaves',
      ]);
      letGo(threads[0]!);
      await gone[0];
      expect(retiring.count).toBe(2);
      expect(retiring.room).toBe(false);
      letGo(threads[1]!);
      await gone[1];
      expect(retiring.room).toBe(true);
      // A thread outside any call is ended at once, not counted.
      const idle = await start();
      await retiring.retire(idle.worker, idle.guard);
      expect(retiring.count).toBe(1);
      letGo(threads[2]!);
      await Promise.all(gone);
      expect(retiring.count).toBe(0);
      expect(warnings).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
