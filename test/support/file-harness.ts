import { afterAll, afterEach, beforeAll } from 'vitest';
import { forwardingTo } from './forwarding.ts';
import { startHarness, type Harness, type HarnessOptions } from './harness.ts';

/**
 * One harness for a whole test file: started before its first test, closed after its last. `options` may be a
 * function, called in that first hook, for options that need work done first (a file to write, a port to find).
 * Returns a stand-in that forwards to the running harness, for the file's tests and helpers to use as one.
 */
export function useFileHarness(
  options: HarnessOptions | (() => HarnessOptions | Promise<HarnessOptions>) = {},
): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness(typeof options === 'function' ? await options() : options);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return forwardingTo(() => current, 'the file harness runs only from its first test to its last');
}

/**
 * A harness for each test that wants one of its own: the function returned starts it (options as startHarness's),
 * and it is closed when that test ends.
 */
export function useHarnessPerTest(): (options?: HarnessOptions) => Promise<Harness> {
  let current: Harness | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options = {}) => {
    current = await startHarness(options);
    return current;
  };
}
