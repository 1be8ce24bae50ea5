import { describe, expect, it } from 'vitest';
import { memberShare } from '../../../../src/core/store/member-share.ts';
import { MAX_SAVED_SCENES } from '../../../../src/features/scenes/store/scene-area.ts';
import { ADMIN, G1, G2, MEMBER as A, OTHER_MEMBER as B, forEachBackend } from '../../../core/store/contract.ts';

// The Scenes area of the store contract: a server's saved scenes (/scene save, play, list, delete) and their
// deletion rules.
forEachBackend((store) => {
  describe('scenes', () => {
    it('adds a scene and gives it back whole; another server has none', async () => {
      const before = Date.now();
      expect(await store.scenes.save(G1, '  The   Heist ', 'Alice: Go!', A, false)).toEqual({
        status: 'added',
        name: 'The Heist',
      });
      const saved = await store.scenes.get(G1, 'the heist');
      expect(saved).toMatchObject({ name: 'The Heist', script: 'Alice: Go!', savedBy: A });
      expect(saved?.savedAt).toBeGreaterThanOrEqual(before);
      expect(saved?.savedAt).toBeLessThanOrEqual(Date.now());
      expect(await store.scenes.get(G2, 'The Heist')).toBeUndefined();
      expect(await store.scenes.get(G1, 'Another')).toBeUndefined();
    });

    it('keeps one scene per name whatever its case: its author replaces it', async () => {
      await store.scenes.save(G1, 'The Heist', 'Alice: Go!', A, false);
      expect(await store.scenes.save(G1, 'THE HEIST', 'Alice: Stop!', A, false)).toEqual({
        status: 'replaced',
        name: 'THE HEIST',
      });
      expect(await store.scenes.get(G1, 'the heist')).toMatchObject({ name: 'THE HEIST', script: 'Alice: Stop!' });
      expect(await store.scenes.list(G1)).toHaveLength(1);
    });

    it("refuses to replace another member's scene, unless a manager does", async () => {
      await store.scenes.save(G1, 'Duel', 'Alice: En garde!', A, false);
      expect(await store.scenes.save(G1, 'duel', 'Bob: Mine now.', B, false)).toEqual({
        status: 'refused',
        problem: 'not-yours',
      });
      expect(await store.scenes.get(G1, 'Duel')).toMatchObject({ script: 'Alice: En garde!', savedBy: A });
      // The same name in another server is another scene.
      expect((await store.scenes.save(G2, 'Duel', 'Bob: Mine.', B, false)).status).toBe('added');
      expect(await store.scenes.save(G1, 'Duel', 'Narrator: Edited.', ADMIN, true)).toEqual({
        status: 'replaced',
        name: 'Duel',
      });
      expect(await store.scenes.get(G1, 'Duel')).toMatchObject({ script: 'Narrator: Edited.', savedBy: ADMIN });
    });

    it('refuses a new scene past MAX_SAVED_SCENES in a server, but still replaces one', async () => {
      for (let i = 0; i < MAX_SAVED_SCENES; i++) {
        const [by, manager] = i < memberShare(MAX_SAVED_SCENES) ? [A, false] : [ADMIN, true];
        const saved = await store.scenes.save(G1, `scene ${String(i).padStart(2, '0')}`, `A: ${i}`, by, manager);
        expect(saved.status).toBe('added');
      }
      expect(await store.scenes.save(G1, 'one more', 'A: more', B, false)).toEqual({
        status: 'refused',
        problem: 'full',
      });
      // A manager is held to the bound too.
      expect(await store.scenes.save(G1, 'one more', 'A: more', ADMIN, true)).toEqual({
        status: 'refused',
        problem: 'full',
      });
      expect((await store.scenes.save(G1, 'Scene 03', 'A: again', A, false)).status).toBe('replaced');
      expect((await store.scenes.save(G2, 'one more', 'A: more', A, false)).status).toBe('added');
      expect(await store.scenes.list(G1)).toHaveLength(MAX_SAVED_SCENES);
    });

    it("gives one member without Manage Server at most a quarter of the server's scenes; a manager the rest", async () => {
      const share = memberShare(MAX_SAVED_SCENES);
      expect(share).toBe(6);
      for (let i = 0; i < share; i++)
        expect((await store.scenes.save(G1, `mine ${i}`, 'A: x', A, false)).status).toBe('added');
      expect(await store.scenes.save(G1, 'one too many', 'A: x', A, false)).toEqual({
        status: 'refused',
        problem: 'member-share',
        share,
      });
      // Replacing one of their own adds nothing: still theirs to do.
      expect((await store.scenes.save(G1, 'mine 0', 'A: y', A, false)).status).toBe('replaced');
      // Another member, a manager and another server each have room.
      expect((await store.scenes.save(G1, 'theirs', 'B: x', B, false)).status).toBe('added');
      expect((await store.scenes.save(G1, 'managed', 'M: x', ADMIN, true)).status).toBe('added');
      expect((await store.scenes.save(G2, 'elsewhere', 'A: x', A, false)).status).toBe('added');
      // A manager saving over a member's scene makes it the manager's: the member has room again.
      expect((await store.scenes.save(G1, 'mine 1', 'M: y', ADMIN, true)).status).toBe('replaced');
      expect((await store.scenes.save(G1, 'one too many', 'A: x', A, false)).status).toBe('added');
    });

    it('lists the scenes by name, case aside, without their scripts', async () => {
      await store.scenes.save(G1, 'beta', 'B: 2', B, false);
      await store.scenes.save(G1, 'Zed', 'Z: 26', A, false);
      await store.scenes.save(G1, 'alpha', 'A: 1', A, false);
      await store.scenes.save(G2, 'elsewhere', 'E: 5', A, false);
      const listed = await store.scenes.list(G1);
      expect(listed.map((scene) => [scene.name, scene.savedBy])).toEqual([
        ['alpha', A],
        ['beta', B],
        ['Zed', A],
      ]);
      for (const scene of listed) {
        expect(scene).not.toHaveProperty('script');
        expect(typeof scene.savedAt).toBe('number');
      }
      expect(await store.scenes.list('200000000000000009')).toEqual([]);
    });

    it('deletes a scene for its author or a manager; another member is refused; an unknown name is unknown', async () => {
      await store.scenes.save(G1, 'Mine', 'A: 1', A, false);
      await store.scenes.save(G1, 'Also mine', 'A: 2', A, false);
      expect(await store.scenes.delete(G1, 'mine', B, false)).toEqual({ status: 'not-yours' });
      expect(await store.scenes.get(G1, 'Mine')).toBeDefined();
      expect(await store.scenes.delete(G2, 'Mine', A, false)).toEqual({ status: 'unknown' });
      expect(await store.scenes.delete(G1, 'MINE', A, false)).toEqual({ status: 'deleted' });
      expect(await store.scenes.get(G1, 'Mine')).toBeUndefined();
      expect(await store.scenes.delete(G1, 'Mine', A, false)).toEqual({ status: 'unknown' });
      expect(await store.scenes.delete(G1, 'Also mine', ADMIN, true)).toEqual({ status: 'deleted' });
      expect(await store.scenes.list(G1)).toEqual([]);
    });
  });

  describe('scenes: deletion on request', () => {
    async function seed(): Promise<void> {
      await store.scenes.save(G1, 'A in one', 'A: 1', A, false);
      await store.scenes.save(G1, 'B in one', 'B: 1', B, false);
      await store.scenes.save(G2, 'A in two', 'A: 2', A, false);
      await store.scenes.save(G2, 'B in two', 'B: 2', B, false);
    }
    const names = async (guildId: string) => (await store.scenes.list(guildId)).map((scene) => scene.name);

    it("a member's deletion in one server deletes the scenes they saved there, and nobody else's", async () => {
      await seed();
      await store.privacy.forgetMember(A, G1);
      expect(await names(G1)).toEqual(['B in one']);
      expect(await names(G2)).toEqual(['A in two', 'B in two']);
    });

    it("a member's deletion everywhere deletes their scenes in every server", async () => {
      await seed();
      await store.privacy.forgetMember(A);
      expect(await names(G1)).toEqual(['B in one']);
      expect(await names(G2)).toEqual(['B in two']);
    });

    it("shows a member's saved scenes among what is kept about them", async () => {
      await seed();
      const traces = await store.privacy.describeMember(G1, A);
      expect(traces.filter((trace) => trace.table === 'scenes').map((trace) => trace.rows)).toEqual([1]);
    });

    it("a server's deletion deletes every scene of that server only", async () => {
      await seed();
      await store.privacy.forgetGuild(G1);
      expect(await names(G1)).toEqual([]);
      expect(await names(G2)).toEqual(['A in two', 'B in two']);
    });
  });
});
