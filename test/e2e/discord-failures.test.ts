// Discord failing the way Discord does (issue 10, item 4): the bot survives each failure and tells users the truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGuilds, runCommand, startHarness, type Harness } from '../support/harness.ts';

const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];
const ALICE = '300000000000000011'; // London, in voice "general"

/** The bot's JSON log lines that carry `code`. */
function loggedCodes(h: Harness): Array<Record<string, unknown>> {
  return h.logs().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => typeof l.code === 'string');
}

function loggedErrors(h: Harness): string[] {
  return h.logs().split('\n').filter((line) => /"level":(50|60)/.test(line));
}

describe('an interaction token that expires while its reply waits in the queue', () => {
  // Discord's tokens live 15 minutes; the local Discord's live 1.5 s here, so a clip or two outlasts one.
  const LIFETIME_MS = 1500;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ discord: { interactionTokenLifetimeMs: LIFETIME_MS }, config: { voiceIdleTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reaches the requester as a channel message that names them without a ping, tried once, and the bot keeps serving', async () => {
    const first = 'This first clip plays for longer than the token of the next one lives.';
    const second = 'Queued behind it.';
    const firstVoice = 'voice-b-en-f-01';
    const secondVoice = 'voice-b-en-m-01';
    expect(h.sandbox.expectedDurationSeconds(first) * 1000).toBeGreaterThan(2 * LIFETIME_MS);
    h.discord.clearAudio(london.id);
    await h.discord.command({ guildId: london.id, userId: ALICE, name: 'say', options: [{ name: 'text', value: first }, { name: 'voice', value: firstVoice }] });
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    const queued = await h.discord.command({
      guildId: london.id, userId: ALICE, name: 'say', options: [{ name: 'text', value: second }, { name: 'voice', value: secondVoice }],
    });

    const posted = await h.discord.waitForChannelMessage(
      (m) => m.channelId === london.textChannelId && String(m.message.content).includes(secondVoice) && String(m.message.content).includes('Spoke'),
      30_000,
    );
    expect(String(posted.message.content)).toMatch(new RegExp(`^<@${ALICE}> Spoke \\d+\\.\\d s in <#220000000000000003> with \`${secondVoice}\``));
    expect((posted.raw as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
    expect(queued.tokenExpired).toBe(true);

    // One refused request for the expired token, then no more: the bot does not retry a dead token.
    const refused = h.discord.restLog.filter((e) => e.path.includes(queued.token) && e.status === 401);
    expect(refused).toHaveLength(1);
    const expiredLines = loggedCodes(h).filter((l) => l.code === 'discord-token-expired' && l.interactionId === queued.id);
    expect(expiredLines).toHaveLength(1);
    expect(loggedErrors(h)).toEqual([]);

    // Still serving: a fresh interaction is answered as usual.
    const { content } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'voices' });
    expect(content.length).toBeGreaterThan(0);
  });
});
