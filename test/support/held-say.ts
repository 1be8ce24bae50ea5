// A /say whose Voice API answer the sandbox holds once charged (its audio not yet sent) until the test calls
// resumePaused(): what plays or waits can be changed while that paid part is on its way.
import { expect, onTestFinished } from 'vitest';
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

/**
 * The next reply's body stops a second before its end until the test calls resumePaused() (or the test ends): the
 * reply still plays when another server's work ends, however long that work takes on a busy host (an event, not the
 * reply's length, orders them). One Voice API request: `text` within a part.
 */
export function holdReplyNearItsEnd(h: Harness, text: string): void {
  // The sandbox's WAV: a 44-byte header, then 24 kHz 16-bit mono.
  const bytes = 44 + 2 * Math.floor((h.sandbox.expectedDurationSeconds(text) - 1) * 24_000);
  h.sandbox.injectFault({ kind: 'pause-after', bytes, endpoint: 'tts' });
  onTestFinished(() => h.sandbox.resumePaused());
}
