// The month as the service counts it, end to end against the sandbox with a key also used elsewhere (its dashboard):
// /usage tells the service's used and left after a 429 and after a 2xx, "too few left" names the figure, a part that
// cannot fit by it asks the service again (one at a time: a hint, not a wall), and the books still equal what the
// sandbox billed.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';

const GUILD = '200000000000000781';
const OWNER = '300000000000007811'; // Manage Server, outside voice: files; sees the plan's figures
const VOICE_ID = 'voice-b-en-f-01';

const guilds: FakeGuildSpec[] = [
  oneRoomGuild(GUILD, 'Shared key', { text: '210000000000000781', voice: '220000000000000781' }, [
    { id: OWNER, username: 'owner', permissions: PermissionFlagsBits.ManageGuild },
  ]),
];

const h = useFileHarness({ guilds, env: { VOICE_API_PLAN: 'creator' } });

const sayFile = (text: string) =>
  runCommand(h, { guildId: GUILD, userId: OWNER, name: 'say', options: { text, voice: VOICE_ID, output: 'file' } });

async function wholeBot(): Promise<string> {
  const { content } = await runCommand(h, { guildId: GUILD, userId: OWNER, name: 'usage' });
  return content.split('\n').find((line) => line.startsWith('Whole bot:')) ?? content;
}

const ttsRequests = () => h.sandbox.requests.filter((r) => r.endpoint === 'tts').length;

describe('a key used elsewhere', () => {
  it('is told as the service counts it after a 429 and a 2xx; a part that cannot fit is told, and asks again', async () => {
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    expect((await sayFile('First of all, a short one.')).content).toMatch(/^Here is/);
    const mine = h.sandbox.charactersBilled();
    expect(await wholeBot()).toContain(`${mine} of 300,000 used (the service's count as of`);

    // The owner's key is used in the service's dashboard meanwhile: 10 characters are left.
    h.sandbox.setKeyUsed(h.apiKey, 299_990);
    const long = 'This sentence is far longer than the ten characters left.';
    const refused = await sayFile(long);
    expect(refused.content).toMatch(/only 10 characters left this month and this needs \d+/);
    const line = await wholeBot();
    expect(line).toMatch(/^Whole bot: 299,990 of 300,000 used \(the service's count as of [^)]+\), 10 left/);
    expect(line).not.toContain('used up');

    // The next /say that cannot fit asks the service once (the figure is a hint: characters may have been bought),
    // and is told the same.
    const before = ttsRequests();
    const again = await sayFile(`${long} Again.`);
    expect(again.content).toMatch(/only 10 characters left this month and this needs \d+/);
    expect(ttsRequests()).toBe(before + 1);

    // A text that fits goes, and its 2xx's figures are told.
    expect((await sayFile('Tiny.')).content).toMatch(/^Here is/);
    expect(await wholeBot()).toMatch(/^Whole bot: 299,995 of 300,000 used \(the service's count as of [^)]+\), 5 left/);

    // The books equal what the sandbox billed.
    const { content } = await runCommand(h, { guildId: GUILD, userId: OWNER, name: 'usage' });
    expect(content).toContain(`SayBot sent ${h.sandbox.charactersBilled().toLocaleString('en-US')}`);
    expect(content).toContain(`This server: ${h.sandbox.charactersBilled().toLocaleString('en-US')} characters spent`);
  });
});
