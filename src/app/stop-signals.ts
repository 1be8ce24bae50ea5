// SIGTERM/SIGINT: the first starts the graceful shutdown, a later one ends the process at once. One Ctrl-C under
// `npm start` arrives twice within milliseconds (terminal and npm), so a repeat that close is the same press.

/** A repeat within this long of the first signal is taken as the same press. */
export const SAME_PRESS_MS = 1_000;

export type StopSignalAction = 'shut-down' | 'ignore' | 'force-exit';

export interface StopSignalPolicy {
  /** What to do about a signal received now. */
  next(nowMs: number): StopSignalAction;
}

/** A shard never forces (its manager stops it, and forces itself). */
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
