import { REST, Routes } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { interactionRequestsApart, sweepIdleRestHandlers } from '../../src/app/saybot.ts';
import { APP_ID, startLocalServices, type LocalServices } from '../support/harness.ts';

let services: LocalServices;
let rest: REST | undefined;
let apart: REST | undefined;

beforeAll(async () => {
  services = await startLocalServices();
});
afterEach(() => {
  // Also ends the sweeps the tests started (faked timers are dropped with the clock).
  vi.useRealTimers();
  rest?.clearHandlerSweeper();
  rest?.clearHashSweeper();
  apart?.clearHandlerSweeper();
  apart?.clearHashSweeper();
});
afterAll(async () => {
  await services?.close();
});

/**
 * An interaction reply's edit with this token, as discord.js sends it (no bot authorization); the local Discord refuses
 * it (no such interaction), which is fine here.
 */
async function editWith(client: REST, token: string): Promise<void> {
  await client
    .patch(Routes.webhookMessage(APP_ID, token, '@original'), { body: { content: 'edited' }, auth: false })
    .catch(() => undefined);
}

const handlersOf = (client: REST, token: string): string[] =>
  [...client.handlers.keys()].filter((key) => key.includes(token));

describe('sweepIdleRestHandlers', () => {
  it('sweeps nothing once stopped', async () => {
    rest = new REST({ api: services.discord.restUrl }).setToken(services.token);
    await editWith(rest, 'token-of-a-stopped-sweep');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    sweepIdleRestHandlers(rest, 10_000)();
    vi.advanceTimersByTime(60_000);
    expect(handlersOf(rest, 'token-of-a-stopped-sweep')).toHaveLength(1);
  });

  it("drops an idle token's handler as soon as a used-up global window ends, not at the next sweep outside one", async () => {
    rest = new REST({ api: services.discord.restUrl }).setToken(services.token);
    await editWith(rest, 'token-of-one-interaction');
    expect(handlersOf(rest, 'token-of-one-interaction')).toHaveLength(1);

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    sweepIdleRestHandlers(rest, 10_000);
    // What @discordjs/rest records after the bot's 50th request in a second: no request left in the global window.
    // A bot that busy is there whenever a sweep comes round (a new request opens the next window at once), and
    // the library then calls no handler inactive: its own sweep drops nothing.
    rest.globalRemaining = 0;
    rest.globalReset = Date.now() + 10_400;
    vi.advanceTimersByTime(10_000);
    const [key] = handlersOf(rest, 'token-of-one-interaction');
    expect(rest.handlers.get(key ?? '')?.inactive).toBe(false);
    vi.advanceTimersByTime(401);
    expect(handlersOf(rest, 'token-of-one-interaction')).toEqual([]);
  });
});

describe('interactionRequestsApart', () => {
  /** What @discordjs/rest records once the bot has sent its 50 requests of a second: the rest of the hour here. */
  const useUpGlobalWindow = (client: REST): void => {
    client.globalRemaining = 0;
    client.globalReset = Date.now() + 3_600_000;
  };

  it("sends an interaction's response, edits and follow-ups outside the bot's used-up global limit", async () => {
    rest = new REST({ api: services.discord.restUrl }).setToken(services.token);
    apart = interactionRequestsApart(rest, APP_ID);
    useUpGlobalWindow(rest);
    const sent = [
      editWith(rest, 'token-of-a-flooded-hour'),
      rest
        .post(Routes.webhook(APP_ID, 'token-of-a-flooded-hour'), { body: { content: 'later' }, auth: false })
        .catch(() => undefined),
      rest
        .post(Routes.interactionCallback('1234567890123456789', 'token-of-a-flooded-hour'), {
          body: { type: 5 },
          auth: false,
        })
        .catch(() => undefined),
    ];
    // Which queue each took: the token's requests are the interactions client's, none the bot's.
    expect(handlersOf(rest, 'token-of-a-flooded-hour')).toEqual([]);
    expect(handlersOf(apart, 'token-of-a-flooded-hour')).toHaveLength(2); // the edit's and the follow-up's routes
    expect([...rest.handlers.keys()].filter((key) => key.includes('callback'))).toEqual([]);
    expect([...apart.handlers.keys()].filter((key) => key.includes('callback'))).toHaveLength(1);
    // And each settles (the local Discord refuses an interaction it never sent): none waited for the bot's window.
    await Promise.all(sent);
  });

  it("leaves the bot's own requests, and another application's webhook, in the bot's global limit", async () => {
    rest = new REST({ api: services.discord.restUrl }).setToken(services.token);
    apart = interactionRequestsApart(rest, APP_ID);
    rest.globalRemaining = 0;
    rest.globalReset = Date.now() + 500;
    // They wait for the bot's next window; which queue holds them is read while they wait.
    const sent = [
      rest.get(Routes.guild('123456789012345678')).catch(() => undefined),
      rest
        .post(Routes.webhook('223456789012345678', 'token-of-a-channel-webhook'), { body: {}, auth: false })
        .catch(() => undefined),
    ];
    expect([...rest.handlers.keys()].some((key) => key.endsWith(':123456789012345678'))).toBe(true);
    expect(handlersOf(rest, 'token-of-a-channel-webhook')).toHaveLength(1);
    expect([...apart.handlers.keys()]).toEqual([]);
    await Promise.all(sent);
  });
});
