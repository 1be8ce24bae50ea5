// The local Discord judges interactions by its own clock, as Discord does, whatever the host's clock says; and it
// takes direct messages to members, refusing them (403 50007) for a member who accepts none.
import { describe, expect, it } from 'vitest';
import { SnowflakeUtil } from 'discord.js';
import { TOKEN, expectDiscordError, guildSpec, nextInteraction, useLoggedInClient } from './helpers.ts';

const g1 = guildSpec(1);
const alice = g1.members[0]!;
const bob = g1.members[1]!;
const TWENTY_MINUTES = 20 * 60_000;

describe('FakeDiscord: its own clock for interactions', () => {
  const rig = useLoggedInClient({ guilds: [g1], hostClockAheadMs: TWENTY_MINUTES });

  it('hostClockAheadMs: interaction IDs are real snowflakes 20 minutes older than the host clock, and still answered', async () => {
    let createdTimestamp = 0;
    const handled = nextInteraction(rig.client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      createdTimestamp = interaction.createdTimestamp;
      await interaction.deferReply();
      await interaction.editReply('in time');
    });
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await handled;
    const age = Date.now() - SnowflakeUtil.timestampFrom(handle.id);
    expect(age).toBeGreaterThanOrEqual(TWENTY_MINUTES);
    // Older by the 20 minutes, and by no more than the command took to be answered (a minute at most on a busy host).
    expect(age).toBeLessThan(TWENTY_MINUTES + 60_000);
    expect(createdTimestamp).toBe(SnowflakeUtil.timestampFrom(handle.id));
    expect(handle.responses.map((r) => r.kind)).toEqual(['callback', 'edit-original']);
    expect(handle.problems).toEqual([]);
  });

  it('advanceClock past 15 minutes: the token is refused with 401 50027 Invalid Webhook Token', async () => {
    let refusal: unknown;
    const handled = nextInteraction(rig.client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      rig.fake.advanceClock(15 * 60_000 + 1);
      refusal = await interaction.editReply('too late').catch((error: unknown) => error);
    });
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await handled;
    expectDiscordError(refusal, 401, 50027);
    expect(handle.tokenExpired).toBe(true);
  });

  it('advanceClock past 3 s before the first callback: 404 10062 Unknown interaction', async () => {
    let refusal: unknown;
    const handled = nextInteraction(rig.client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      rig.fake.advanceClock(3_001);
      refusal = await interaction.deferReply().catch((error: unknown) => error);
    });
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await handled;
    expectDiscordError(refusal, 404, 10062);
    expect(handle.responses).toEqual([]);
  });
});

describe('FakeDiscord: direct messages', () => {
  const rig = useLoggedInClient({ guilds: [g1] });

  it('POST /users/@me/channels opens a DM channel (type 1) and a message to it reaches the member, not a guild channel', async () => {
    const user = await rig.client.users.fetch(alice.id);
    const dm = await user.createDM();
    expect(dm.isDMBased()).toBe(true);
    expect(dm.recipientId).toBe(alice.id);
    const sent = await dm.send({ content: 'just for you', allowedMentions: { parse: [] } });
    expect(sent.channelId).toBe(dm.id);
    const received = await rig.fake.waitForDirectMessage((m) => m.userId === alice.id);
    expect(received.message.content).toBe('just for you');
    expect(received.channelId).toBe(dm.id);
    expect(rig.fake.channelMessages()).toEqual([]);
    // The same channel the next time, as Discord keeps one DM channel per user.
    const again = await fetch(`${rig.fake.restUrl}/v10/users/@me/channels`, {
      method: 'POST',
      headers: { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ recipient_id: alice.id }),
    });
    expect(((await again.json()) as { id: string }).id).toBe(dm.id);
  });

  it('a member who accepts no DMs: the channel opens, the message is refused with 403 50007', async () => {
    rig.fake.setDirectMessages(bob.id, false);
    const user = await rig.client.users.fetch(bob.id);
    const refusal = await user.send('not delivered').catch((error: unknown) => error);
    expectDiscordError(refusal, 403, 50007);
    expect(rig.fake.directMessages(bob.id)).toEqual([]);
    rig.fake.setDirectMessages(bob.id, true);
    await user.send('now open');
    expect(rig.fake.directMessages(bob.id).map((m) => m.message.content)).toEqual(['now open']);
  });
});
