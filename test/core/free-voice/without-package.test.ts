// Without the optional eSpeak NG package (`npm ci --omit=optional`), in a process of its own that cannot resolve it:
// the free voice says it is unavailable, with its own error, and nothing else of SayBot needs it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../../support/run-child.ts';

const HIDE = fileURLToPath(new URL('../../support/without-espeak.ts', import.meta.url));
const ENGINE = fileURLToPath(new URL('../../../src/core/free-voice/free-voice-engine.ts', import.meta.url));
const START = fileURLToPath(new URL('../../../src/app/start-saybot.ts', import.meta.url));

const script = `
const engine = await import(${JSON.stringify(ENGINE)});
await import(${JSON.stringify(START)});
const installed = engine.freeVoiceInstalled();
const spoken = await engine.speakFree('Hello', 'free-en-f').then(() => 'spoken', (error) => error.name + ': ' + error.message);
console.log(JSON.stringify({ installed, spoken }));
`;

describe('SayBot without eSpeak NG', () => {
  it('loads, and its free voice says it is unavailable', async () => {
    const run = await runChild(process.execPath, ['--import', HIDE, '--input-type=module', '-e', script], {
      killAfterMs: 20_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      installed: false,
      spoken: 'FreeVoiceMissingError: the free voice is unavailable: the optional package espeak-ng is not installed',
    });
  });
});
