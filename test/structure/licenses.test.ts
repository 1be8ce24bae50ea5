import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { licenceAllowed, licenceRows, type LockPackage } from '../../scripts/licenses.ts';
import { ROOT, resolveImport, sourceFiles, staticImports } from './import-graph.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('licences', () => {
  it('SayBot is MIT: the LICENSE file and package.json say so', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    expect((JSON.parse(read('package.json')) as { license?: string }).license).toBe('MIT');
  });

  it("every package the lockfile installs is under a licence that allows MIT (npm run licenses' check)", () => {
    const rows = licenceRows(JSON.parse(read('package-lock.json')) as { packages: Record<string, LockPackage> });
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((row) => !row.allowed).map((row) => `${row.name}@${row.version}: ${row.licence}`)).toEqual([]);
  });

  it('lists eSpeak NG (GPL) as an optional dependency, which no module of SayBot imports statically', () => {
    const rows = licenceRows(JSON.parse(read('package-lock.json')) as { packages: Record<string, LockPackage> });
    expect(rows.find((row) => row.name === 'espeak-ng')).toMatchObject({ licence: 'GPL-3.0-or-later', optional: true });
    const statically = sourceFiles(['src', 'commands']).filter((file) =>
      staticImports(file).some((specifier) => specifier === 'espeak-ng' || specifier.startsWith('espeak-ng/')),
    );
    expect(statically).toEqual([]);
  });

  it("lists kuromoji (Apache-2.0, the free voice's Japanese analyser) as optional, loaded by the free voice's worker only", () => {
    const rows = licenceRows(JSON.parse(read('package-lock.json')) as { packages: Record<string, LockPackage> });
    expect(rows.find((row) => row.name === 'kuromoji')).toMatchObject({ licence: 'Apache-2.0', optional: true });
    const files = sourceFiles(['src', 'commands']);
    const importing = (target: string) =>
      files.filter((file) => staticImports(file).some((specifier) => resolveImport(file, specifier) === target));
    expect(importing('src/core/free-voice/reading/japanese-analyser.ts')).toEqual([
      'src/core/free-voice/espeak-worker.ts',
    ]);
    expect(importing('src/core/free-voice/espeak-worker.ts')).toEqual([]);
  });

  it('refuses a copyleft or unstated licence and reads AND / OR expressions', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/strong': { version: '1.0.0', license: 'GPL-3.0' },
        'node_modules/unstated': { version: '1.0.0' },
        'node_modules/fonts': { version: '1.0.0', license: 'MIT AND OFL-1.1' },
        'node_modules/either': { version: '1.0.0', license: '(MIT OR GPL-3.0)' },
        'node_modules/left-out': { version: '1.0.0', license: 'GPL-3.0-or-later', optional: true },
        'node_modules/@saybot/local-discord': { link: true },
      },
    };
    expect(licenceRows(lock).map((row) => [row.name, row.allowed])).toEqual([
      ['either', true],
      ['fonts', true],
      ['left-out', true],
      ['strong', false],
      ['unstated', false],
    ]);
    expect(licenceAllowed('AGPL-3.0 AND MIT')).toBe(false);
  });
});
