// SHARDS=auto|N: one manager process starting and restarting a SayBot process per shard; it holds no state.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ShardingManager, type Shard } from 'discord.js';
import { z } from 'zod';
import type { Config } from '../../core/config.ts';
import { asDiscordUnreachable } from '../discord-unreachable.ts';
import type { Logger } from '../../core/log.ts';
import { heapFlags } from './heap-flags.ts';
import { isReadyMessage, shardReady } from './ready.ts';

// How many shards Discord recommends, and how many may identify at once: GET /gateway/bot. discord.js's own
// fetchRecommendedShardCount always asks discord.com, so it would ignore DISCORD_API_BASE_URL.
const GatewayBot = z.object({
  shards: z.number().int().min(1),
  session_start_limit: z.object({ max_concurrency: z.number().int().min(1) }),
});

interface GatewayInfo {
  /** Discord's recommended shard count (one per 1,000 servers or so; required from 2,500). */
  shards: number;
  /** Shards that may identify in the same 5-second window. */
  maxConcurrency: number;
}

async function fetchGatewayInfo(apiBaseUrl: string, token: string): Promise<GatewayInfo> {
  const response = await fetch(`${apiBaseUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${token}` } });
  // 401: a wrong DISCORD_TOKEN; the line names the step, never the token.
  if (!response.ok)
    throw new Error(`Could not ask Discord how many shards to run: GET /gateway/bot answered ${response.status}`);
  const body = GatewayBot.parse(await response.json());
  return { shards: body.shards, maxConcurrency: body.session_start_limit.max_concurrency };
}

const DISCORD_API_URL = 'https://discord.com/api';
/** Discord lets one bucket of shards (max_concurrency of them) identify every 5 seconds. */
const IDENTIFY_WINDOW_MS = 5_500;
/** How long a shard may take from its start to Discord's READY. */
const SHARD_READY_TIMEOUT_MS = 60_000;

/** The file every shard process runs: the same entry point as `npm start`, which sees it is a shard. */
const SHARD_ENTRY = fileURLToPath(new URL('../../bin/start.ts', import.meta.url));

export interface RunningShardManager {
  readonly manager: ShardingManager;
  stop(): Promise<void>;
  /** Ends every shard process at once (SIGKILL), without their shutdown: the owner forced exit. */
  kill(): void;
}

function watch(shard: Shard, logger: Logger, manager: ShardingManager): void {
  const log = logger.child({ shard: shard.id });
  // Mode 'process': the child is a ChildProcess (a Worker has no pid or exitCode).
  shard.on('spawn', (child) => log.info({ pid: 'pid' in child ? child.pid : undefined }, 'shard process started'));
  // The shard's own announcement (src/app/shard/ready.ts), at the first start and after every respawn.
  shard.on('message', (message: unknown) => {
    if (isReadyMessage(message)) log.info('shard ready');
  });
  shard.on('death', (child) => {
    if (!manager.respawn) return;
    // ShardingManager starts it again; its guilds' players start empty, and their data is all in the store.
    const exit = 'exitCode' in child ? { exitCode: child.exitCode, signal: child.signalCode } : {};
    log.warn({ code: 'shard-died', ...exit }, 'shard process exited: starting it again');
  });
  shard.on('error', (error: unknown) => log.error({ err: error }, 'shard process error'));
}

/** Starts the shard processes (secrets through the environment only); resolves once every shard is ready. */
export async function startShardManager(config: Config, logger: Logger): Promise<RunningShardManager> {
  const apiBaseUrl = config.discord.apiBaseUrl ?? DISCORD_API_URL;
  const info = await fetchGatewayInfo(apiBaseUrl, config.discord.token).catch((error: unknown) => {
    throw asDiscordUnreachable(error, apiBaseUrl);
  });
  const count = config.shards === 'auto' || config.shards === undefined ? info.shards : config.shards;
  const manager = new ShardingManager(SHARD_ENTRY, {
    token: config.discord.token,
    totalShards: count,
    // Named, as spawn() would have set it: broadcastEval asks every shard only once all of the list exist.
    shardList: Array.from({ length: count }, (_, id) => id),
    respawn: true,
    mode: 'process',
    execArgv: heapFlags(process.execArgv),
    shardArgs: [],
  });
  manager.on('shardCreate', (shard) => watch(shard, logger, manager));
  logger.info(
    { shards: count, recommended: info.shards, maxConcurrency: info.maxConcurrency },
    'starting shard processes',
  );
  // Shards within one identify bucket may start together; beyond it, one every window, as Discord requires.
  const delay = count <= info.maxConcurrency ? 0 : IDENTIFY_WINDOW_MS;
  const stop = async (): Promise<void> => {
    manager.respawn = false;
    await Promise.all(manager.shards.map((shard) => stopShard(shard)));
  };
  try {
    // ShardingManager.spawn's loop, waiting for SayBot's own ready (ready.ts); no discord.js wait (-1), respawns too.
    for (let id = 0; id < count; id++) {
      const shard = manager.createShard(id);
      const ready = shardReady(shard, SHARD_READY_TIMEOUT_MS);
      await shard.spawn(-1);
      await Promise.all([ready, delay > 0 && id < count - 1 ? sleep(delay) : undefined]);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info({ shards: count }, 'every shard ready');
  const kill = (): void => {
    manager.respawn = false;
    for (const shard of manager.shards.values()) shard.process?.kill('SIGKILL');
  };
  return { manager, stop, kill };
}

/** SIGTERM (the shard shuts down as `npm start` does: voice left, store closed), and waits for it to exit. */
function stopShard(shard: Shard): Promise<void> {
  const child = shard.process;
  if (child === null || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
