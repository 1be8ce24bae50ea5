import { describe, expect, it } from 'vitest';
import { AUTO_READ_DEFAULTS } from '../../../../src/features/autoread/store/auto-read-store.ts';
import { ADMIN, G1, G2, forEachBackend } from '../../../core/store/contract.ts';

const TEXT = '400000000000000001';
const VOICE = '400000000000000002';
const TEXT_2 = '400000000000000003';
const VOICE_2 = '400000000000000004';
const ROLE = '500000000000000001';

// The AutoRead area of the store contract: each binding (a text channel read into a voice channel), whether it reads,
// the server's settings.
forEachBackend((store, backend) => {
  describe('auto-read', () => {
    it('reads nothing with the default settings in a guild that never started it', async () => {
      expect(await store.autoRead.get(G1)).toEqual({ guildId: G1, bindings: [], settings: { ...AUTO_READ_DEFAULTS } });
      expect(AUTO_READ_DEFAULTS).toEqual({
        sayAuthorName: true,
        maxLength: 200,
        readBots: false,
        onlyMembersInVoice: true,
        announceJoinLeave: false,
        readSilent: true,
        autojoin: false,
        fasterAfter: 3,
        maxSpeed: 1.5,
        skipAfter: 10,
        voices: 'one',
        readAttachments: true,
        freeVoice: false,
      });
      expect(await store.autoRead.listReading()).toEqual([]);
      expect(await store.autoRead.stop(G1)).toBe(false);
    });

    it("binds the channels and reads; a stop keeps the binding; a new start replaces its voice channel's", async () => {
      const startedAt = new Date('2025-03-10T12:00:00Z');
      const started = await store.autoRead.start(G1, {
        textChannelId: TEXT,
        voiceChannelId: VOICE,
        startedBy: ADMIN,
        startedAt,
      });
      const binding = { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN, startedAt, reading: true };
      expect(started).toEqual({ kind: 'started', binding });
      expect(await store.autoRead.get(G1)).toEqual({
        guildId: G1,
        bindings: [binding],
        settings: { ...AUTO_READ_DEFAULTS },
      });
      expect((await store.autoRead.get(G2)).bindings).toEqual([]);

      expect(await store.autoRead.stop(G1, VOICE)).toBe(true);
      expect(await store.autoRead.stop(G1, VOICE)).toBe(false);
      expect((await store.autoRead.get(G1)).bindings).toEqual([{ ...binding, reading: false, stoppedWhy: 'asked' }]);

      // The voice channel's own chat: text and voice are the same channel.
      const again = await store.autoRead.start(G1, { textChannelId: VOICE, voiceChannelId: VOICE, startedBy: ADMIN });
      expect(again).toMatchObject({ binding: { textChannelId: VOICE, voiceChannelId: VOICE, reading: true } });
      expect((await store.autoRead.get(G1)).bindings).toHaveLength(1);
    });

    it('keeps two bindings of one server apart: each read, stopped and listed on its own', async () => {
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.start(G1, { textChannelId: TEXT_2, voiceChannelId: VOICE_2, startedBy: ADMIN });
      expect(
        (await store.autoRead.get(G1)).bindings.map((b) => [b.textChannelId, b.voiceChannelId, b.reading]),
      ).toEqual([
        [TEXT, VOICE, true],
        [TEXT_2, VOICE_2, true],
      ]);
      expect(await store.autoRead.stop(G1, VOICE_2)).toBe(true);
      expect((await store.autoRead.get(G1)).bindings.map((b) => b.reading)).toEqual([true, false]);
      expect(await store.autoRead.stop(G1)).toBe(true);
      expect((await store.autoRead.get(G1)).bindings.map((b) => b.reading)).toEqual([false, false]);
    });

    it('refuses a text channel read into another voice channel, and a server whose bindings all read at the bound', async () => {
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      expect(
        await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE_2, startedBy: ADMIN }),
      ).toEqual({ kind: 'text-taken', voiceChannelId: VOICE });
      // Another server may read a channel of the same ID (IDs are global; this is the store's rule, not Discord's).
      expect(
        (await store.autoRead.start(G2, { textChannelId: TEXT, voiceChannelId: VOICE_2, startedBy: ADMIN })).kind,
      ).toBe('started');
      await store.autoRead.start(G1, { textChannelId: TEXT_2, voiceChannelId: VOICE_2, startedBy: ADMIN }, 2);
      const third = { textChannelId: '400000000000000005', voiceChannelId: '400000000000000006', startedBy: ADMIN };
      expect(await store.autoRead.start(G1, third, 2)).toEqual({ kind: 'full' });
      // One stopped: the oldest binding not reading makes room.
      await store.autoRead.stop(G1, VOICE);
      expect((await store.autoRead.start(G1, third, 2)).kind).toBe('started');
      expect((await store.autoRead.get(G1)).bindings.map((b) => b.voiceChannelId)).toEqual([
        VOICE_2,
        third.voiceChannelId,
      ]);
    });

    it('lists the bindings reading now, in guild then voice channel order, for a restart to resume', async () => {
      await store.autoRead.start(G2, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.start(G1, { textChannelId: TEXT_2, voiceChannelId: VOICE_2, startedBy: ADMIN });
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.setSettings('200000000000000003', { readBots: true }, ADMIN); // settings only, never started
      const listed = async () =>
        (await store.autoRead.listReading()).map((one) => [one.guildId, one.binding.voiceChannelId]);
      expect(await listed()).toEqual([
        [G1, VOICE],
        [G1, VOICE_2],
        [G2, VOICE],
      ]);
      await store.autoRead.stop(G2);
      await store.autoRead.stop(G1, VOICE);
      expect(await listed()).toEqual([[G1, VOICE_2]]);
    });

    it('changes the settings given, keeps the others, puts one back to its default with null', async () => {
      expect(
        await store.autoRead.setSettings(G1, { maxLength: 80, readBots: true, requiredRoleId: ROLE }, ADMIN),
      ).toEqual({
        ...AUTO_READ_DEFAULTS,
        maxLength: 80,
        readBots: true,
        requiredRoleId: ROLE,
      });
      expect(
        await store.autoRead.setSettings(
          G1,
          { sayAuthorName: false, onlyMembersInVoice: false, announceJoinLeave: true, maxLength: null },
          ADMIN,
        ),
      ).toEqual({
        ...AUTO_READ_DEFAULTS,
        sayAuthorName: false,
        maxLength: 200,
        readBots: true,
        requiredRoleId: ROLE,
        onlyMembersInVoice: false,
        announceJoinLeave: true,
      });
      expect((await store.autoRead.setSettings(G1, { requiredRoleId: null }, ADMIN)).requiredRoleId).toBeUndefined();
      expect((await store.autoRead.get(G2)).settings).toEqual({ ...AUTO_READ_DEFAULTS });

      // Starting and stopping leave the settings alone, and the settings leave the binding alone.
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.stop(G1, VOICE);
      expect((await store.autoRead.get(G1)).settings).toMatchObject({
        sayAuthorName: false,
        readBots: true,
        announceJoinLeave: true,
      });
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.setSettings(G1, { readBots: false }, ADMIN);
      expect(await store.autoRead.get(G1)).toMatchObject({ bindings: [{ reading: true, textChannelId: TEXT }] });
    });

    it('keeps the skip prefix, silent, auto-join and backlog settings; null puts each back', async () => {
      const changed = await store.autoRead.setSettings(
        G1,
        { skipPrefix: '!!', readSilent: false, autojoin: true, fasterAfter: 2, maxSpeed: 1.75, skipAfter: 6 },
        ADMIN,
      );
      expect(changed).toEqual({
        ...AUTO_READ_DEFAULTS,
        skipPrefix: '!!',
        readSilent: false,
        autojoin: true,
        fasterAfter: 2,
        maxSpeed: 1.75,
        skipAfter: 6,
      });
      expect((await store.autoRead.get(G1)).settings).toEqual(changed);
      const back = await store.autoRead.setSettings(G1, { skipPrefix: null, readSilent: null, maxSpeed: null }, ADMIN);
      expect(back).toEqual({ ...AUTO_READ_DEFAULTS, autojoin: true, fasterAfter: 2, skipAfter: 6 });
      await expect(store.autoRead.setSettings(G1, { maxSpeed: 3 }, ADMIN)).rejects.toThrow();
    });

    it('keeps voices: distinct, and null puts back one voice for everyone', async () => {
      expect((await store.autoRead.setSettings(G1, { voices: 'distinct' }, ADMIN)).voices).toBe('distinct');
      expect((await store.autoRead.get(G1)).settings.voices).toBe('distinct');
      expect((await store.autoRead.setSettings(G1, { voices: null }, ADMIN)).voices).toBe('one');
    });

    it('keeps read_attachments off (its column added by a schema-builder step on this database), and null puts it back on', async () => {
      expect((await store.autoRead.setSettings(G1, { readAttachments: false }, ADMIN)).readAttachments).toBe(false);
      expect((await store.autoRead.get(G1)).settings).toEqual({ ...AUTO_READ_DEFAULTS, readAttachments: false });
      expect((await store.autoRead.setSettings(G1, { readAttachments: null }, ADMIN)).readAttachments).toBe(true);
    });

    it('records why reading stopped: SayBot leaving by itself, or asked (also after it left)', async () => {
      const why = async () => (await store.autoRead.get(G1)).bindings[0]?.stoppedWhy;
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      expect(await why()).toBeUndefined();
      expect(await store.autoRead.stop(G1, VOICE, 'left-voice')).toBe(true);
      expect(await why()).toBe('left-voice');
      expect(await store.autoRead.stop(G1, VOICE)).toBe(false);
      expect(await why()).toBe('asked');
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      expect(await why()).toBeUndefined();
    });

    it('refuses a max length that is not positive', async () => {
      await expect(store.autoRead.setSettings(G1, { maxLength: 0 }, ADMIN)).rejects.toThrow();
      expect((await store.autoRead.get(G1)).settings.maxLength).toBe(200);
    });

    it('keeps binding and settings for another connection to the same database (a restart)', async () => {
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.setSettings(G1, { maxLength: 120 }, ADMIN);
      const other = await backend.openAnother();
      try {
        expect(await other.autoRead.listReading()).toEqual([
          { guildId: G1, binding: (await store.autoRead.get(G1)).bindings[0] },
        ]);
        expect((await other.autoRead.get(G1)).settings.maxLength).toBe(120);
      } finally {
        await other.close();
      }
    });
  });
});
