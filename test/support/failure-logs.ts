// A setup file of the `wall` project (vitest.config.ts): when a test fails, the last lines the bots of its file logged
// at info or above are printed under it, so that a failure seen once in a whole run (a busy or slow host) can be
// read afterwards, not only retried. The harness registers each bot's log while it runs (./live-logs.ts). Logs hold
// no message bodies, tokens or bytes (test/support/log-leaks.ts checks every e2e log), so printing them leaks nothing.
import { afterEach } from 'vitest';
import { liveLogs } from './live-logs.ts';

const LINES = 60;
/** Info (pino's 30) and above. */
const LEVEL = 30;

function lastLines(logs: string): string[] {
  return logs
    .split('\n')
    .filter((line) => {
      try {
        return ((JSON.parse(line) as { level?: number }).level ?? 0) >= LEVEL;
      } catch {
        return false;
      }
    })
    .slice(-LINES);
}

afterEach((context) => {
  const live = liveLogs();
  if (context.task.result?.state !== 'fail' || live.size === 0) return;
  const shown = [...live].map((logs, k) => [
    `-- bot ${k + 1}: its last log lines at info or above --`,
    ...lastLines(logs()),
  ]);
  console.error(`The bots' logs when "${context.task.name}" failed:\n${shown.flat().join('\n')}`);
});
