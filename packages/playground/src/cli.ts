// `npm run playground`: SayBot in a browser with no account and no key. Starts the local Discord, the Voice API
// sandbox and SayBot (as `npm start` runs it, dashboard on), prints the page's address, and stays up until Ctrl-C.
import { parseArgs } from 'node:util';
import { startPlayground } from './playground.ts';

const USAGE = `Usage: npm run playground -- [--host 127.0.0.1] [--port 0] [--tones]
  --host   where the page listens (default 127.0.0.1, this machine only). Anything else lets other machines use it:
           they act as any member of the playground's server, and the dashboard's sign-in still needs this machine.
  --port   the page's port (default: any free one)
  --tones  test tones instead of words, even where eSpeak NG is installed`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      tones: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return console.log(USAGE);
  const host = values.host ?? '127.0.0.1';
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be 0-65535, not ${values.port}`);
  if (!LOOPBACK.has(host))
    console.warn(
      `playground: WARNING: listening on ${host}, not 127.0.0.1: anyone who can reach it can use it as any member ` +
        'of the playground server (nothing there is real, but it runs on this machine).',
    );
  const playground = await startPlayground({
    host,
    port,
    speech: values.tones === true ? 'tones' : 'words',
    log: (line) => console.log(`playground: ${line}`),
  });
  console.log(
    `playground: the sandbox speaks ${playground.speech === 'words' ? 'words (eSpeak NG)' : 'test tones (install the optional espeak-ng package for words)'}`,
  );
  console.log(`playground: open ${playground.url}  (Ctrl-C stops it)`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second Ctrl-C does not wait
    stopping = true;
    console.log(`playground: ${signal}: stopping SayBot and the local servers…`);
    playground.stop().then(
      () => {
        console.log('playground: stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`playground: did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`playground: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  console.error(USAGE);
  process.exitCode = 1;
});
