// Entry point: `npm start`. Configuration errors end the process with one line per problem, and an unreachable
// Discord with one line, and exit code 1.
import { redactSecrets } from './log.ts';
import { startSayBotFromEnv, type RunningSayBot } from './main.ts';

let running: RunningSayBot | undefined;
let stopSignal: NodeJS.Signals | undefined;

async function shutdown(bot: RunningSayBot, signal: NodeJS.Signals): Promise<never> {
  bot.logger.info({ signal }, 'signal received');
  try {
    await bot.stop();
    process.exit(0);
  } catch (error) {
    bot.logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}

// Listen before starting, so that a signal during start-up still ends in a clean stop.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopSignal) return;
    stopSignal = signal;
    if (running) void shutdown(running, signal);
  });
}

try {
  running = await startSayBotFromEnv(process.env);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const secrets = [process.env['DISCORD_TOKEN'] ?? '', process.env['VOICE_API_KEY'] ?? ''];
  process.stderr.write(`${redactSecrets(message, secrets)}\n`);
  process.exit(1);
}
if (stopSignal) await shutdown(running, stopSignal);
