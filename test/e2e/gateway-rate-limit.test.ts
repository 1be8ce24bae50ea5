// A refusal told by who sent it, end to end against the sandbox: a 429 without the service's own request ID is a
// gateway's, whatever figures its headers carry (a rate limiter in front of the service sends X-RateLimit-* of its own,
// under the same names). With its wait (Retry-After) it is a rate limit, never sent again (it may have passed the
// request on); never the used-up month, and the free voice never speaks for it as if the month were used up.
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
  // request, and a second request after a first the service billed is paid twice. The free voice speaks for a service
  // not answering, as for any failure that charged nothing; never for the month.
  it('with its wait and quota words: never sent again, stood in for as a service not answering, the month untouched', async () => {
    h.sandbox.injectFault(
      gateway429('Out of call volume quota. Quota will be replenished in 00:00:01.', { 'Retry-After': '1' }),
    );
    const logFrom = h.logs().length;
    const before = h.sandbox.requests.length;
    const { content } = await sayFile('Limited in front of the service');
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([429]);
    expect(content).toContain(t('en-US', 'fallback.reason.service'));
    expect(content).not.toContain(t('en-US', 'fallback.reason.month'));
    expect(h.logs().slice(logFrom)).not.toMatch(/"code":"(quota-used-up|api-quota-exhausted)"/);
    const usage = await runCommand(h, { guildId: london.id, userId: BOB, name: 'usage', locale: 'en-US' });
    expect(usage.content).not.toContain('used up');
  });

  it('with its wait, lasting: not tried again, stood in for as a service not answering; never the used-up month, and the free voice does not speak for the month', async () => {
    h.sandbox.injectFault({
      ...gateway429('Usage limit exceeded: 10 requests a second', { 'Retry-After': '0' }),
      times: Infinity,
    });
    const logFrom = h.logs().length;
    const { content } = await sayFile('Limited for as long as it asks');
    expect(content).not.toContain(t('en-US', 'fallback.reason.month'));
    expect(content).not.toContain('used up');
    // The free voice may stand in for a service that does not answer, and says so; never for the month.
    expect(content).toContain(t('en-US', 'fallback.reason.service'));
    h.sandbox.clearFaults();
    const logs = h.logs().slice(logFrom);
    expect(logs).not.toMatch(/"code":"(quota-used-up|api-quota-exhausted)"/);
    expect((await sayFile('Served once it lets go')).content).toMatch(/^Here is/);
  });

  // A 429 is a refusal, never a charge (issue 94): the API's notes give it one meaning, over the month's limit, which
  // the service does not bill, and anything in front of it that answers 429 refused before the service saw it.
  it('without a wait: sent once, counted nowhere (/usage, her day), told the service is busy; never the used-up month', async () => {
    h.sandbox.injectFault(gateway429('Too Many Requests'));
    const logFrom = h.logs().length;
    const before = { requests: h.sandbox.requests.length, shown: await shownNow() };
    const { content } = await sayFile('Refused in front of the service');
    expect(content).toBe(t('en-US', 'error.api.rateLimited'));
    expect(h.sandbox.requests.length - before.requests).toBe(1);
    expect(await shownNow()).toEqual(before.shown);
    await expectMonthUntouched(logFrom);
  });

  it.each(['en-US', 'ja', 'ko'] as const)(
    "with the service's request ID and no error of its own (an HTML page), in %s: counted nowhere, told the service is busy",
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
      expect(content).toBe(t(locale, 'error.api.rateLimited'));
      expect(h.sandbox.requests.length - before.requests).toBe(1);
      expect(await shownNow()).toEqual(before.shown);
      await expectMonthUntouched(logFrom);
    },
  );
});

/** The server's month and Bob's day as /usage shows them to him. */
async function shownNow(): Promise<{ server: number; day: string | undefined }> {
  const { content } = await runCommand(h, { guildId: london.id, userId: BOB, name: 'usage', locale: 'en-US' });
  return { server: await spentShown(h, london.id, BOB), day: /You today: ([\d,]+) characters/.exec(content)?.[1] };
}
