import { describe, expect, it } from 'vitest';
import { ADMIN, G1, G2, MEMBER as A, OTHER_MEMBER as B, forEachBackend } from './contract.ts';

// The OutputDefaults area of the store contract: how replies reach members outside voice.
forEachBackend((store) => {
  describe('output defaults', () => {
    it('has none set until a server or a member sets one', async () => {
      expect(await store.outputDefaults.get(G1, A)).toEqual({});
    });

    it('keeps the server default and each member default apart, per guild, and removes them with null', async () => {
      await store.outputDefaults.setServer(G1, 'voice-message', ADMIN);
      await store.outputDefaults.setMember(G1, A, 'file');
      expect(await store.outputDefaults.get(G1, A)).toEqual({ server: 'voice-message', member: 'file' });
      expect(await store.outputDefaults.get(G1, B)).toEqual({ server: 'voice-message' });
      expect(await store.outputDefaults.get(G2, A)).toEqual({});

      await store.outputDefaults.setServer(G1, 'file', ADMIN);
      await store.outputDefaults.setMember(G1, A, 'voice-message');
      expect(await store.outputDefaults.get(G1, A)).toEqual({ server: 'file', member: 'voice-message' });

      await store.outputDefaults.setServer(G1, null, ADMIN);
      expect(await store.outputDefaults.get(G1, A)).toEqual({ member: 'voice-message' });
      await store.outputDefaults.setMember(G1, A, null);
      await store.outputDefaults.setMember(G1, A, null); // removing what is not there is fine
      expect(await store.outputDefaults.get(G1, A)).toEqual({});
    });

    it('is untouched by the member clearing their voice defaults (/myvoice), a separate thing', async () => {
      await store.memberDefaults.set(G1, A, { voice: 'voice-b-ko-f-01' });
      await store.outputDefaults.setMember(G1, A, 'voice-message');
      await store.memberDefaults.clear(G1, A);
      expect(await store.outputDefaults.get(G1, A)).toEqual({ member: 'voice-message' });
    });
  });
});
