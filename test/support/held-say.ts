// A /say whose Voice API answer the sandbox holds once charged (its audio not yet sent) until the test calls
// resumePaused(): what plays or waits can be changed while that paid part is on its way.
import { expect } from 'vitest';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import type { Harness } from './harness.ts';

/** `userId`'s /say of `text` in `guildId`: its handle, once the sandbox holds its request (its reply after the resume). */
export async function heldSay(h: Harness, guildId: string, userId: string, text: string): Promise<InteractionHandle> {
  h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
  const handle = await h.discord.command({ guildId, userId, name: 'say', options: [{ name: 'text', value: text }] });
  await expect
    .poll(() => h.sandbox.requests.some((r) => r.text === text && r.outcome === 'held'), { timeout: 20_000 })
    .toBe(true);
  return handle;
}
