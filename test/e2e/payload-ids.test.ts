// A payload field is never a wildcard: the Speak menu on a message whose author Discord left out is answered in words
// (never "fetch every member", which Discord answers by closing the gateway with 4013), and SayBot keeps answering.
import { describe, expect, it } from 'vitest';
import type { ChatAuthor } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, runCommand } from '../support/harness.ts';
import { ALICE } from '../support/world.ts';

const london = defaultGuilds()[1]!;
const h = useFileHarness({ guilds: [london] });

describe('the Speak menu on a message without its author', () => {
  it('is answered in words, asks Discord for no member list, and SayBot keeps answering', async () => {
    const handle = await h.discord.messageCommand({
      guildId: london.id,
      userId: ALICE,
      name: 'Speak',
      message: { author: undefined as unknown as ChatAuthor, content: 'Who wrote this?' },
    });
    const reply = await handle.waitForFinal();
    expect(reply.content ?? '').toMatch(/did not say who wrote that message/);
    expect(h.logs()).not.toContain('"code":"gateway-lost"');
    // Still on the gateway: the next command is answered.
    const next = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(next.content).toContain('You today:');
  });
});
