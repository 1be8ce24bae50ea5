import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import { LATEST_VERSION } from '../../src/store/migrations.ts';
import type { Store } from '../../src/store/types.ts';
import { BACKENDS } from './backends.ts';
import { tempDir } from './helpers.ts';

const G1 = '200000000000000001';
const G2 = '200000000000000002';
const ADMIN = '300000000000000001';
const MEMBER = '300000000000000002';

// The store contract: the same tests against every backend (SQLite, and a real PostgreSQL started here).
describe.each(BACKENDS.map((make) => ({ make, name: make.name.replace('Backend', '') })))('$name', ({ make }) => {
  const backend = make();
  afterAll(() => backend.stop());

  let store: Store;
  beforeEach(async () => {
    store = await backend.open();
  });
  afterEach(async () => {
    await store.close();
  });

  describe('presets', () => {
    it('saves, finds by any case, lists per guild only, and replaces on a second save', async () => {
      const first = await store.savePreset({ guildId: G1, name: 'Narrator', voice: 'voice-b-ko-m-01', language: 'ko', tone: 'slow', createdBy: ADMIN });
      expect(first.status).toBe('created');
      expect((await store.getPreset(G1, 'NARRATOR'))?.voice).toBe('voice-b-ko-m-01');
      expect(await store.getPreset(G2, 'narrator')).toBeUndefined();
      expect(await store.listPresets(G2)).toEqual([]);

      const second = await store.savePreset({ guildId: G1, name: 'narrator', voice: 'voice-b-en-m-01', format: 'mp3', createdBy: MEMBER });
      expect(second.status).toBe('updated');
      const list = await store.listPresets(G1);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ name: 'narrator', voice: 'voice-b-en-m-01', format: 'mp3', createdBy: MEMBER });
      // Fields the new save leaves out are not inherited from the old one.
      expect(list[0]?.language).toBeUndefined();
      expect(list[0]?.tone).toBeUndefined();
    });

    it('treats names as one across case and width in any script', async () => {
      await store.savePreset({ guildId: G1, name: 'Émile', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      expect((await store.getPreset(G1, 'émile'))?.name).toBe('Émile');
      await store.savePreset({ guildId: G1, name: 'ＡＢ', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      expect((await store.getPreset(G1, 'ab'))?.name).toBe('ＡＢ');
    });

    it('filters by contained text (wildcards taken literally) and language, in name order, up to a limit', async () => {
      for (const [name, language] of [['news ko', 'ko'], ['news en', 'en'], ['any', undefined], ['50%_off', 'en']] as const) {
        await store.savePreset({ guildId: G1, name, voice: 'voice-b-ko-f-01', ...(language ? { language } : {}), createdBy: ADMIN });
      }
      expect((await store.listPresets(G1, { contains: 'NEWS' })).map((p) => p.name)).toEqual(['news en', 'news ko']);
      expect((await store.listPresets(G1, { contains: '%_' })).map((p) => p.name)).toEqual(['50%_off']);
      expect((await store.listPresets(G1, { language: 'ko' })).map((p) => p.name)).toEqual(['any', 'news ko']);
      expect(await store.listPresets(G1, { limit: 2 })).toHaveLength(2);
    });

    it('refuses a new preset past the per-guild limit but still updates an existing one', async () => {
      await store.savePreset({ guildId: G1, name: 'a', voice: 'voice-b-ko-f-01', createdBy: ADMIN }, { maxPerGuild: 1 });
      expect(await store.savePreset({ guildId: G1, name: 'b', voice: 'voice-b-ko-f-01', createdBy: ADMIN }, { maxPerGuild: 1 })).toEqual({ status: 'full', limit: 1 });
      expect((await store.savePreset({ guildId: G1, name: 'A', voice: 'voice-b-ja-f-01', createdBy: ADMIN }, { maxPerGuild: 1 })).status).toBe('updated');
      expect((await store.savePreset({ guildId: G2, name: 'b', voice: 'voice-b-ko-f-01', createdBy: ADMIN }, { maxPerGuild: 1 })).status).toBe('created');
    });

    it('keeps the default across an update and clears it when the preset is deleted', async () => {
      await store.savePreset({ guildId: G1, name: 'house', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      expect(await store.setDefaultPreset(G1, 'HOUSE')).toBe(true);
      expect(await store.setDefaultPreset(G1, 'missing')).toBe(false);
      expect((await store.getDefaultPreset(G1))?.name).toBe('house');
      expect(await store.getDefaultPreset(G2)).toBeUndefined();

      await store.savePreset({ guildId: G1, name: 'house', voice: 'voice-b-ja-m-01', createdBy: ADMIN });
      expect((await store.getDefaultPreset(G1))?.voice).toBe('voice-b-ja-m-01');

      const deleted = await store.deletePreset(G1, 'house');
      expect(deleted).toMatchObject({ wasDefault: true, preset: { name: 'house' } });
      expect(await store.getDefaultPreset(G1)).toBeUndefined();
      expect(await store.deletePreset(G1, 'house')).toBeUndefined();
    });

    it('unsets the default with null', async () => {
      await store.savePreset({ guildId: G1, name: 'x', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      await store.setDefaultPreset(G1, 'x');
      expect(await store.setDefaultPreset(G1, null)).toBe(true);
      expect(await store.getDefaultPreset(G1)).toBeUndefined();
      expect((await store.deletePreset(G1, 'x'))?.wasDefault).toBe(false);
    });
  });

  describe('member defaults', () => {
    it('merges each set into what was there, per guild, and clears', async () => {
      await store.setMemberDefaults(G1, MEMBER, { voice: 'voice-b-ja-f-01', tone: 'calm' });
      const merged = await store.setMemberDefaults(G1, MEMBER, { format: 'mp3', tone: 'bright' });
      expect(merged).toMatchObject({ voice: 'voice-b-ja-f-01', tone: 'bright', format: 'mp3' });
      expect(await store.getMemberDefaults(G2, MEMBER)).toBeUndefined();
      expect(await store.clearMemberDefaults(G1, MEMBER)).toBe(true);
      expect(await store.getMemberDefaults(G1, MEMBER)).toBeUndefined();
      expect(await store.clearMemberDefaults(G1, MEMBER)).toBe(false);
    });
  });

  describe('voice library', () => {
    const clone = (guildId: string, name: string, voiceId: string) => ({ guildId, name, voiceId, createdBy: ADMIN, clipSeconds: 7.5 });

    it('adds a cloned voice visible in its guild only, unique by name', async () => {
      const added = await store.addClonedVoice(clone(G1, 'Grandpa', 'clone_aaa'));
      expect(added).toMatchObject({ status: 'added', voice: { name: 'Grandpa', voiceId: 'clone_aaa', clipSeconds: 7.5 } });
      expect((await store.addClonedVoice(clone(G1, 'grandpa', 'clone_bbb'))).status).toBe('name-taken');
      expect(await store.getClonedVoice(G1, 'clone_aaa')).toBeDefined();
      expect(await store.getClonedVoice(G2, 'clone_aaa')).toBeUndefined();
      expect((await store.findClonedVoiceByName(G1, 'GRANDPA'))?.voiceId).toBe('clone_aaa');
      expect(await store.listClonedVoices(G2)).toEqual([]);
      expect((await store.listClonedVoices(G1, { contains: 'aaa' })).map((v) => v.name)).toEqual(['Grandpa']);
      expect((await store.addClonedVoice(clone(G1, 'other', 'clone_ccc'), { maxPerGuild: 1 })).status).toBe('full');
    });

    it('reserves a name before the paid call: a second reservation or add of it is refused, its own add takes it', async () => {
      const reserve = (name: string, maxPerGuild?: number) =>
        store.reserveClonedVoiceName({ guildId: G1, name, reservedBy: ADMIN, ttlMs: 60_000, ...(maxPerGuild === undefined ? {} : { maxPerGuild }) });
      const first = await reserve('Grandpa');
      expect(first.status).toBe('reserved');
      const token = first.status === 'reserved' ? first.token : '';
      expect((await reserve('GRANDPA')).status).toBe('name-taken');
      // Another request's add of the name is refused while it is held; the holder's own add goes through.
      expect((await store.addClonedVoice(clone(G1, 'grandpa', 'clone_other'))).status).toBe('name-taken');
      expect((await store.addClonedVoice(clone(G1, 'Grandpa', 'clone_aaa'), { reservation: token })).status).toBe('added');
      expect((await reserve('Grandpa')).status).toBe('name-taken');
      // Voices plus names held fill the library.
      expect((await reserve('second', 2)).status).toBe('reserved');
      expect(await reserve('third', 2)).toEqual({ status: 'full', limit: 2 });
      // Other guilds are unaffected.
      expect((await store.reserveClonedVoiceName({ guildId: G2, name: 'Grandpa', reservedBy: ADMIN, ttlMs: 60_000 })).status).toBe('reserved');
    });

    it('gives a released or expired name back', async () => {
      const held = await store.reserveClonedVoiceName({ guildId: G1, name: 'echo', reservedBy: ADMIN, ttlMs: 60_000 });
      expect(held.status).toBe('reserved');
      if (held.status === 'reserved') await store.releaseClonedVoiceName(held.token);
      expect((await store.reserveClonedVoiceName({ guildId: G1, name: 'echo', reservedBy: MEMBER, ttlMs: 1_000, now: new Date('2020-01-01T00:00:00Z') })).status).toBe('reserved');
      // That one expired long ago (its clock was 2020): the name is free again.
      expect((await store.reserveClonedVoiceName({ guildId: G1, name: 'echo', reservedBy: ADMIN, ttlMs: 60_000 })).status).toBe('reserved');
    });

    it('deletes a cloned voice with the presets that use it and unsets it in member defaults, in one go', async () => {
      await store.addClonedVoice(clone(G1, 'Grandpa', 'clone_aaa'));
      await store.savePreset({ guildId: G1, name: 'story', voice: 'clone_aaa', createdBy: ADMIN });
      await store.savePreset({ guildId: G1, name: 'plain', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      await store.setDefaultPreset(G1, 'story');
      await store.setMemberDefaults(G1, MEMBER, { voice: 'clone_aaa', tone: 'warm' });

      const deleted = await store.deleteClonedVoice(G1, 'clone_aaa');
      expect(deleted).toMatchObject({ presetsRemoved: ['story'], memberDefaultsCleared: 1 });
      expect((await store.listPresets(G1)).map((p) => p.name)).toEqual(['plain']);
      expect(await store.getDefaultPreset(G1)).toBeUndefined();
      const member = await store.getMemberDefaults(G1, MEMBER);
      expect(member?.voice).toBeUndefined();
      expect(member?.tone).toBe('warm');
      expect(await store.deleteClonedVoice(G1, 'clone_aaa')).toBeUndefined();
    });
  });
});

describe('the file', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it('creates its directory, runs in WAL mode at the latest schema, and keeps everything across a reopen', async () => {
    const file = `${tmp.dir}/nested/dir/saybot.sqlite`;
    const first = new SqliteStore(file);
    expect(first.schemaVersion).toBe(LATEST_VERSION);
    await first.savePreset({ guildId: G1, name: 'kept', voice: 'voice-b-ja-m-01', tone: 'soft', createdBy: ADMIN });
    await first.setDefaultPreset(G1, 'kept');
    await first.setMemberDefaults(G1, MEMBER, { language: 'ja' });
    await first.addClonedVoice({ guildId: G1, name: 'v', voiceId: 'clone_x', createdBy: ADMIN, clipSeconds: 4 });
    await first.close();
    await first.close(); // idempotent
    await expect(first.listPresets(G1)).rejects.toThrow();

    const again = new SqliteStore(file);
    expect((await again.getDefaultPreset(G1))?.tone).toBe('soft');
    expect((await again.getMemberDefaults(G1, MEMBER))?.language).toBe('ja');
    expect((await again.getClonedVoice(G1, 'clone_x'))?.clipSeconds).toBe(4);
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(file);
    expect(raw.prepare('PRAGMA journal_mode').get()?.['journal_mode']).toBe('wal');
    raw.close();
    await again.close();
  });
});
