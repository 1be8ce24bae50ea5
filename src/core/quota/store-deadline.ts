/**
 * `work`'s answer, or `late()`'s once `work` has waited `ms` on the store: no request waits on a hung store longer
 * than that, whatever the store does. `work` itself goes on; what its late answer leaves is the caller's to undo.
 */
export function byDeadline<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Unref'd: a deadline alone never keeps the process up.
    const timer = setTimeout(() => resolve(Promise.resolve().then(late)), ms);
    timer.unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
