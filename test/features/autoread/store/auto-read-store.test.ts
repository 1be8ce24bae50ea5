import { describe, expect, it } from 'vitest';
import { AUTO_READ_DEFAULTS } from '../../../../src/features/autoread/store/auto-read-store.ts';
import { ADMIN, G1, G2, forEachBackend } from '../../../core/store/contract.ts';

const TEXT = '400000000000000001';
const VOICE = '400000000000000002';
const ROLE = '500000000000000001';

// The AutoRead area of the store contract: which channels a guild reads, whether it reads, its settings.
forEachBackend((store, backend) => {
  describe('auto-read', () => {
    it('reads nothing with the default settings in a guild that never started it', async () => {
      expect(await store.autoRead.get(G1)).toEqual({
        guildId: G1,
        reading: false,
        settings: { ...AUTO_READ_DEFAULTS },
      });
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

    it('binds the channels and reads; a stop keeps the binding; a new start replaces it', async () => {
      const startedAt = new Date('2025-03-10T12:00:00Z');
      const started = await store.autoRead.start(G1, {
        textChannelId: TEXT,
        voiceChannelId: VOICE,
        startedBy: ADMIN,
        startedAt,
      });
      expect(started).toEqual({
        guildId: G1,
        reading: true,
        binding: { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN, startedAt },
        settings: { ...AUTO_READ_DEFAULTS },
      });
      expect(await store.autoRead.get(G1)).toEqual(started);
      expect((await store.autoRead.get(G2)).reading).toBe(false);

      expect(await store.autoRead.stop(G1)).toBe(true);
      expect(await store.autoRead.stop(G1)).toBe(false);
      const stopped = await store.autoRead.get(G1);
      expect(stopped.reading).toBe(false);
      expect(stopped.binding).toEqual(started.binding);

      // The voice channel's own chat: text and voice are the same channel.
      const again = await store.autoRead.start(G1, { textChannelId: VOICE, voiceChannelId: VOICE, startedBy: ADMIN });
      expect(again.reading).toBe(true);
      expect(again.binding).toMatchObject({ textChannelId: VOICE, voiceChannelId: VOICE });
    });

    it('lists the guilds reading now, in ID order, for a restart to resume', async () => {
      await store.autoRead.start(G2, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.setSettings('200000000000000003', { readBots: true }, ADMIN); // settings only, never started
      expect((await store.autoRead.listReading()).map((s) => s.guildId)).toEqual([G1, G2]);
      await store.autoRead.stop(G2);
      expect((await store.autoRead.listReading()).map((s) => s.guildId)).toEqual([G1]);
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
      await store.autoRead.stop(G1);
      expect((await store.autoRead.get(G1)).settings).toMatchObject({
        sayAuthorName: false,
        readBots: true,
        announceJoinLeave: true,
      });
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      await store.autoRead.setSettings(G1, { readBots: false }, ADMIN);
      expect(await store.autoRead.get(G1)).toMatchObject({ reading: true, binding: { textChannelId: TEXT } });
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
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      expect((await store.autoRead.get(G1)).stoppedWhy).toBeUndefined();
      expect(await store.autoRead.stop(G1, 'left-voice')).toBe(true);
      expect((await store.autoRead.get(G1)).stoppedWhy).toBe('left-voice');
      expect(await store.autoRead.stop(G1)).toBe(false);
      expect((await store.autoRead.get(G1)).stoppedWhy).toBe('asked');
      await store.autoRead.start(G1, { textChannelId: TEXT, voiceChannelId: VOICE, startedBy: ADMIN });
      expect((await store.autoRead.get(G1)).stoppedWhy).toBeUndefined();
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
        expect(await other.autoRead.listReading()).toEqual([await store.autoRead.get(G1)]);
        expect((await other.autoRead.get(G1)).settings.maxLength).toBe(120);
      } finally {
        await other.close();
      }
    });
  });
});
