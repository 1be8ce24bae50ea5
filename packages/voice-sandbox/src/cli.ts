// `npm run sandbox`: the local Voice API for trying SayBot without a paid plan (the package's command line).
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startSandbox, type Sandbox } from './server.ts';
import { DEFAULT_KEY_FILE, keptSandboxKey } from './key-file.ts';
import { PLAN_LIMITS } from './keys.ts';
import { PRESET_VOICES } from './voices.ts';

export const DEFAULT_PORT = 8787;

const USAGE = `Usage: npm run sandbox -- [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--key KEY]
                      [--realtime-factor 0] [--start-delay-ms 0] [--no-streamed-wav-header]
                      [--fault endless-body]
Environment: HOST, PORT, SANDBOX_KEY, SANDBOX_KEY_FILE (flags win). Without a key, the one kept in
${DEFAULT_KEY_FILE} (or SANDBOX_KEY_FILE) is used, made at the first start: it stays valid across restarts.
--fault endless-body: every 2xx audio answer is billed, then never ends (silence for as long as the client reads).`;

/** The faults a sandbox started from the command line can keep for every request. */
const CLI_FAULTS = ['endless-body'] as const;

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0, not ${JSON.stringify(value)}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      key: { type: 'string' },
      'realtime-factor': { type: 'string' },
      'start-delay-ms': { type: 'string' },
      'streamed-wav-header': { type: 'boolean' },
      fault: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    // --no-streamed-wav-header: exact WAV sizes instead of a streaming synthesiser's header (the default).
    allowNegative: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const fault = CLI_FAULTS.find((kind) => kind === values.fault);
  if (values.fault !== undefined && fault === undefined)
    throw new Error(`--fault must be one of ${CLI_FAULTS.join(', ')}, not ${JSON.stringify(values.fault)}`);
  const given = values.key ?? process.env.SANDBOX_KEY;
  const keyFile = process.env.SANDBOX_KEY_FILE ?? DEFAULT_KEY_FILE;
  const kept = given === undefined ? keptSandboxKey(keyFile) : undefined;
  const key = given ?? kept?.key;
  // The sandbox logs key hints only; should a key reach a line all the same (an error's text), it is taken out.
  const logger = pino({
    hooks: { streamWrite: (line) => (key === undefined ? line : line.replaceAll(key, '[redacted]')) },
  });
  const sandbox: Sandbox = await startSandbox({
    host: values.host ?? process.env.HOST ?? '127.0.0.1',
    port: numberOption(values.port ?? process.env.PORT, 'port') ?? DEFAULT_PORT,
    testKey: key,
    logger,
    pacing: {
      realtimeFactor: numberOption(values['realtime-factor'], '--realtime-factor') ?? 0,
      startDelayMs: numberOption(values['start-delay-ms'], '--start-delay-ms') ?? 0,
      ...(values['streamed-wav-header'] === undefined ? {} : { streamedWavHeader: values['streamed-wav-header'] }),
    },
  });

  if (fault !== undefined) sandbox.injectFault({ kind: fault, times: Infinity });
  console.log(`SayBot Voice API sandbox on ${sandbox.url} (${PRESET_VOICES.length} preset voices; Ctrl+C stops it)`);
  console.log(
    `Test key (Creator plan, ${PLAN_LIMITS.creator.toLocaleString('en-US')} characters a month): ${sandbox.testKey}`,
  );
  if (kept !== undefined) {
    console.log(
      `${kept.created ? 'Made and kept' : 'Kept'} in ${keyFile}: the same key at every start (delete the file for a new one).`,
    );
  }
  console.log('Point SayBot at it with these lines in its environment (.env):');
  console.log(`VOICE_API_BASE_URL=${sandbox.url}`);
  console.log(`VOICE_API_KEY=${sandbox.testKey}`);
  console.log('Try it:');
  console.log(
    `curl -sS -X POST ${sandbox.url}/v1/tts -H 'Authorization: Bearer ${sandbox.testKey}' ` +
      `-H 'Content-Type: application/json' -d '{"text":"Hello from SayBot","voice_id":"voice-b-en-f-01"}' -o hello.wav`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second Ctrl+C does not wait
    stopping = true;
    logger.info({ signal }, 'sandbox stopping');
    sandbox.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        logger.error({ err: error }, 'sandbox did not close cleanly');
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exitCode = 1;
});
