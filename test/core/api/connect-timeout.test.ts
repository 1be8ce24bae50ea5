// A connect that times out opened no connection: nothing of the request left, so nothing can have been charged. It is
// sent again as a refused connection is (paid-call.ts `resend`, within its first send's deadline), and if it never
// opens, its member is told the service could not be reached, never that it was slow; nothing is booked. Over real HTTP
// to the sandbox through a relay whose accepting the test holds (test/support/held-relay.ts); the books on SQLite.
// Found by an outside check (edges1): such a connect was told "took too long to answer" and never sent again.
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../../src/core/api/errors.ts';
import type { CallOptions, PaidRequest, VoiceApiClient } from '../../../src/core/api/client.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import { monthOf } from '../../../src/core/calendar.ts';
import { countCharacters } from '../../../src/core/characters.ts';
import { paidCall } from '../../../src/core/quota/paid-call.ts';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { heldRelay, type HeldRelay } from '../../support/held-relay.ts';
import { booksOn, paid, waiting } from '../quota/helpers.ts';
import { clientFor, readAll, useSandbox } from './helpers.ts';

const api = useSandbox();
const TEXT = 'Sent again, as it never left.';
const CHARACTERS = countCharacters(TEXT);
const context = { guildId: '200000000000000091', userId: '300000000000000091', command: 'say' };
const request: PaidRequest = { endpoint: 'tts', body: { text: TEXT, voice_id: 'voice-b-en-f-01' } };

let relay: HeldRelay;
beforeAll(async () => {
  relay = await heldRelay();
  relay.pointAt(Number(new URL(api.sandbox.url).port));
});
afterAll(() => relay.close());
afterEach(() => relay.letGo());

/** Connections undici began towards the relay. */
let connects = 0;
const onBeforeConnect = (message: unknown) => {
  if (Number((message as { connectParams: { port: string } }).connectParams.port) === relay.port) connects += 1;
};
diagnostics.subscribe('undici:client:beforeConnect', onBeforeConnect);
afterAll(() => diagnostics.unsubscribe('undici:client:beforeConnect', onBeforeConnect));

/** The request paid through paidCall on an order's charge on SQLite books; `resending` runs before each resend. */
async function pay(client: VoiceApiClient, resending: () => Promise<void> = async () => undefined) {
  const store = openSqliteStore(':memory:');
  const books = booksOn(store, { budgets: { guildMonthlyChars: 0, memberDailyChars: 1000, memberCooldownSeconds: 0 } });
  const charge = await books.authorize(context, [paid(CHARACTERS, TEXT)]);
  const send: VoiceApiClient['send'] = async (r, options?: CallOptions) => {
    if (options?.resend !== undefined) await resending();
    return client.send(r, options);
  };
  const outcome = await paidCall(
    { books, client: { send, retry: client.retry } },
    request,
    { key: TEXT, text: TEXT },
    { charge },
    waiting,
  ).then(
    async ({ answer, done }) => {
      if ('body' in answer) await readAll(answer.body);
      await done;
      return { error: undefined };
    },
    (error: unknown) => ({ error }),
  );
  charge.close();
  await books.drained();
  const spent = (await store.spends.monthTotals(monthOf(new Date()), context.guildId)).spent;
  const day = await store.spends.memberDaySpent(context.guildId, context.userId);
  await store.close();
  return { ...outcome, spent, day, paid: charge.paid };
}

const through = (overrides: Parameters<typeof clientFor>[1] = {}) =>
  clientFor(api.sandbox, { baseUrl: `http://127.0.0.1:${relay.port}`, timeouts: { connectMs: 300 }, ...overrides });

describe('a connect that times out (no connection opened: nothing left)', () => {
  it('never opening: sent again up to maxRetries, then told the service could not be reached; nothing billed or booked', async () => {
    const client = through({ maxRetries: 2 });
    await relay.hold();
    connects = 0;
    try {
      const { error, spent, day, paid } = await pay(client);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ code: 'UND_ERR_CONNECT_TIMEOUT', charge: 'not-charged' });
      expect(describeFailure(error).message.key).toBe('error.api.connection');
      expect(connects).toBe(3);
      expect([spent, day, paid]).toEqual([0, 0, 0]);
    } finally {
      await client.close();
    }
    expect(api.sandbox.requests).toEqual([]);
    expect(api.sandbox.charactersBilled()).toBe(0);
  });

  it('opening on the resend: served, billed once, booked once', async () => {
    const client = through({ maxRetries: 2 });
    await relay.hold();
    connects = 0;
    try {
      // The relay accepts again only once the first connect has timed out and the paid call sends again.
      const { error, spent, day, paid } = await pay(client, () => relay.letGo());
      expect(error).toBeUndefined();
      expect(connects).toBe(2);
      expect([spent, day, paid]).toEqual([CHARACTERS, CHARACTERS, CHARACTERS]);
    } finally {
      await client.close();
    }
    expect(api.sandbox.requests.map((r) => r.status)).toEqual([200]);
    expect(api.sandbox.charactersBilled()).toBe(CHARACTERS);
  });

  it('still connecting at its total timeout: nothing left, told the service could not be reached', async () => {
    // undici ends an attempt cut while it connects once its connect does: a connect timeout past the total one.
    const client = through({ maxRetries: 0, timeouts: { connectMs: 2_000, totalMs: 300 } });
    await relay.hold();
    try {
      const { error, spent, day } = await pay(client);
      expect(error).toMatchObject({ phase: 'total', charge: 'not-charged' });
      expect(describeFailure(error).message.key).toBe('error.api.connection');
      expect([spent, day]).toEqual([0, 0]);
    } finally {
      await client.close();
    }
    expect(api.sandbox.requests).toEqual([]);
  });
});
