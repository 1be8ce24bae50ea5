import { spawn, type SpawnOptions } from 'node:child_process';

/** What a child process wrote, and the code it exited with (null when a signal ended it). */
export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args` to its end, its stdin closed and its stdout and stderr gathered. */
export function runChild(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'stdio'> = {},
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
