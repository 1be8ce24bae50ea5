import type { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultGuilds, runCommand, startHarness, type Harness } from '../support/harness.ts';
import { ALICE } from '../support/world.ts';

const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];

let h: Harness;

beforeAll(async () => {
  // @discordjs/rest schedules its sweeps with setInterval when the client is made: fake only that (and its clear),
  // before the bot starts, so a minute can pass at once; the gateway, HTTP and audio keep their real timers.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  h = await startHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
});
afterAll(async () => {
  vi.useRealTimers();
  await h?.close();
});

/** Alice's /say in London, once it has spoken: its interaction's handle. */
async function aliceSaid(text: string) {
  const { handle } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'say', options: { text } });
  await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
  return handle;
}

describe("the discord.js client's memory stays bounded per interaction", () => {
  it('drops the REST request handler of an interaction token within a minute of its last request', async () => {
    const handle = await aliceSaid('One handler per token.');
    // Editing the reply goes to /webhooks/<app>/<token>/…: @discordjs/rest keys a handler by that token, one per /say,
    // in the REST client interactions' answers go through (src/app/saybot.ts `interactionRequestsApart`).
    const rest = h.bot.interactionRest as REST;
    expect([...(h.bot.client.rest as REST).handlers.keys()].filter((key) => key.includes(handle.token))).toEqual([]);
    const ofToken = [...rest.handlers.values()].filter((handler) => handler.id.includes(handle.token));
    expect(ofToken).toHaveLength(1);
    // The fake has the edit before the bot has its answer: until then the request is still queued in the handler.
    await vi.waitFor(() => expect(ofToken[0]?.inactive).toBe(true), { timeout: 5_000 });
    vi.advanceTimersByTime(60_000);
    expect([...rest.handlers.keys()].filter((key) => key.includes(handle.token))).toEqual([]);
  });

  it('keeps none of the messages it posts or sees in a channel', async () => {
    await aliceSaid('No message cache.');
    const channel = h.bot.client.channels.cache.get(london.textChannelId);
    if (!channel?.isTextBased()) throw new Error('the text channel is not in the client');
    expect(channel.messages.cache.size).toBe(0);
  });
});
