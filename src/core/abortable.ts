// Waiting for work that others may still want: a caller who gives up stops waiting, the work goes on.
import { AbortedError } from './api/errors.ts';

/** Rejects with AbortedError when `signal` fires first; the work itself goes on for whoever else waits for it. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError('the request was cancelled', { cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError('the request was cancelled', { cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
