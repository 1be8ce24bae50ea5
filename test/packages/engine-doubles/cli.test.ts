// `npm run engines` starts both doubles and prints the lines an owner puts in SayBot's environment; they answer there,
// and SIGTERM stops both.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../../support/run-child.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm run engines', () => {
  it('prints VOICEVOX_URL and SPEECH_SERVER_URL, both doubles answer there, and SIGTERM stops them', async () => {
    let checked: Promise<[unknown, number, number]> | undefined;
    const args = ['--voicevox-port', '0', '--speech-port', '0', '--speech', 'tones', '--key', 'sk-cli'];
    const { code, stdout, stderr } = await runChild(process.execPath, ['packages/engine-doubles/src/cli.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '' },
      killAfterMs: 20_000,
      onStdout: (output, signal) => {
        const voicevox = /^VOICEVOX_URL=(\S+)$/m.exec(output)?.[1];
        const speech = /^SPEECH_SERVER_URL=(\S+)$/m.exec(output)?.[1];
        if (voicevox === undefined || speech === undefined || !output.includes('Faults:') || checked) return;
        checked = Promise.all([
          fetch(`${voicevox}/version`).then((r) => r.json()),
          fetch(`${speech}/models`, { headers: { Authorization: 'Bearer sk-cli' } }).then((r) => r.status),
          fetch(`${speech}/models`).then((r) => r.status),
        ]).finally(() => signal('SIGTERM'));
      },
    });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^VOICEVOX_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).toMatch(/^SPEECH_SERVER_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    expect(stdout).toMatch(/^SPEECH_SERVER_KEY=sk-cli$/m);
    expect(await checked).toEqual(['0.25.0', 200, 401]);
    expect(code).toBe(0);
  });

  it('refuses an unknown fault before anything listens', async () => {
    const { code, stderr } = await runChild(
      process.execPath,
      ['packages/engine-doubles/src/cli.ts', '--fault', 'sideways'],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '' },
        killAfterMs: 20_000,
      },
    );
    expect(code).toBe(1);
    expect(stderr).toContain('unknown fault "sideways"');
  });
});
