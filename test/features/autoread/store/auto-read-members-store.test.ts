import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  G1,
  G2,
  MEMBER as A,
  OTHER_MEMBER as B,
  THIRD_MEMBER as C,
  forEachBackend,
} from '../../../core/store/contract.ts';

// The AutoReadMembers area of the store contract: the voice pool, each member's pool voice, the ignore list.
forEachBackend((store) => {
  describe('auto-read members', () => {
    it('keeps a bounded pool; removing one frees the members who had it', async () => {
      expect(await store.autoReadMembers.pool(G1)).toEqual([]);
      expect(await store.autoReadMembers.addToPool(G1, 'voice-b-en-m-01', ADMIN, 2)).toBe('added');
      expect(await store.autoReadMembers.addToPool(G1, 'voice-b-en-f-01', ADMIN, 2)).toBe('added');
      expect(await store.autoReadMembers.addToPool(G1, 'voice-b-en-f-01', ADMIN, 2)).toBe('already');
      expect(await store.autoReadMembers.addToPool(G1, 'voice-b-en-f-02', ADMIN, 2)).toBe('full');
      // In the order added (within one millisecond, by ID).
      expect((await store.autoReadMembers.pool(G1)).sort()).toEqual(['voice-b-en-f-01', 'voice-b-en-m-01']);
      expect(await store.autoReadMembers.pool(G2)).toEqual([]);

      await store.autoReadMembers.assignVoice(G1, A, 'voice-b-en-m-01', 100);
      await store.autoReadMembers.assignVoice(G1, B, 'voice-b-en-f-01', 100);
      expect(await store.autoReadMembers.removeFromPool(G1, 'voice-b-en-m-01')).toBe(true);
      expect(await store.autoReadMembers.removeFromPool(G1, 'voice-b-en-m-01')).toBe(false);
      expect(await store.autoReadMembers.pool(G1)).toEqual(['voice-b-en-f-01']);
      expect(await store.autoReadMembers.memberVoice(G1, A)).toBeUndefined();
      expect(await store.autoReadMembers.memberVoice(G1, B)).toBe('voice-b-en-f-01');
    });

    it("keeps each member's voice, counts them per voice, and drops the oldest past the bound", async () => {
      // Within one millisecond the oldest is the lowest ID: A is the oldest either way.
      await store.autoReadMembers.assignVoice(G1, A, 'voice-b-en-m-01', 2);
      await store.autoReadMembers.assignVoice(G1, B, 'voice-b-en-m-01', 2);
      await store.autoReadMembers.assignVoice(G2, A, 'voice-b-ko-f-01', 2);
      expect(await store.autoReadMembers.voiceCounts(G1)).toEqual(new Map([['voice-b-en-m-01', 2]]));
      // Replacing keeps one row per member.
      await store.autoReadMembers.assignVoice(G1, B, 'voice-b-en-f-01', 2);
      expect(await store.autoReadMembers.voiceCounts(G1)).toEqual(
        new Map([
          ['voice-b-en-m-01', 1],
          ['voice-b-en-f-01', 1],
        ]),
      );
      // A third member passes the bound of two: the oldest assignment (A's) goes, the new one stays.
      await store.autoReadMembers.assignVoice(G1, C, 'voice-b-en-m-02', 2);
      const listed = await store.autoReadMembers.memberVoices(G1, 10);
      expect(listed.total).toBe(2);
      expect(listed.members.map((m) => [m.userId, m.voice]).sort()).toEqual([
        [B, 'voice-b-en-f-01'],
        [C, 'voice-b-en-m-02'],
      ]);
      expect(await store.autoReadMembers.memberVoice(G2, A)).toBe('voice-b-ko-f-01');
      expect((await store.autoReadMembers.memberVoices(G1, 1)).members).toHaveLength(1);
    });

    it('keeps a bounded ignore list per guild', async () => {
      expect(await store.autoReadMembers.ignore(G1, A, ADMIN, 2)).toBe('added');
      expect(await store.autoReadMembers.ignore(G1, A, ADMIN, 2)).toBe('already');
      expect(await store.autoReadMembers.ignore(G1, B, ADMIN, 2)).toBe('added');
      expect(await store.autoReadMembers.ignore(G1, C, ADMIN, 2)).toBe('full');
      expect(await store.autoReadMembers.ignore(G2, C, ADMIN, 2)).toBe('added');
      expect(await store.autoReadMembers.ignored(G1)).toEqual([A, B]);
      expect(await store.autoReadMembers.unignore(G1, A)).toBe(true);
      expect(await store.autoReadMembers.unignore(G1, A)).toBe(false);
      expect(await store.autoReadMembers.ignored(G1)).toEqual([B]);
    });

    it('forgets a deleted cloned voice in the pool and in the members who had it', async () => {
      await store.voiceLibrary.add({
        guildId: G1,
        name: 'narrator',
        voiceId: 'clone-1',
        createdBy: ADMIN,
        clipSeconds: 10,
      });
      await store.autoReadMembers.addToPool(G1, 'clone-1', ADMIN, 25);
      await store.autoReadMembers.addToPool(G1, 'voice-b-en-m-01', ADMIN, 25);
      await store.autoReadMembers.assignVoice(G1, A, 'clone-1', 100);
      await store.voiceLibrary.delete(G1, 'clone-1');
      expect(await store.autoReadMembers.pool(G1)).toEqual(['voice-b-en-m-01']);
      expect(await store.autoReadMembers.memberVoice(G1, A)).toBeUndefined();
    });

    it("adds a cloned voice to the pool only while the guild's library holds it", async () => {
      await store.voiceLibrary.add({
        guildId: G1,
        name: 'narrator',
        voiceId: 'clone-1',
        createdBy: ADMIN,
        clipSeconds: 10,
      });
      // Another guild's voice is not this guild's to add; a deleted one is no one's.
      expect(await store.autoReadMembers.addToPool(G2, 'clone-1', ADMIN, 25)).toBe('unknown-voice');
      await store.voiceLibrary.delete(G1, 'clone-1');
      expect(await store.autoReadMembers.addToPool(G1, 'clone-1', ADMIN, 25)).toBe('unknown-voice');
      expect(await store.autoReadMembers.pool(G1)).toEqual([]);
      expect(await store.autoReadMembers.addToPool(G1, 'voice-b-en-m-01', ADMIN, 25)).toBe('added');
      // An engine's or eSpeak NG's voice is no library's: whether it may be saved is usableVoice's to say.
      for (const voice of ['voicevox:3', 'free-en-f'])
        expect(await store.autoReadMembers.addToPool(G1, voice, ADMIN, 25)).toBe('added');
    });
  });
});
