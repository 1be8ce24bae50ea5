// A worker for test/core/audio/workers/native-calls.test.ts: on "enter" it makes one guarded call (nativeCall) that
// holds until the test lets it go (Atomics.wait on the `hold` word of its workerData, standing for an addon's call
// that takes long), then says "after"; on "call" it makes a guarded call that says "called" from inside, then "done".
import { parentPort, workerData } from 'node:worker_threads';
import { nativeCall } from '../../src/core/audio/workers/native-calls.ts';

const hold = new Int32Array((workerData as { hold: SharedArrayBuffer }).hold);
parentPort?.on('message', (message: string) => {
  if (message === 'enter') {
    nativeCall(() => {
      parentPort?.postMessage('inside');
      Atomics.wait(hold, 0, 0);
    });
    parentPort?.postMessage('after');
  }
  if (message === 'call') {
    nativeCall(() => parentPort?.postMessage('called'));
    parentPort?.postMessage('done');
  }
});
parentPort?.postMessage('ready');
