import { spawn, type SpawnOptions } from 'node:child_process';

/** What a child process wrote, and the code it exited with (null when a signal ended it). */
export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunChildOptions extends Omit<SpawnOptions, 'stdio'> {
  /** Ends the child with SIGKILL if it still runs after this long. */
  killAfterMs?: number;
  /** Called at each piece of stdout with all of it so far, and a way to signal the child (e.g. to stop it). */
  onStdout?: (stdout: string, signal: (name: NodeJS.Signals) => void) => void;
}

/**
 * A child given an environment of its own still shares the runner's compiled code (NODE_COMPILE_CACHE, scripts/test.ts):
 * without it each SayBot process compiles its modules again, about half of its start's CPU.
 */
function withCompileCache(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv | undefined {
  const cache = process.env['NODE_COMPILE_CACHE'];
  return env === undefined || cache === undefined ? env : { NODE_COMPILE_CACHE: cache, ...env };
}

/** Runs `command` with `args` to its end, its stdin closed and its stdout and stderr gathered. */
export function runChild(command: string, args: readonly string[], options: RunChildOptions = {}): Promise<ChildRun> {
  const { killAfterMs, onStdout, env, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...spawnOptions,
      env: withCompileCache(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const signal = (name: NodeJS.Signals) => child.kill(name);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, signal);
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
