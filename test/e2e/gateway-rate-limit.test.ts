// A refusal told by who sent it, end to end against the sandbox: a 429 without the service's own request ID is a
// gateway's, whatever figures its headers carry (a rate limiter in front of the service sends X-RateLimit-* of its own,
// under the same names). It may have passed the request on first: never sent again, whatever its wait, counted as
// maybe charged (bb11), the member told so; never the used-up month, and the free voice never speaks for it.
import { beforeEach, describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, runCommand } from '../support/harness.ts';
import { BOB } from '../support/world.ts';
import { spentShown } from '../support/books-shown.ts';

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];

const h = useFileHarness({ env: { FREE_VOICE: 'fallback', VOICE_API_PLAN: 'creator' } });

let serial = 0;
const sayFile = (words: string) =>
  runCommand(h, {
    guildId: london.id,
    userId: BOB,
    name: 'say',
    options: { text: `${words} ${++serial}.`, output: 'file' },
    locale: 'en-US',
  });

/** A gateway's 429: its own figures (plenty left), a JSON body, no request ID of the service's. */
function gateway429(message: string, extra: Record<string, string> = {}) {
  return {
    kind: 'response',
    status: 429,
    contentType: 'application/json',
    body: JSON.stringify({ message }),
    headers: {
      'X-RateLimit-Limit': '300000',
      'X-RateLimit-Used': '5',
      'X-RateLimit-Remaining': '299995',
      'X-RateLimit-Reset': '2031-01-01',
      ...extra,
    },
  } as const;
}

/** Neither the month marked nor the free voice speaking, and /usage says nothing of a used-up month. */
async function expectMonthUntouched(logFrom: number): Promise<void> {
  const logs = h.logs().slice(logFrom);
  expect(logs).not.toMatch(/"code":"(quota-used-up|api-quota-exhausted|free-voice-fallback)"/);
  const usage = await runCommand(h, { guildId: london.id, userId: BOB, name: 'usage', locale: 'en-US' });
  expect(usage.content).not.toContain('used up');
  expect(usage.content).not.toContain('299,995');
}

beforeEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.setKeyUsed(h.apiKey, 0);
});

describe("a gateway's 429", () => {
  // Never sent again after its wait (bb10): a 429 not the service's own is no proof the service never had the
  // request, and a second request after a first the service billed is paid twice. Maybe charged (bb11), so the free
  // voice does not speak for it, as for any failure that may have been charged; never for the month.
  it('with its wait and quota words: never sent again, told it may have been charged, the month untouched', async () => {
    h.sandbox.injectFault(
      gateway429('Out of call volume quota. Quota will be replenished in 00:00:01.', { 'Retry-After': '1' }),
    );
    const logFrom = h.logs().length;
    const before = h.sandbox.requests.length;
    const { content } = await sayFile('Limited in front of the service');
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([429]);
    expect(content).toBe(maybeCharged('en-US'));
    expect(content).not.toContain(t('en-US', 'fallback.reason.month'));
    expect(h.logs().slice(logFrom)).not.toMatch(/"code":"(quota-used-up|api-quota-exhausted)"/);
    const usage = await runCommand(h, { guildId: london.id, userId: BOB, name: 'usage', locale: 'en-US' });
    expect(usage.content).not.toContain('used up');
  });

  it('with its wait, lasting: not tried again, told it may have been charged; never the used-up month, and the free voice does not speak for the month', async () => {
    h.sandbox.injectFault({
      ...gateway429('Usage limit exceeded: 10 requests a second', { 'Retry-After': '0' }),
      times: Infinity,
    });
    const logFrom = h.logs().length;
    const { content } = await sayFile('Limited for as long as it asks');
    expect(content).not.toContain(t('en-US', 'fallback.reason.month'));
    expect(content).not.toContain('used up');
    // Nor for a request that may have been charged (bb11).
    expect(content).toBe(maybeCharged('en-US'));
    h.sandbox.clearFaults();
    const logs = h.logs().slice(logFrom);
    expect(logs).not.toMatch(/"code":"(quota-used-up|api-quota-exhausted)"/);
    expect((await sayFile('Served once it lets go')).content).toMatch(/^Here is/);
  });

  // Not the service's own, it may have passed the request on first (bb11): counted as a gateway's 5xx is.
  it('without a wait: sent once, counted (/usage, her day), told it may have been charged; never the used-up month', async () => {
    h.sandbox.injectFault(gateway429('Too Many Requests'));
    const logFrom = h.logs().length;
    const before = { requests: h.sandbox.requests.length, shown: await shownNow() };
    const { content } = await sayFile('Refused in front of the service');
    expect(content).toBe(maybeCharged('en-US'));
    expect(h.sandbox.requests.length - before.requests).toBe(1);
    expect(await shownNow()).toEqual(counted(before.shown, `Refused in front of the service ${serial}.`.length));
    await expectMonthUntouched(logFrom);
  });

  it.each(['en-US', 'ja', 'ko'] as const)(
    "with the service's request ID and no error of its own (an HTML page), in %s: counted, told it may have been charged",
    async (locale) => {
      h.sandbox.injectFault({
        kind: 'response',
        status: 429,
        contentType: 'text/html',
        body: '<html><body>429 Too Many Requests</body></html>',
        headers: { 'X-Request-Id': 'req_passed_through' },
      });
      const logFrom = h.logs().length;
      const before = { requests: h.sandbox.requests.length, shown: await shownNow() };
      const { content } = await runCommand(h, {
        guildId: london.id,
        userId: BOB,
        name: 'say',
        options: { text: `Refused with its ID ${++serial}.`, output: 'file' },
        locale,
      });
      expect(content).toBe(maybeCharged(locale));
      expect(h.sandbox.requests.length - before.requests).toBe(1);
      expect(await shownNow()).toEqual(counted(before.shown, `Refused with its ID ${serial}.`.length));
      await expectMonthUntouched(logFrom);
    },
  );
});

const maybeCharged = (locale: string) => t(locale, 'error.api.refusedOnTheWay.maybeCharged', { status: 429 });

/** `shown` with `characters` more spent, in the server's month and Bob's day. */
function counted(shown: { server: number; day: string | undefined }, characters: number) {
  return { server: shown.server + characters, day: String(Number(shown.day ?? '0') + characters) };
}

/** The server's month and Bob's day as /usage shows them to him. */
async function shownNow(): Promise<{ server: number; day: string | undefined }> {
  const { content } = await runCommand(h, { guildId: london.id, userId: BOB, name: 'usage', locale: 'en-US' });
  return { server: await spentShown(h, london.id, BOB), day: /You today: ([\d,]+) characters/.exec(content)?.[1] };
}
