// A voice message's Opus encoding runs in the audio worker, whose thread is ended when a job passes its limit. A
// thread ended inside the native Opus addon's call aborts the whole process (SIGABRT: the addon's exception cannot
// be thrown into a stopping thread), so the worker must encode with what a thread's end stops safely. In a child
// process, so that an abort fails this test instead of ending the test runner.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../../../../support/run-child.ts';

const SCRIPT = fileURLToPath(new URL('../../../../support/opus-job-ended.ts', import.meta.url));

describe("the audio worker's Opus encoding", () => {
  it('may be ended by its limit at any moment of its encoding without ending the process', async () => {
    const run = await runChild(process.execPath, [SCRIPT], { cwd: path.dirname(SCRIPT) });
    expect(run.code, run.stderr.split('\n').slice(0, 5).join('\n')).toBe(0);
    expect(run.stdout).toMatch(/^alive after [1-5] ended$/m);
  }, 120_000);
});
