// Figure 4's RSS when ready, in a process of its own: the bot started (logged in, every guild created, commands
// registered) and nothing else done. Measured in the benchmark's own process it also held whatever the figures before
// it had loaded (the /usage chart's renderer and fonts, the encoder floor's codecs).
import { fork } from 'node:child_process';
import { heapFlags } from '../src/app/shard/heap-flags.ts';
import { startBot } from './bot.ts';
import { snapshot, type MemorySnapshot } from './memory.ts';
import type { ServersInfo } from './protocol.ts';
import type { Servers } from './servers-client.ts';

/**
 * Starts a bot in a child process against these servers and returns its memory once ready, after GC; `env` over the
 * bench's own settings (HELPER_BOT_TOKENS: the helpers logged in too, before ready).
 */
export function readyRss(servers: Servers, env?: Record<string, string>): Promise<MemorySnapshot> {
  const child = fork(new URL(import.meta.url), [], {
    execArgv: ['--expose-gc', ...heapFlags(process.execArgv)],
    serialization: 'advanced',
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as MemorySnapshot));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`ready-rss child exited (${code}) before reporting`)));
    child.send({ info: servers.info, env });
  });
}

if (process.send && process.argv[1] === new URL(import.meta.url).pathname) {
  process.once('message', ({ info, env }: { info: ServersInfo; env?: Record<string, string> }) => {
    void (async () => {
      const bot = await startBot(info, env === undefined ? {} : { env });
      process.send?.(await snapshot());
      await bot.stop();
      process.exit(0);
    })();
  });
}
