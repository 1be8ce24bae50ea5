import { REST, Routes } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sweepIdleRestHandlers } from '../../src/app/client-bounds.ts';
import { APP_ID, startLocalServices, type LocalServices } from '../support/harness.ts';

let services: LocalServices;
let rest: REST | undefined;

beforeAll(async () => {
  services = await startLocalServices();
});
afterEach(() => {
  // Also ends the sweeps the tests started (faked timers are dropped with the clock).
  vi.useRealTimers();
  rest?.clearHandlerSweeper();
  rest?.clearHashSweeper();
});
afterAll(async () => {
  await services?.close();
});

/** An interaction reply's edit with this token; the local Discord refuses it (no such interaction), which is fine here. */
async function editWith(client: REST, token: string): Promise<void> {
  await client
    .patch(Routes.webhookMessage(APP_ID, token, '@original'), { body: { content: 'edited' } })
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
