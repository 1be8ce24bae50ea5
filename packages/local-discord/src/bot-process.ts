// A bot as a real process against the local Discord (SayBot's `npm start`: src/bin/start.ts), for tests, benchmarks
// and the demo that need it out of this process: shards, a process that is killed, the bot exactly as an operator
// runs it. Its JSON log lines are collected; it is stopped (and its process group killed if it does not stop) by
// stop().
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keepLast } from './retention.ts';

const STOP_GRACE_MS = 10_000;

export type LogLine = Record<string, unknown>;

export interface BotProcess {
  readonly child: ChildProcess;
  /** Every JSON line logged so far (the manager's and its shards'). */
  readonly lines: readonly LogLine[];
  /** Everything written to stdout and stderr, as text (to look for secrets). */
  output(): string;
  /** The first line (already logged, or later) that matches. */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs?: number, from?: number): Promise<LogLine>;
  stop(): Promise<void>;
}

export interface BotProcessOptions {
  /** The bot's entry module, run by this Node (SayBot's src/bin/start.ts); not used with `command`. */
  entry: string;
  /**
   * The environment, as an operator's .env would give it (nothing is inherited but PATH, and NODE_COMPILE_CACHE: the
   * runner's compiled code, so that the process does not compile its modules again).
   */
  env: Record<string, string>;
  /** The local Discord's voice certificate: trusted by the process through NODE_EXTRA_CA_CERTS. */
  caCertificatePem: string;
  /** Node flags before the entry, as `npm start` gives them (V8's heap sizes); none by default. */
  nodeArgs?: readonly string[] | undefined;
  /**
   * Instead of `node <entry>`: this command line in this folder (e.g. `npm start` in SayBot's own folder, as its
   * Docker image runs it), so that what stands between the signal and the bot is tested too.
   */
  command?: { argv: readonly [string, ...string[]]; cwd: string } | undefined;
  /** For a process that runs until stopped (the playground): the newest log lines and characters of output kept. */
  keep?: { lines: number; chars: number } | undefined;
}

/** Starts `node <entry>` in a fresh directory (no .env there) with `env`, or `command` where it says. */
export function startBotProcess(options: BotProcessOptions): BotProcess {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-process-'));
  const caFile = path.join(dir, 'voice-ca.pem');
  writeFileSync(caFile, options.caCertificatePem);
  const cache = process.env['NODE_COMPILE_CACHE'];
  const [file, ...args] = options.command?.argv ?? [process.execPath, ...(options.nodeArgs ?? []), options.entry];
  // Its own process group, so that stop() can end the shards too if the manager cannot.
  const child = spawn(file, args, {
    cwd: options.command?.cwd ?? dir,
    env: {
      PATH: process.env['PATH'] ?? '',
      ...(cache === undefined ? {} : { NODE_COMPILE_CACHE: cache }),
      NODE_EXTRA_CA_CERTS: caFile,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: LogLine[] = [];
  const chunks: string[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  let chars = 0;
  const kept = (text: string): void => {
    chunks.push(text);
    chars += text.length;
    const keep = options.keep;
    if (keep === undefined) return;
    while (chars > keep.chars && chunks.length > 1) chars -= chunks.shift()?.length ?? 0;
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    kept(text);
    pending += text;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
        if (options.keep !== undefined) keepLast(lines, options.keep.lines);
      } catch {
        // not a log line
      }
    }
    for (const wake of [...waiters]) wake();
  });
  child.stderr?.on('data', (chunk: Buffer) => kept(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => {
    for (const wake of [...waiters]) wake();
  });

  return {
    child,
    lines,
    output: () => chunks.join(''),
    waitForLine(match, timeoutMs = 30_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = lines.slice(from).find(match);
          if (found) {
            done();
            resolve(found);
            return true;
          }
          if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(
              new Error(
                `The bot exited (${String(child.exitCode ?? child.signalCode)}) before the line was logged:\n${chunks.join('').slice(-3000)}`,
              ),
            );
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no such log line within ${timeoutMs} ms:\n${chunks.join('').slice(-3000)}`));
        }, timeoutMs);
        const wake = (): void => void check();
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const late = setTimeout(() => killGroup(child), STOP_GRACE_MS);
        await exited;
        clearTimeout(late);
      }
      killGroup(child); // any shard left behind
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/**
 * Ports handed to a process that binds them later are picked below the ephemeral range (Linux's starts at 32768,
 * others' higher): a port the system gave to listen(0) is in that range, where any outgoing connection of the machine
 * (a test's client of PostgreSQL, of the sandbox, of the gateway) may take it before the process binds it.
 */
const HANDED_PORTS = { from: 20_000, to: 32_000 } as const;

/** A port P on 127.0.0.1 with P+1 .. P+count-1 free as well (METRICS_PORT for `count` shards). */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = HANDED_PORTS.from + Math.floor(Math.random() * (HANDED_PORTS.to - HANDED_PORTS.from - count));
    let ok = true;
    for (let i = 0; i < count && ok; i++) ok = (await listenOnce(base + i).catch(() => -1)) !== -1;
    if (ok) return base;
  }
  throw new Error(`no run of ${count} free ports found`);
}

/** A port free on 127.0.0.1 now, for a process to bind later (DASHBOARD_PORT, METRICS_PORT). */
export const freePort = (): Promise<number> => freePortRun(1);

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
