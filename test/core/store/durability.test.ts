import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/app/store.ts';
import { runChild, tempDir } from './helpers.ts';

const GUILD = '900000000000000001'; // the guild store-child.ts writes to
const MEMBER = '900000000000000009';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('concurrent writes', { timeout: 120_000 }, () => {
  it('lose nothing with async writers, a second connection and two other processes on one file', async () => {
    const file = tmp.file();
    const main = openSqliteStore(file);
    const second = openSqliteStore(file);
    const children = [runChild(file, 'many', { arg: 'p1' }), runChild(file, 'many', { arg: 'p2' })];
    const local = Array.from({ length: 40 }, (_, i) =>
      (i % 2 === 0 ? main : second).presets.save({
        guildId: GUILD,
        name: `local-${i}`,
        voice: 'voice-b-en-f-01',
        createdBy: 'main',
      }),
    );
    const results = await Promise.all(local);
    expect(results.every((r) => r.status === 'created')).toBe(true);
    for (const child of await Promise.all(children)) expect(child).toMatchObject({ code: 0, stderr: '' });

    const names = (await main.presets.list(GUILD)).map((p) => p.name);
    expect(names).toHaveLength(120);
    for (const prefix of ['local', 'p1', 'p2'])
      expect(names.filter((n) => n.startsWith(`${prefix}-`))).toHaveLength(40);
    // The member row was merged 80 times from two processes; it ends as one of the last writes, not torn.
    expect((await second.memberDefaults.get(GUILD, MEMBER))?.tone).toMatch(/^p[12]-39$/);
    await main.close();
    await second.close();
  });
});

describe('a crash', { timeout: 120_000 }, () => {
  it('between two committed writes loses neither', async () => {
    const file = tmp.file();
    const child = await runChild(file, 'writes', { kill: true });
    expect(child.signal).toBe('SIGKILL');
    const store = openSqliteStore(file);
    expect((await store.presets.get(GUILD, 'first'))?.voice).toBe('voice-b-ko-m-01');
    expect(await store.memberDefaults.get(GUILD, MEMBER)).toMatchObject({ voice: 'voice-b-ja-f-01', tone: 'calm' });
    await store.close();
  });

  it('in the middle of a transaction leaves the state committed before it, whole', async () => {
    const file = tmp.file();
    const before = openSqliteStore(file);
    await before.presets.save({ guildId: GUILD, name: 'kept', voice: 'voice-b-ko-f-01', createdBy: 'main' });
    await before.close();

    const child = await runChild(file, 'mid-transaction', { kill: true });
    expect(child.signal).toBe('SIGKILL');
    const store = openSqliteStore(file);
    expect((await store.presets.list(GUILD)).map((p) => [p.name, p.voice])).toEqual([['kept', 'voice-b-ko-f-01']]);
    // And the file takes writes again: the dead process's lock went with it.
    expect(
      (await store.presets.save({ guildId: GUILD, name: 'after', voice: 'voice-b-ko-f-01', createdBy: 'main' })).status,
    ).toBe('created');
    await store.close();
  });
});
