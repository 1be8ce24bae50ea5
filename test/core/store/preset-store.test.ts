import { describe, expect, it } from 'vitest';
import { ADMIN, G1, G2, MEMBER, forEachBackend } from './contract.ts';

// The Preset area of the store contract: presets, the default preset, member defaults.
forEachBackend((store) => {
  describe('presets', () => {
    it('saves, finds by any case, lists per guild only, and replaces on a second save', async () => {
      const first = await store.presets.save({
        guildId: G1,
        name: 'Narrator',
        voice: 'voice-b-ko-m-01',
        language: 'ko',
        tone: 'slow',
        createdBy: ADMIN,
      });
      expect(first.status).toBe('created');
      expect((await store.presets.get(G1, 'NARRATOR'))?.voice).toBe('voice-b-ko-m-01');
      expect(await store.presets.get(G2, 'narrator')).toBeUndefined();
      expect(await store.presets.list(G2)).toEqual([]);

      const second = await store.presets.save({
        guildId: G1,
        name: 'narrator',
        voice: 'voice-b-en-m-01',
        format: 'mp3',
        createdBy: MEMBER,
      });
      expect(second.status).toBe('updated');
      const list = await store.presets.list(G1);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ name: 'narrator', voice: 'voice-b-en-m-01', format: 'mp3', createdBy: MEMBER });
      // Fields the new save leaves out are not inherited from the old one.
      expect(list[0]?.language).toBeUndefined();
      expect(list[0]?.tone).toBeUndefined();
    });

    it('treats names as one across case and width in any script', async () => {
      await store.presets.save({ guildId: G1, name: 'Émile', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      expect((await store.presets.get(G1, 'émile'))?.name).toBe('Émile');
      await store.presets.save({ guildId: G1, name: 'ＡＢ', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      expect((await store.presets.get(G1, 'ab'))?.name).toBe('ＡＢ');
    });

    it('filters by contained text (wildcards taken literally) and language, in name order, up to a limit', async () => {
      for (const [name, language] of [
        ['news ko', 'ko'],
        ['news en', 'en'],
        ['any', undefined],
        ['50%_off', 'en'],
      ] as const) {
        await store.presets.save({
          guildId: G1,
          name,
          voice: 'voice-b-ko-f-01',
          ...(language ? { language } : {}),
          createdBy: ADMIN,
        });
      }
      expect((await store.presets.list(G1, { contains: 'NEWS' })).map((p) => p.name)).toEqual(['news en', 'news ko']);
      expect((await store.presets.list(G1, { contains: '%_' })).map((p) => p.name)).toEqual(['50%_off']);
      expect((await store.presets.list(G1, { language: 'ko' })).map((p) => p.name)).toEqual(['any', 'news ko']);
      expect(await store.presets.list(G1, { limit: 2 })).toHaveLength(2);
    });

    it('refuses a new preset past the per-guild limit but still updates an existing one', async () => {
      await store.presets.save(
        { guildId: G1, name: 'a', voice: 'voice-b-ko-f-01', createdBy: ADMIN },
        { maxPerGuild: 1 },
      );
      expect(
        await store.presets.save(
          { guildId: G1, name: 'b', voice: 'voice-b-ko-f-01', createdBy: ADMIN },
          { maxPerGuild: 1 },
        ),
      ).toEqual({ status: 'full', limit: 1 });
      expect(
        (
          await store.presets.save(
            { guildId: G1, name: 'A', voice: 'voice-b-ja-f-01', createdBy: ADMIN },
            { maxPerGuild: 1 },
          )
        ).status,
      ).toBe('updated');
      expect(
        (
          await store.presets.save(
            { guildId: G2, name: 'b', voice: 'voice-b-ko-f-01', createdBy: ADMIN },
            { maxPerGuild: 1 },
          )
        ).status,
      ).toBe('created');
    });

    it('keeps the default across an update and clears it when the preset is deleted', async () => {
      await store.presets.save({ guildId: G1, name: 'house', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      expect(await store.presets.setDefault(G1, 'HOUSE')).toBe(true);
      expect(await store.presets.setDefault(G1, 'missing')).toBe(false);
      expect((await store.presets.getDefault(G1))?.name).toBe('house');
      expect(await store.presets.getDefault(G2)).toBeUndefined();

      await store.presets.save({ guildId: G1, name: 'house', voice: 'voice-b-ja-m-01', createdBy: ADMIN });
      expect((await store.presets.getDefault(G1))?.voice).toBe('voice-b-ja-m-01');

      const deleted = await store.presets.delete(G1, 'house');
      expect(deleted).toMatchObject({ wasDefault: true, preset: { name: 'house' } });
      expect(await store.presets.getDefault(G1)).toBeUndefined();
      expect(await store.presets.delete(G1, 'house')).toBeUndefined();
    });

    it('keeps speed and volume, and a later save without them leaves them unset', async () => {
      await store.presets.save({
        guildId: G1,
        name: 'brisk',
        voice: 'voice-b-ko-f-01',
        speed: 1.25,
        volume: -6.5,
        createdBy: ADMIN,
      });
      expect(await store.presets.get(G1, 'brisk')).toMatchObject({ speed: 1.25, volume: -6.5 });
      await store.presets.setDefault(G1, 'brisk');
      expect(await store.presets.getDefault(G1)).toMatchObject({ speed: 1.25, volume: -6.5 });
      await store.presets.save({ guildId: G1, name: 'brisk', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      const again = await store.presets.get(G1, 'brisk');
      expect(again?.speed).toBeUndefined();
      expect(again?.volume).toBeUndefined();
    });

    it('unsets the default with null', async () => {
      await store.presets.save({ guildId: G1, name: 'x', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      await store.presets.setDefault(G1, 'x');
      expect(await store.presets.setDefault(G1, null)).toBe(true);
      expect(await store.presets.getDefault(G1)).toBeUndefined();
      expect((await store.presets.delete(G1, 'x'))?.wasDefault).toBe(false);
    });
  });

  describe('member defaults', () => {
    it("keeps the member's spoken name and read_me, merged like the rest, and deletes them with the member", async () => {
      await store.memberDefaults.set(G1, MEMBER, { voice: 'voice-b-ja-f-01' });
      expect(await store.memberDefaults.get(G1, MEMBER)).not.toHaveProperty('readMe');
      await store.memberDefaults.set(G1, MEMBER, { spokenName: 'Min-ji', readMe: false });
      expect(await store.memberDefaults.set(G1, MEMBER, { tone: 'calm' })).toMatchObject({
        voice: 'voice-b-ja-f-01',
        spokenName: 'Min-ji',
        readMe: false,
      });
      expect(await store.memberDefaults.set(G1, MEMBER, { readMe: true })).toMatchObject({
        spokenName: 'Min-ji',
        readMe: true,
      });
      await store.privacy.forgetMember(MEMBER);
      expect(await store.memberDefaults.get(G1, MEMBER)).toBeUndefined();
    });

    it('unsets only the fields named, keeps the rest, and deletes the row once nothing is left', async () => {
      await store.memberDefaults.set(G1, MEMBER, { spokenName: 'Min-ji', speed: 0.75, readMe: false });
      await store.memberDefaults.set(G2, MEMBER, { spokenName: 'Minnie' });
      const left = await store.memberDefaults.unset(G1, MEMBER, ['spokenName']);
      expect(left).toMatchObject({ speed: 0.75, readMe: false });
      expect(left).not.toHaveProperty('spokenName');
      expect(await store.memberDefaults.get(G1, MEMBER)).toEqual(left);
      expect((await store.memberDefaults.get(G2, MEMBER))?.spokenName).toBe('Minnie'); // another guild's
      expect(await store.memberDefaults.unset(G1, MEMBER, ['speed', 'readMe'])).toBeUndefined();
      expect(await store.memberDefaults.get(G1, MEMBER)).toBeUndefined();
      expect(await store.memberDefaults.clear(G1, MEMBER)).toBe(false); // the row is gone, not left empty
      expect(await store.memberDefaults.unset(G1, MEMBER, ['voice'])).toBeUndefined();
    });

    it('merges speed and volume like the other fields', async () => {
      await store.memberDefaults.set(G1, MEMBER, { speed: 0.75 });
      expect(await store.memberDefaults.set(G1, MEMBER, { volume: 3 })).toMatchObject({ speed: 0.75, volume: 3 });
      expect(await store.memberDefaults.set(G1, MEMBER, { speed: 2 })).toMatchObject({ speed: 2, volume: 3 });
    });

    it('merges each set into what was there, per guild, and clears', async () => {
      await store.memberDefaults.set(G1, MEMBER, { voice: 'voice-b-ja-f-01', tone: 'calm' });
      const merged = await store.memberDefaults.set(G1, MEMBER, { format: 'mp3', tone: 'bright' });
      expect(merged).toMatchObject({ voice: 'voice-b-ja-f-01', tone: 'bright', format: 'mp3' });
      expect(await store.memberDefaults.get(G2, MEMBER)).toBeUndefined();
      expect(await store.memberDefaults.clear(G1, MEMBER)).toBe(true);
      expect(await store.memberDefaults.get(G1, MEMBER)).toBeUndefined();
      expect(await store.memberDefaults.clear(G1, MEMBER)).toBe(false);
    });
  });
});
