// Entry point: `npm start`. A bad configuration or unreachable Discord ends in one line, exit 1. SHARDS: the manager.
import { constants as osConstants } from 'node:os';
import { configSecrets, environmentSecrets, loadConfig } from '../core/config.ts';
import { loadDotenv } from '../core/dotenv.ts';
import { createLogger, redactSecrets, type Logger } from '../core/log.ts';
import { startSayBot } from '../app/start-saybot.ts';
import { startShardManager } from '../app/shard/manager.ts';
import { announceShardReady } from '../app/shard/ready.ts';
import { stopSignalPolicy } from '../app/stop-signals.ts';
import { closeSharedTranscodePool } from '../core/audio/jobs/transcode/transcode-pool.ts';
import { closeSharedEncoderPool } from '../core/audio/codecs/opus-pool/opus-pool.ts';

interface Running {
  logger: Logger;
  stop(): Promise<void>;
  /** Ends at once what this process started besides itself (the shard processes), when the owner forces exit. */
  kill?(): void;
}

let running: Running | undefined;
let stopSignal: NodeJS.Signals | 'disconnect' | undefined;
const signals = stopSignalPolicy({ isShard: process.send !== undefined });

async function shutdown(run: Running, signal: NodeJS.Signals | 'disconnect'): Promise<never> {
  run.logger.info({ signal }, signal === 'disconnect' ? 'shard manager gone' : 'signal received');
  let code = 0;
  try {
    await run.stop();
  } catch (error) {
    run.logger.error({ err: error }, 'shutdown failed');
    code = 1;
  }
  // A failed shutdown exits too: with its audio threads retired first, as a clean one.
  await retireAudioThreads();
  process.exit(code);
}

/** Opus threads retire before exit: one inside an addon call at exit would abort the process (native-calls.ts). */
async function retireAudioThreads(): Promise<void> {
  await Promise.all([closeSharedTranscodePool(), closeSharedEncoderPool()]);
}

/** Asked again while the shutdown runs: the owner does not want to wait (exit code 128 + the signal, as a kill). */
function forceExit(signal: NodeJS.Signals | 'disconnect'): never {
  const message = 'signal received again: exiting without finishing the shutdown';
  if (running) running.logger.warn({ signal }, message);
  else process.stderr.write(`${message}\n`);
  running?.kill?.();
  process.exit(signal === 'disconnect' ? 1 : 128 + (osConstants.signals[signal] ?? 0));
}

function stopOn(signal: NodeJS.Signals | 'disconnect'): void {
  const action = signals.next(Date.now());
  if (action === 'force-exit') forceExit(signal);
  if (action === 'ignore') return;
  stopSignal = signal;
  if (running) void shutdown(running, signal);
}

// Listen before starting, so that a signal during start-up still ends in a clean stop.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopOn(signal));
// A shard whose manager is gone would run unmanaged (and twice, once the manager is started again).
if (process.send !== undefined) process.on('disconnect', () => stopOn('disconnect'));

/** How long a process whose gateway is lost waits for its shutdown (books, voice, store) before it exits anyway. */
const GATEWAY_LOST_STOP_MS = 15_000;

/** The gateway closed for good: exit 1 after shutdown, so the supervisor restarts SayBot rather than leave it deaf. */
let lost = false;
function gatewayLost(): void {
  if (lost || stopSignal !== undefined) return;
  lost = true;
  setTimeout(() => process.exit(1), GATEWAY_LOST_STOP_MS).unref();
  void (running?.stop() ?? Promise.resolve()).then(retireAudioThreads).finally(() => process.exit(1));
}

async function start(): Promise<Running> {
  loadDotenv(process.env);
  const config = loadConfig(process.env);
  const seams = { onGatewayLost: gatewayLost };
  if (config.shard !== undefined) {
    const bot = await startSayBot(config, seams);
    announceShardReady();
    return bot;
  }
  if (config.shards === undefined) return startSayBot(config, seams);
  const logger = createLogger({ level: config.logLevel, secrets: configSecrets(config) }).child({
    role: 'shard-manager',
  });
  const manager = await startShardManager(config, logger);
  return { logger, stop: () => manager.stop(), kill: () => manager.kill() };
}

try {
  running = await start();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${redactSecrets(message, environmentSecrets(process.env))}\n`);
  process.exit(1);
}
if (stopSignal) await shutdown(running, stopSignal);
