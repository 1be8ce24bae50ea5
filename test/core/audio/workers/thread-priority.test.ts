import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { LONG_WORK_NICENESS_STEP, WORKER_NICENESS_STEP } from '../../../../src/core/audio/workers/thread-priority.ts';

// Each audio worker's module, loaded as the pools load it; the thread then reports its own niceness.
const WORKERS = [
  'codecs/opus-pool/opus-worker.ts',
  'jobs/audio-thread/audio-worker.ts',
  'jobs/clip-check/clip-worker.ts',
];

function nicenessOf(module: string, workerData?: unknown): Promise<number> {
  const url = new URL(`../../../../src/core/audio/${module}`, import.meta.url).href;
  const source = `import(${JSON.stringify(url)}).then(() => {
    const { parentPort } = require('node:worker_threads');
    parentPort.postMessage(require('node:os').getPriority(0));
  });`;
  const worker = new Worker(source, { eval: true, workerData });
  return new Promise<number>((resolve, reject) => {
    worker.once('message', (niceness: number) => resolve(niceness));
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
}

describe.runIf(process.platform === 'linux')(
  "audio worker threads that work ahead yield the cores to the main thread; the live voices' transcoder does not",
  () => {
    it("the transcoding worker, which makes every live voice's next frames, runs at the main thread's priority", async () => {
      // The sender thread sends the packets; a transcoder ten steps nicer waited for a core while its voices ran dry.
      expect(await nicenessOf('jobs/transcode/transcode-worker.ts')).toBe(getPriority(0));
    });

    it.each(WORKERS)('%s runs nicer than the main thread, and the main thread keeps its priority', async (module) => {
      const main = getPriority(0);
      expect(await nicenessOf(module)).toBe(Math.min(19, main + WORKER_NICENESS_STEP));
      expect(getPriority(0)).toBe(main);
    });

    it.each(['jobs/audio-thread/audio-worker.ts', '../free-voice/espeak-worker.ts'])(
      '%s runs nicer still when its pool gives it long work',
      async (module) => {
        const main = getPriority(0);
        expect(LONG_WORK_NICENESS_STEP).toBeGreaterThan(WORKER_NICENESS_STEP);
        expect(await nicenessOf(module, { workClass: 'long' })).toBe(Math.min(19, main + LONG_WORK_NICENESS_STEP));
      },
    );
  },
);
