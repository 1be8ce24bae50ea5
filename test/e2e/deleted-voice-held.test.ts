// A cloned voice deleted while a line in it is at the service, not yet charged (the sandbox holds it before its
// charge): nobody is to hear it, so the call is closed as a /stop closes it, before the service counts anything; it
// stays on the books as maybe charged, never fewer than billed.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { answerOf, spentShown, until } from '../support/books-shown.ts';
import { booksSettled } from '../support/books-settled.ts';
import { madeClone } from '../support/clones.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000982';
const VC = '220000000000000982';
const A = '300000000000009821';
const MANAGER = '300000000000009822';
const TEXT = 'The very same line asked by two members at once.'; // 48 characters
const guilds = [
  oneRoomGuild(GUILD, 'Deleted', { text: '210000000000000982', voice: VC }, [
    { id: A, username: 'a', locale: 'en-US', voiceChannelId: VC },
    { id: MANAGER, username: 'm', locale: 'en-US', voiceChannelId: VC, permissions: PermissionFlagsBits.ManageGuild },
  ]),
];
const harnessFor = useHarnessPerTest();

describe('a cloned voice deleted while its line is held at the service before its charge', () => {
  it('the call is closed before its charge: nothing billed for it, booked as maybe charged', async () => {
    const h = await harnessFor({ guilds, config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 } });
    const clone = await madeClone(h, GUILD, MANAGER, 'heldvoice');
    await booksSettled(h);
    const [billedBefore, spentBefore] = [h.sandbox.charactersBilled(), await spentShown(h, GUILD, A)];
    const calls = () => h.sandbox.requests.filter((r) => r.endpoint === 'tts');
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const say = await h.discord.command({
      guildId: GUILD,
      userId: A,
      name: 'say',
      options: [
        { name: 'text', value: TEXT },
        { name: 'voice', value: clone },
      ],
    });
    await until(() => calls()[0]?.outcome === 'waiting');
    const options = { voice: clone };
    await runCommand(h, { guildId: GUILD, userId: MANAGER, name: 'voices', subcommand: 'delete', options });
    await until(() => calls()[0]?.outcome === 'client-aborted');
    h.sandbox.resumePaused();
    expect(await answerOf(say, 30_000)).toMatch(/deleted/);
    await booksSettled(h);
    expect(calls()).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(billedBefore);
    expect((await spentShown(h, GUILD, A)) - spentBefore).toBe(TEXT.length);
  });
});
