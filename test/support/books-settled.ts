// Whether a test may read what the service billed as final: the service has answered every request it got, and
// SayBot's books hold no paid request open.
import { DatabaseSync } from 'node:sqlite';
import type { Harness } from './harness.ts';

/** Requests the sandbox has not answered yet: at the service uncharged, charged with their answer held, paused. */
const UNANSWERED: ReadonlySet<string> = new Set(['waiting', 'held', 'paused']);

/**
 * Resolves once the sandbox has answered every request it got and SayBot's books hold no paid request open (each
 * written ahead is answered and its body over, or taken back): from then on what the service billed is final, and
 * /usage must show exactly it. Rejects after `timeoutMs`.
 */
export async function booksSettled(harness: Harness, timeoutMs = 10_000): Promise<void> {
  const db = new DatabaseSync(harness.databasePath, { readOnly: true });
  try {
    const open = () =>
      Number((db.prepare('SELECT COUNT(*) AS n FROM spends WHERE owner IS NOT NULL').get() as { n: number }).n);
    const answered = () => harness.sandbox.requests.every((r) => r.outcome !== undefined && !UNANSWERED.has(r.outcome));
    const deadline = performance.now() + timeoutMs;
    while (!(answered() && open() === 0)) {
      if (performance.now() > deadline) throw new Error('the service or the books still had a request open');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    db.close();
  }
}
