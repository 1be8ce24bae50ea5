// `npm run demo` [--out <folder>] [--timeout <seconds>]: see demo.ts. Prints where the results are and exits 0;
// on a failure or past the timeout, one line saying what went wrong and exit 1.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { out: { type: 'string', default: 'demo-output' }, timeout: { type: 'string', default: '90' } },
});
const outDir = path.resolve(values.out);
const timeoutSeconds = Number(values.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
  console.error(`demo: --timeout must be a number of seconds above 0, got ${JSON.stringify(values.timeout)}`);
  process.exit(1);
}

const started = performance.now();
const signal = AbortSignal.timeout(timeoutSeconds * 1000);
try {
  // Imported here so that a missing dependency (a production install without it) is reported in one line too.
  const { runDemo } = await import('./demo.ts');
  const result = await runDemo({ outDir, signal, log: (line) => console.log(`demo: ${line}`) });
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
  console.log(`demo: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(
    `  what the voice channel heard: ${shown(result.heardWav)} (${result.heardSeconds.toFixed(1)} s of ${
      result.speech === 'words' ? 'speech' : 'test tones: install the optional espeak-ng package to hear words'
    })`,
  );
  console.log(`  the file SayBot sent:         ${shown(result.sentFile)}`);
  console.log(`  the voice message it posted:  ${shown(result.voiceMessage)}`);
  console.log(`  the replies:                  ${shown(result.transcript)}`);
  console.log(`  SayBot's log:                 ${shown(result.botLog)}`);
  console.log(`  the dashboard ran on:         ${result.dashboardUrl} (logged in as the demo manager)`);
  process.exit(0);
} catch (error) {
  const reason = signal.aborted
    ? `not finished within ${timeoutSeconds} s`
    : String(error instanceof Error ? error.message : error).split('\n')[0];
  const botLog = path.join(outDir, 'saybot.log');
  const where = existsSync(botLog) ? ` (SayBot's log: ${path.relative(process.cwd(), botLog)})` : '';
  console.error(`demo: failed: ${reason}${where}`);
  process.exit(1);
}
