// The local Discord fails as Discord does: expired interaction tokens (401 50027) and 429s with Discord's headers.
import { describe, expect, it } from 'vitest';
import { TOKEN, expectDiscordError, guildSpec, nextInteraction, useLoggedInClient } from './helpers.ts';

const g1 = guildSpec(1);
const alice = g1.members[0]!;

describe('FakeDiscord: interaction tokens expire', () => {
  // 1 ms: the defer (bound by the 3 s deadline only) goes through, any webhook call after it comes too late.
  const rig = useLoggedInClient({ guilds: [g1], interactionTokenLifetimeMs: 1 });

  it('an edit after the token lifetime is refused with 401 50027 Invalid Webhook Token, and recorded', async () => {
    let refusal: unknown;
    const handled = nextInteraction(rig.client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      refusal = await interaction.editReply('too late').catch((error: unknown) => error);
    });
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await handled;
    expectDiscordError(refusal, 401, 50027);
    expect(handle.tokenExpired).toBe(true);
    expect(handle.responses.map((r) => r.kind)).toEqual(['callback']);
    expect(handle.problems.join()).toContain('50027');
  });
});

describe('FakeDiscord: 429s as Discord sends them', () => {
  const rig = useLoggedInClient({ guilds: [g1] });

  it('per route: 429 before the request is handled, with retry_after in the body and the X-RateLimit headers; the retry succeeds', async () => {
    const handled = nextInteraction(rig.client, async () => undefined);
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await handled;
    rig.fake.rateLimit({ route: 'interaction-callback', retryAfterMs: 1500 });
    const url = `${rig.fake.restUrl}/v10/interactions/${handle.id}/${handle.token}/callback`;
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 5 }) };
    const limited = await fetch(url, init);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'You are being rate limited.', retry_after: 1.5, global: false });
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('5');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset-after')).toBe('1.500');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(limited.headers.get('x-ratelimit-bucket')).toBeTruthy();
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.has('x-ratelimit-global')).toBe(false);
    expect(handle.responses).toEqual([]);
    expect((await fetch(url, init)).status).toBe(204);
    expect(handle.responses.map((r) => r.type)).toEqual([5]);
  });

  it('global: the next bot-token request is refused with X-RateLimit-Global; interaction webhooks are exempt', async () => {
    rig.fake.rateLimit({ global: true, retryAfterMs: 500 });
    const handled = nextInteraction(rig.client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply('exempt');
    });
    const handle = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await handled;
    expect(handle.responses.map((r) => r.content)).toEqual(['exempt']);
    const limited = await fetch(`${rig.fake.restUrl}/v10/users/@me`, { headers: { authorization: `Bot ${TOKEN}` } });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.5, global: true });
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('global');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(
      (await fetch(`${rig.fake.restUrl}/v10/users/@me`, { headers: { authorization: `Bot ${TOKEN}` } })).status,
    ).toBe(200);
  });

  it('discord.js waits out a 429 on a bot-token route and its request succeeds', async () => {
    rig.fake.rateLimit({ route: 'channel-message', retryAfterMs: 200 });
    const channel = await rig.client.channels.fetch(g1.textChannelId);
    if (!channel?.isSendable()) throw new Error('text channel not sendable');
    const message = await channel.send('after the limit');
    expect(message.content).toBe('after the limit');
    expect(
      rig.fake.restLog.filter((e) => e.path.endsWith(`/channels/${g1.textChannelId}/messages`)).map((e) => e.status),
    ).toEqual([429, 200]);
  });

  it("interactionToken and times: Infinity hold one interaction's webhook with 429s until clearRateLimits; another's goes through", async () => {
    const edits: Array<Promise<unknown>> = [];
    const answer = (): Promise<void> =>
      nextInteraction(rig.client, async (interaction) => {
        if (!interaction.isChatInputCommand()) return;
        await interaction.deferReply();
        edits.push(interaction.editReply(`edit ${edits.length}`));
      });
    const first = answer();
    const held = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    rig.fake.rateLimit({ route: 'webhook-edit', interactionToken: held.token, retryAfterMs: 50, times: Infinity });
    await first;
    // Refused again and again while held (the 429s come a retry_after apart).
    const refusals = (): number =>
      rig.fake.restLog.filter((e) => e.path.includes(held.token) && e.status === 429).length;
    await expect.poll(refusals).toBeGreaterThanOrEqual(3);
    const second = answer();
    const other = await rig.fake.command({ guildId: g1.id, userId: alice.id, name: 'say' });
    await second;
    expect(await other.waitFor((r) => r.kind === 'edit-original', 20_000)).toMatchObject({ content: 'edit 1' });
    expect(held.responses.map((r) => r.kind)).toEqual(['callback']);
    rig.fake.clearRateLimits();
    await Promise.all(edits);
    expect(held.responses.map((r) => [r.kind, r.content])).toEqual([
      ['callback', undefined],
      ['edit-original', 'edit 0'],
    ]);
  });
});
