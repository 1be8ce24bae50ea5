// Waiting for something the fake observes, with a timeout; close() settles whatever is still waiting.

/**
 * How long a wait waits by default: a bound, not a figure (a wait is for an event, and is never asserted). A host
 * twice as slow as the one a test was written on, running the whole suite beside it, still gets there well within it;
 * a test's own limit (vitest's testTimeout, 90 s) still cuts a hang.
 */
export const WAIT_MS = 60_000;

/** Pending waits, so that close() can settle them instead of leaving timers behind. */
export class Waits {
  private readonly cancels = new Set<(reason: Error) => void>();

  wait<T>(
    check: () => T | undefined,
    subscribe: (notify: () => void) => () => void,
    timeoutMs: number,
    describe: () => string,
  ): Promise<T> {
    const ready = check();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise<T>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        unsubscribe();
        this.cancels.delete(cancel);
      };
      const cancel = (reason: Error): void => {
        finish();
        reject(reason);
      };
      const unsubscribe = subscribe(() => {
        const value = check();
        if (value === undefined) return;
        finish();
        resolve(value);
      });
      const timer = setTimeout(
        () => cancel(new Error(`FakeDiscord: timed out after ${timeoutMs} ms: ${describe()}`)),
        timeoutMs,
      );
      this.cancels.add(cancel);
    });
  }

  cancelAll(): void {
    for (const cancel of [...this.cancels]) cancel(new Error('FakeDiscord closed'));
  }
}
