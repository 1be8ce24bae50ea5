// What a test reads of the books as a member sees them, and a wait on state an event changes: shared by the e2e
// cases that stop orders at each instant (stop-held, stop-file-held, stop-clone).
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { runCommand, type Harness } from './harness.ts';

/** The server's characters spent this month, as /usage shows them to `userId`. */
export async function spentShown(h: Harness, guildId: string, userId: string): Promise<number> {
  const { content } = await runCommand(h, { guildId, userId, name: 'usage' });
  return Number(/This server: ([\d,]+) characters spent/.exec(content)?.[1]?.replace(/,/g, '') ?? 'NaN');
}

/** Resolves once `check` holds; each check reads state an event changed (a reply, a sandbox record). */
export async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('never happened');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A /say's answer once it is not "Speaking…" or "Queued…" (nor the deletion before a private one). */
export async function answerOf(handle: InteractionHandle, timeoutMs = 20_000): Promise<string> {
  const answer = await handle.waitFor(
    (r) => r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content ?? ''),
    timeoutMs,
  );
  return answer.content ?? '';
}
