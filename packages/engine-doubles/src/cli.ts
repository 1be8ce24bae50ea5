// `npm run engines`: both doubles, for trying SayBot's engine voices without installing an engine (the package's
// command line). It prints the lines an owner puts in SayBot's environment.
import { parseArgs } from 'node:util';
import { FaultSwitch } from './faults.ts';
import { startSpeechServerDouble } from './speech-server.ts';
import { startVoicevoxDouble } from './voicevox.ts';

/** VOICEVOX ENGINE's own port and Kokoro-FastAPI's. */
export const DEFAULT_VOICEVOX_PORT = 50021;
export const DEFAULT_SPEECH_PORT = 8880;

const USAGE = `Usage: npm run engines -- [--host 127.0.0.1] [--voicevox-port ${DEFAULT_VOICEVOX_PORT}] [--speech-port ${DEFAULT_SPEECH_PORT}]
                      [--key KEY] [--speech words|tones] [--fault NAME] [--no-voices-endpoint]
--key: the speech server asks for Authorization: Bearer KEY (default: no key).
--speech: words (eSpeak NG, where the optional espeak-ng package is installed; the default) or tones.
--fault: a fault both doubles keep (down, slow:<ms>, paced:<percent>, html-error, status:<code>, not-audio,
         wrong-format, wrong-rate, endless, huge, truncated, empty); set and clear one at run time with POST /__double/fault {"fault": "...", "times"?: n}.
--no-voices-endpoint: GET /v1/audio/voices answers 404, as openedai-speech does.`;

function portOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${name} must be a port 0..65535, not ${JSON.stringify(value)}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      'voicevox-port': { type: 'string' },
      'speech-port': { type: 'string' },
      key: { type: 'string' },
      speech: { type: 'string' },
      fault: { type: 'string' },
      'voices-endpoint': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowNegative: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const speech = values.speech ?? 'words';
  if (speech !== 'words' && speech !== 'tones')
    throw new Error(`--speech must be words or tones, not ${JSON.stringify(speech)}`);
  if (values.fault !== undefined) new FaultSwitch().set(values.fault); // refused here, before anything listens
  const host = values.host ?? '127.0.0.1';
  const voicevox = await startVoicevoxDouble({
    host,
    port: portOption(values['voicevox-port'], '--voicevox-port', DEFAULT_VOICEVOX_PORT),
    speech,
  });
  const server = await startSpeechServerDouble({
    host,
    port: portOption(values['speech-port'], '--speech-port', DEFAULT_SPEECH_PORT),
    speech,
    ...(values.key === undefined ? {} : { apiKey: values.key }),
    voicesEndpoint: values['voices-endpoint'] ?? true,
  });
  if (values.fault !== undefined) {
    voicevox.faults.set(values.fault);
    server.faults.set(values.fault);
  }
  const styles = voicevox.speakers.reduce((n, s) => n + s.styles.length, 0);
  console.log(
    `VOICEVOX double on ${voicevox.url} (${voicevox.speakers.length} speakers, ${styles} styles; ${voicevox.speech})`,
  );
  console.log(`Speech server double on ${server.url} (${server.voices.length} voices; ${server.speech})`);
  console.log('Point SayBot at them with these lines in its environment (.env):');
  console.log(`VOICEVOX_URL=${voicevox.url}`);
  console.log(`SPEECH_SERVER_URL=${server.url}`);
  if (server.apiKey !== undefined) console.log(`SPEECH_SERVER_KEY=${server.apiKey}`);
  console.log(
    `Faults: curl -sS ${voicevox.url}/__double/fault -d '{"fault":"status:503","times":1}' (Ctrl+C stops both)`,
  );

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1); // a second Ctrl+C does not wait
    stopping = true;
    Promise.all([voicevox.close(), server.close()]).then(
      () => (process.exitCode = 0),
      () => (process.exitCode = 1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`engines: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exitCode = 1;
});
