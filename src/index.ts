// Entry point: `npm start`. Configuration errors end the process with one line per problem and exit code 1.
import { startSayBot } from './main.ts';

const running = await startSayBot(process.env).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, 'signal received');
    running
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
