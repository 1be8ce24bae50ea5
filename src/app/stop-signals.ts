// What a stop signal (SIGTERM, SIGINT) means to a running SayBot: the first starts the graceful shutdown; a later
// one, while that shutdown is still running, ends the process at once. Under `npm start` in a terminal one Ctrl-C
// reaches SayBot twice within milliseconds (the terminal signals the whole process group, and npm forwards its
// own copy), so a repeat that close to the first is the same press, not an owner asking again.

/** A repeat within this long of the first signal is taken as the same press. */
export const SAME_PRESS_MS = 1_000;

export type StopSignalAction = 'shut-down' | 'ignore' | 'force-exit';

export interface StopSignalPolicy {
  /** What to do about a signal received now. */
  next(nowMs: number): StopSignalAction;
}

/**
 * A shard process (started by the shard manager) never forces: the manager stops it, and a Ctrl-C reaches it
 * both from the terminal and through the manager; the manager itself forces, and ends its shards with it.
 */
export function stopSignalPolicy(options: { isShard: boolean }): StopSignalPolicy {
  let firstMs: number | undefined;
  return {
    next(nowMs) {
      if (firstMs === undefined) {
        firstMs = nowMs;
        return 'shut-down';
      }
      return options.isShard || nowMs - firstMs < SAME_PRESS_MS ? 'ignore' : 'force-exit';
    },
  };
}
