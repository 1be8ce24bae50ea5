import { describe, expect, it } from 'vitest';
import { FORGET_NOTICE_TTL_MS } from '../../../src/core/store/areas/privacy.ts';
import { G1, MEMBER as A, OTHER_MEMBER as B, forEachBackend } from './contract.ts';

// The ForgetNotices area of the store contract: deletions another process made, for running bots to hear of.
forEachBackend((store) => {
  describe('forget notices', () => {
    it('keeps a notice a minute, naming the server and member only by keyed pseudonyms', async () => {
      const at = Date.now();
      await store.forgetNotices.add({ guildId: G1, userId: A }, at);
      await store.forgetNotices.add({ guildId: G1 }, at + 1);
      const notices = await store.forgetNotices.recent(at + 2);
      expect(notices).toHaveLength(2);
      expect(JSON.stringify(notices)).not.toContain(A);
      expect(JSON.stringify(notices)).not.toContain(G1);
      const [member, server] = notices;
      expect(member).toMatchObject({ at, guildKey: await store.forgetNotices.guildKey(G1) });
      expect(member?.memberKey).toBe(await store.forgetNotices.memberKey(A));
      expect(member?.memberKey).not.toBe(await store.forgetNotices.memberKey(B));
      expect(server?.memberKey).toBeUndefined();
      expect(member?.token).not.toBe(server?.token);
      // Past the minute they are gone, read or written.
      expect(await store.forgetNotices.recent(at + FORGET_NOTICE_TTL_MS + 2)).toEqual([]);
    });
  });
});
