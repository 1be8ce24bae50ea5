// SayBot stopped (a signal, docker stop) while a transcoding thread is inside the native Opus addon's call: the
// process exits 0, it does not abort. Exiting ends every worker thread's environment, and one inside a node-addon-api
// call then aborts the whole process ("FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw": seen once at the
// end of a shutdown at one core, test/deploy/signals.test.ts), so src/bin/start.ts closes the process's pools first,
// and a pool's close waits for a thread inside the addon to leave by itself (src/core/audio/workers/native-calls.ts).
// In a child process, so that an abort fails this test instead of ending the test runner.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../../../../support/run-child.ts';

const SCRIPT = fileURLToPath(new URL('../../../../support/exit-while-native.ts', import.meta.url));

describe('a process that exits while its transcoding thread is inside the Opus addon', () => {
  it('exits 0 with no FATAL ERROR when its pool is closed first, as SayBot closes its pools before it exits', async () => {
    const run = await runChild(process.execPath, [SCRIPT, 'retired'], {
      cwd: path.dirname(SCRIPT),
      killAfterMs: 60_000,
    });
    expect(run.stderr).not.toMatch(/FATAL ERROR/);
    expect(run.stdout).toMatch(/^exiting$/m);
    expect(run.code).toBe(0);
  }, 90_000);
});
