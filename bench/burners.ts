// A host kept busy as a CI host's other jobs keep it: processes each burning a core (two unless asked for more: figure
// 24 takes three), spawned by the bench itself and each ending by itself after BURN_LIMIT_MS whatever happens to the
// bench (figure 17, and `--busy` for the bot's figures). Each burner is detached, in a session of its own, as another
// job on a host is (another login, service or container): Linux shares the CPU between sessions (autogroups) and
// cgroups first and by niceness only within one, so burners in the bench's own session would measure SayBot's worker
// priorities against processes that are not there on a real host (its long work, 15 steps nicer, got 4 % of a core
// beside them; 32 % beside detached ones).
import { spawn, type ChildProcess } from 'node:child_process';

/** Each burner ends by itself after this. */
export const BURN_LIMIT_MS = 10 * 60_000;

/** `count` processes burning a core each; ended with the returned function. */
export function burners(limitMs = BURN_LIMIT_MS, count = 2): () => void {
  const code = `const end = Date.now() + ${limitMs}; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);`;
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', code], { stdio: 'ignore', detached: true }),
  );
  return () => {
    for (const child of children) child.kill('SIGKILL');
  };
}
