import { describe, expect, it } from 'vitest';
import { ADMIN, G1, G2, MEMBER, forEachBackend } from './contract.ts';

// The VoiceLibrary area of the store contract: cloned voices and the names held for clones under way.
forEachBackend((store) => {
  describe('voice library', () => {
    const clone = (guildId: string, name: string, voiceId: string) => ({
      guildId,
      name,
      voiceId,
      createdBy: ADMIN,
      clipSeconds: 7.5,
    });

    it('adds a cloned voice visible in its guild only, unique by name', async () => {
      const added = await store.voiceLibrary.add(clone(G1, 'Grandpa', 'clone_aaa'));
      expect(added).toMatchObject({
        status: 'added',
        voice: { name: 'Grandpa', voiceId: 'clone_aaa', clipSeconds: 7.5 },
      });
      expect((await store.voiceLibrary.add(clone(G1, 'grandpa', 'clone_bbb'))).status).toBe('name-taken');
      expect(await store.voiceLibrary.get(G1, 'clone_aaa')).toBeDefined();
      expect(await store.voiceLibrary.get(G2, 'clone_aaa')).toBeUndefined();
      expect((await store.voiceLibrary.findByName(G1, 'GRANDPA'))?.voiceId).toBe('clone_aaa');
      expect(await store.voiceLibrary.list(G2)).toEqual([]);
      expect((await store.voiceLibrary.list(G1, { contains: 'aaa' })).map((v) => v.name)).toEqual(['Grandpa']);
      expect((await store.voiceLibrary.add(clone(G1, 'other', 'clone_ccc'), { maxPerGuild: 1 })).status).toBe('full');
    });

    // bb12: a clone's name was matched as one substring: "my own voice" was not found by "own my".
    it('finds a clone by each word typed, in any order, of its name or ID, in its own guild only, within the limit', async () => {
      await store.voiceLibrary.add(clone(G1, 'my own voice', 'clone_mine'));
      await store.voiceLibrary.add(clone(G1, 'Own Voice Two', 'clone_two'));
      await store.voiceLibrary.add(clone(G2, 'my own voice', 'clone_theirs'));
      const found = async (typed: string, limit?: number) =>
        (await store.voiceLibrary.list(G1, { contains: typed, ...(limit === undefined ? {} : { limit }) })).map(
          (v) => v.voiceId,
        );
      expect(await found('own my')).toEqual(['clone_mine']);
      expect(await found('voice  OWN')).toEqual(['clone_mine', 'clone_two']);
      expect(await found('own mine')).toEqual(['clone_mine']);
      expect(await found('own voice', 1)).toEqual(['clone_mine']);
      expect(await found('own his')).toEqual([]);
      expect(await found('100%_ own')).toEqual([]);
    });

    it('reserves a name before the paid call: a second reservation or add of it is refused, its own add takes it', async () => {
      const reserve = (name: string, maxPerGuild?: number) =>
        store.voiceLibrary.reserveName({
          guildId: G1,
          name,
          reservedBy: ADMIN,
          ttlMs: 60_000,
          ...(maxPerGuild === undefined ? {} : { maxPerGuild }),
        });
      const first = await reserve('Grandpa');
      expect(first.status).toBe('reserved');
      const token = first.status === 'reserved' ? first.token : '';
      expect((await reserve('GRANDPA')).status).toBe('name-taken');
      // Another request's add of the name is refused while it is held; the holder's own add goes through.
      expect((await store.voiceLibrary.add(clone(G1, 'grandpa', 'clone_other'))).status).toBe('name-taken');
      expect((await store.voiceLibrary.add(clone(G1, 'Grandpa', 'clone_aaa'), { reservation: token })).status).toBe(
        'added',
      );
      expect((await reserve('Grandpa')).status).toBe('name-taken');
      // Voices plus names held fill the library.
      expect((await reserve('second', 2)).status).toBe('reserved');
      expect(await reserve('third', 2)).toEqual({ status: 'full', limit: 2 });
      // Other guilds are unaffected.
      expect(
        (await store.voiceLibrary.reserveName({ guildId: G2, name: 'Grandpa', reservedBy: ADMIN, ttlMs: 60_000 }))
          .status,
      ).toBe('reserved');
    });

    it('holds a member without Manage Server to a quarter of the library, their clones under way counted', async () => {
      const reserve = (name: string, reservedBy: string, manager: boolean) =>
        store.voiceLibrary.reserveName({ guildId: G1, name, reservedBy, ttlMs: 60_000, maxPerGuild: 8, manager });
      // 8 voices a server: 2 a member. One voice of theirs and one clone under way fill their share.
      expect(
        (await store.voiceLibrary.add({ ...clone(G1, 'mine', 'clone_mine'), createdBy: MEMBER }, { maxPerGuild: 8 }))
          .status,
      ).toBe('added');
      expect((await reserve('under way', MEMBER, false)).status).toBe('reserved');
      expect(await reserve('one too many', MEMBER, false)).toEqual({ status: 'member-share', share: 2, limit: 8 });
      // A manager, and the member in another server, still have room.
      expect((await reserve('managed', ADMIN, true)).status).toBe('reserved');
      expect(
        (
          await store.voiceLibrary.reserveName({
            guildId: G2,
            name: 'elsewhere',
            reservedBy: MEMBER,
            ttlMs: 60_000,
            maxPerGuild: 8,
            manager: false,
          })
        ).status,
      ).toBe('reserved');
    });

    it('gives a released or expired name back', async () => {
      const held = await store.voiceLibrary.reserveName({
        guildId: G1,
        name: 'echo',
        reservedBy: ADMIN,
        ttlMs: 60_000,
      });
      expect(held.status).toBe('reserved');
      if (held.status === 'reserved') await store.voiceLibrary.releaseName(held.token);
      expect(
        (
          await store.voiceLibrary.reserveName({
            guildId: G1,
            name: 'echo',
            reservedBy: MEMBER,
            ttlMs: 1_000,
            now: new Date('2020-01-01T00:00:00Z'),
          })
        ).status,
      ).toBe('reserved');
      // That one expired long ago (its clock was 2020): the name is free again.
      expect(
        (await store.voiceLibrary.reserveName({ guildId: G1, name: 'echo', reservedBy: ADMIN, ttlMs: 60_000 })).status,
      ).toBe('reserved');
    });

    it('deletes a cloned voice with the presets that use it and unsets it in member defaults, in one go', async () => {
      await store.voiceLibrary.add(clone(G1, 'Grandpa', 'clone_aaa'));
      await store.presets.save({ guildId: G1, name: 'story', voice: 'clone_aaa', createdBy: ADMIN });
      await store.presets.save({ guildId: G1, name: 'plain', voice: 'voice-b-ko-f-01', createdBy: ADMIN });
      await store.presets.setDefault(G1, 'story');
      await store.memberDefaults.set(G1, MEMBER, { voice: 'clone_aaa', tone: 'warm' });

      const deleted = await store.voiceLibrary.delete(G1, 'clone_aaa');
      expect(deleted).toMatchObject({ presetsRemoved: ['story'], memberDefaultsCleared: 1 });
      expect((await store.presets.list(G1)).map((p) => p.name)).toEqual(['plain']);
      expect(await store.presets.getDefault(G1)).toBeUndefined();
      const member = await store.memberDefaults.get(G1, MEMBER);
      expect(member?.voice).toBeUndefined();
      expect(member?.tone).toBe('warm');
      expect(await store.voiceLibrary.delete(G1, 'clone_aaa')).toBeUndefined();
    });

    it("keeps a deleted voice's name on the rows whose voice it was, until told, cleared or another voice is set", async () => {
      await store.voiceLibrary.add(clone(G1, 'Grandpa', 'clone_aaa'));
      await store.memberDefaults.set(G1, MEMBER, { voice: 'clone_aaa' });
      await store.memberDefaults.set(G1, ADMIN, { voice: 'clone_aaa', tone: 'warm' });
      await store.voiceLibrary.delete(G1, 'clone_aaa');
      expect(await store.memberDefaults.get(G1, MEMBER)).toMatchObject({ voiceDeleted: 'Grandpa' });
      expect((await store.memberDefaults.get(G1, MEMBER))?.voice).toBeUndefined();
      // Told: the mark goes, and with it a row that held nothing else.
      expect(await store.memberDefaults.unset(G1, MEMBER, ['voiceDeleted'])).toBeUndefined();
      expect(await store.memberDefaults.get(G1, MEMBER)).toBeUndefined();
      // Another voice set: the mark goes, the rest stays.
      expect(await store.memberDefaults.set(G1, ADMIN, { voice: 'voice-b-ko-f-01' })).not.toHaveProperty(
        'voiceDeleted',
      );
      expect((await store.memberDefaults.get(G1, ADMIN))?.tone).toBe('warm');
    });

    it('notes soundboard sounds saved from a cloned voice, and hands them back when the voice is deleted', async () => {
      await store.voiceLibrary.add(clone(G1, 'Grandpa', 'clone_aaa'));
      await store.voiceLibrary.add(clone(G1, 'Other', 'clone_bbb'));
      expect(await store.voiceLibrary.recordSound(G1, 'clone_aaa', '500000000000000001', new Date(1))).toBe(true);
      expect(await store.voiceLibrary.recordSound(G1, 'clone_bbb', '500000000000000002', new Date(2))).toBe(true);
      // Not a voice of that guild (another's, or one already deleted): nothing noted.
      expect(await store.voiceLibrary.recordSound(G2, 'clone_aaa', '500000000000000003')).toBe(false);
      expect(await store.voiceLibrary.savedSounds(G1)).toEqual(['500000000000000001', '500000000000000002']);
      expect((await store.voiceLibrary.delete(G1, 'clone_aaa'))?.soundsSaved).toEqual(['500000000000000001']);
      expect(await store.voiceLibrary.savedSounds(G1)).toEqual(['500000000000000002']);
      expect(await store.voiceLibrary.recordSound(G1, 'clone_aaa', '500000000000000004')).toBe(false);
    });
  });
});
