// The logs of the bots running now in this test worker (the harness registers each while it runs), for
// ./failure-logs.ts. Kept on globalThis: vitest evaluates a setup file again for each test file, while the harness
// module stays loaded in the worker, and both must see one set.
const KEY = Symbol.for('saybot.test.liveLogs');
const holder = globalThis as { [KEY]?: Set<() => string> };

export function liveLogs(): Set<() => string> {
  holder[KEY] ??= new Set();
  return holder[KEY];
}

/** Registers a running bot's log while it runs; the returned function forgets it. */
export function watchLogs(logs: () => string): () => void {
  const live = liveLogs();
  live.add(logs);
  return () => live.delete(logs);
}
