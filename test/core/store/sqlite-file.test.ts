import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LATEST_SCHEMA_VERSION as LATEST_VERSION } from '../../../src/app/store.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import { tempDir } from './helpers.ts';

const G1 = '200000000000000001';
const ADMIN = '300000000000000001';
const MEMBER = '300000000000000002';

describe('the file', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it('creates its directory, runs in WAL mode at the latest schema, and keeps everything across a reopen', async () => {
    const file = `${tmp.dir}/nested/dir/saybot.sqlite`;
    const first = openSqliteStore(file);
    expect(first.schemaVersion).toBe(LATEST_VERSION);
    await first.presets.save({ guildId: G1, name: 'kept', voice: 'voice-b-ja-m-01', tone: 'soft', createdBy: ADMIN });
    await first.presets.setDefault(G1, 'kept');
    await first.memberDefaults.set(G1, MEMBER, { language: 'ja' });
    await first.voiceLibrary.add({ guildId: G1, name: 'v', voiceId: 'clone_x', createdBy: ADMIN, clipSeconds: 4 });
    await first.autoRead.start(G1, {
      textChannelId: '400000000000000001',
      voiceChannelId: '400000000000000002',
      startedBy: ADMIN,
    });
    await first.autoRead.setSettings(G1, { readBots: true }, ADMIN);
    await first.dictionary.put(G1, 'SayBot', 'say bot', ADMIN);
    await first.outputDefaults.setServer(G1, 'voice-message', ADMIN);
    await first.close();
    await first.close(); // idempotent
    await expect(first.presets.list(G1)).rejects.toThrow();

    const again = openSqliteStore(file);
    expect((await again.presets.getDefault(G1))?.tone).toBe('soft');
    expect((await again.memberDefaults.get(G1, MEMBER))?.language).toBe('ja');
    expect((await again.voiceLibrary.get(G1, 'clone_x'))?.clipSeconds).toBe(4);
    expect(await again.autoRead.listReading()).toMatchObject([
      { guildId: G1, binding: { voiceChannelId: '400000000000000002' } },
    ]);
    expect((await again.autoRead.get(G1)).settings).toMatchObject({ readBots: true });
    expect(await again.dictionary.list(G1)).toEqual([{ word: 'SayBot', reading: 'say bot' }]);
    expect(await again.outputDefaults.get(G1, MEMBER)).toEqual({ server: 'voice-message' });
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(file);
    expect(raw.prepare('PRAGMA journal_mode').get()?.['journal_mode']).toBe('wal');
    raw.close();
    await again.close();
  });
});

describe('prepared statements', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    tmp.cleanup();
  });

  it("are prepared once per query, whatever the values: a spend's service figures are parameters, not SQL text", async () => {
    const store = openSqliteStore(`${tmp.dir}/saybot.sqlite`);
    // Observed, not replaced: every statement the connection prepares (it keeps them by SQL text).
    const prepare = vi.spyOn(DatabaseSync.prototype, 'prepare');
    for (let used = 10; used <= 50; used += 10) {
      await store.spends.record({
        at: new Date('2025-03-10T12:00:00Z'),
        guildId: G1,
        userId: MEMBER,
        command: 'say',
        endpoint: 'tts',
        characters: 10,
        cached: false,
        service: { limit: 300_000, used, remaining: 300_000 - used, resetAt: new Date('2025-04-01T00:00:00Z') },
      });
    }
    expect((await store.quota.get()).service).toMatchObject({ used: 50, remaining: 299_950 });
    const sqls = prepare.mock.calls.map(([sql]) => sql);
    // Each different text would be one more statement held in the connection's cache for every request paid.
    expect(sqls.filter((sql) => sql.startsWith('update "quota_state"'))).toHaveLength(1);
    expect(new Set(sqls).size).toBe(sqls.length);
    await store.close();
  });
});
