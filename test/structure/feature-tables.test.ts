// A feature owns its tables: their steps and types live in its own store/ folder, and the core names none of them
// (the store runs every owner's steps by version: src/core/store/schema-steps.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStep } from '../../src/core/store/schema-steps.ts';
import { AUTO_READ_SCHEMA_STEPS } from '../../src/features/autoread/index-store.ts';
import { ROOT, sourceFiles } from './import-graph.ts';

/** The tables a feature's steps create, read from their statements as compiled. */
function tablesCreatedBy(steps: typeof AUTO_READ_SCHEMA_STEPS): string[] {
  const text = steps.flatMap((step) => compileStep(step, 'sqlite').map((statement) => statement.sql)).join('\n');
  return [...text.matchAll(/create table "(\w+)"/gi)].map((match) => match[1]!);
}

/** Each `file` that names one of `tables` outside a comment, as "file: table". */
function namings(files: readonly string[], tables: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const code = readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const table of tables) if (new RegExp(`\\b${table}\\b`).test(code)) found.push(`${file}: ${table}`);
  }
  return found;
}

describe("a feature's tables", () => {
  const tables = tablesCreatedBy(AUTO_READ_SCHEMA_STEPS);

  it("auto-read's steps create its tables", () => {
    // Step 27 makes auto_read again, its settings held in a copy meanwhile.
    expect([...new Set(tables)].sort()).toEqual([
      'auto_read',
      'auto_read_bindings',
      'auto_read_ignored',
      'auto_read_member_voices',
      'auto_read_settings_copy',
      'auto_read_voice_pool',
      'dictionary_entries',
      'dictionary_versions',
    ]);
  });

  it('are named by no file of the core', () => {
    expect(namings(sourceFiles(['src/core']), tables)).toEqual([]);
  });

  it('are found where a file names one in its code, not in a comment', () => {
    expect(namings(['test/structure/fixtures/names-a-table.ts'], ['auto_read'])).toEqual([
      'test/structure/fixtures/names-a-table.ts: auto_read',
    ]);
  });
});
