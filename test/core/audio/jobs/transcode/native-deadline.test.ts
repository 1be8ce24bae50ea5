// A transcoding thread past its batch deadline while inside the native Opus addon's call must not take the process
// with it: ended from outside there, a node-addon-api addon aborts the whole process (SIGABRT, "FATAL ERROR:
// Error::ThrowAsJavaScriptException napi_throw", nodejs/node-addon-api#902), so it is told to retire and leaves by
// itself after that call (src/core/audio/workers/native-calls.ts). In a child process, so that an abort fails this
// test instead of ending the test runner.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../../../../support/run-child.ts';

const SCRIPT = fileURLToPath(new URL('../../../../support/native-deadline.ts', import.meta.url));

describe('the transcoding pool past a batch deadline', () => {
  it('outlives threads whose deadline passed while they were inside the native Opus encoder', async () => {
    const run = await runChild(process.execPath, [SCRIPT, '5'], { cwd: path.dirname(SCRIPT), killAfterMs: 110_000 });
    expect(run.code, run.stderr.split('\n').slice(0, 3).join('\n')).toBe(0);
    expect(run.stderr).not.toMatch(/FATAL ERROR/);
    // Up to 5 deadlines in 15 rounds of a 2 s deadline: on a host kept busy by two other processes, a thread may still be loading at
    // its deadline (counted apart, as loaded late), but some spin into the encoder and pass it there.
    expect(Number(/^alive after (\d+) deadlines inside the encoder's loop/m.exec(run.stdout)?.[1])).toBeGreaterThan(0);
    // Told to retire rather than ended: those inside the encoder's call at their deadline (most, as it loops on
    // nothing else) left by themselves after it.
    expect(Number(/^(\d+) threads left by themselves$/m.exec(run.stdout)?.[1])).toBeGreaterThan(0);
  }, 120_000);
});
