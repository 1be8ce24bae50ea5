// The month as the service counts it: its usage figures from any answer that carries them (a refusal too), with
// their time; "the service's count" said only of them; "too few left" naming the figure; a request the figure says
// cannot fit sent one at a time (a hint, not a wall), the figure lapsing at its reset date and not taken across a
// restart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuotaExceededError } from '../../../src/core/api/errors.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import type { Accounting } from '../../../src/core/quota/accounting.ts';
import type { AudioResponse, Sent, VoiceApiClient } from '../../../src/core/api/client.ts';
import { paidCall } from '../../../src/core/quota/paid-call.ts';
import { usedUp } from '../../../src/core/quota/money.ts';
import { Readable } from 'node:stream';
import { openSqliteStore } from '../../../src/app/store.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { planLines } from '../../../src/features/usage/usage-lines.ts';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { t } from '../../../src/features/speaking/strings.ts';
import { booksOn, onItsWay, paid, refusalKey, waiting } from './helpers.ts';

const RESET = new Date('2025-04-01T00:00:00Z');
const noBudgets = { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 };
const alice = { guildId: 'G', userId: 'alice', command: 'say' };

let store: Store;
let now: Date;
let books: Accounting;
beforeEach(() => {
  store = openSqliteStore(':memory:');
  now = new Date('2025-03-10T12:00:00Z');
  books = booksOn(store, { budgets: noBudgets, now: () => now });
});
afterEach(async () => {
  await store.close();
});

/** The service's own 429 (proven: its headers and its JSON error), with its usage figures. */
const service429 = (used: number, remaining: number, resetAt = RESET) =>
  new QuotaExceededError('too few', {
    status: 429,
    fromService: true,
    rateLimit: { limit: 300_000, used, remaining, resetAt },
  }).chargedAs('not-charged');

/** One part sent through the books as the sourcing does (paidCall), the service's answer `answer`. */
async function sendPart(characters: number, answer: () => Promise<void>): Promise<unknown> {
  const text = 'x'.repeat(characters);
  const charge = await books.authorize(alice, [paid(characters, text)]);
  const service = {
    send: async (): Promise<Sent<AudioResponse>> => {
      try {
        await answer();
      } catch (error) {
        // The service's own 429, its figures not risen by the part: what the client sees of it.
        const answer = { status: 429, proven: true };
        return { kind: 'not-ok', error, reached: true, answer };
      }
      return {
        kind: 'ok',
        answer: { status: 200, usage: { limit: 300_000, used: 84, remaining: 299_916, resetAt: RESET } },
        // Read to its end, as a flight reads it: the call is settled once its body is over.
        read: async () => ({ format: 'wav', body: Readable.from([]).resume() }),
      };
    },
  } as unknown as VoiceApiClient;
  try {
    const request = { endpoint: 'tts' as const, body: { text, voice_id: 'voice-b-en-f-01' } };
    await (
      await paidCall({ books, client: service }, request, { key: text, text }, { charge }, waiting)
    ).done;
    return undefined;
  } catch (error) {
    return error;
  } finally {
    charge.close();
  }
}

const en = (error: unknown) => {
  const { message } = describeFailure(error, { planFigures: true });
  return t('en-US', message.key, message.params);
};

describe('the whole-bot line', () => {
  it("takes the service's figures from a 429 (with their time), not only from a 2xx", async () => {
    expect(await sendPart(84, async () => {})).toBeUndefined();
    now = new Date('2025-03-10T12:01:00Z');
    const refused = await sendPart(83, () => Promise.reject(service429(299_990, 10)));
    expect(en(refused)).toContain('only 10 characters left');
    const report = await books.report('G', 'alice');
    expect(report.bot).toMatchObject({ used: 299_990, remaining: 10, fromService: true, spent: 84 });
    expect(report.bot.countedAt).toEqual(new Date('2025-03-10T12:01:00Z'));
    const [line] = planLines('en-US', report);
    expect(line).toContain("299,990 of 300,000 used (the service's count as of 2025-03-10 12:01 UTC), 10 left");
  });

  it("says SayBot's own count when the service sent no figures, never as the service's", async () => {
    await store.spends.record({ ...alice, at: now, endpoint: 'tts', characters: 84, cached: false });
    const [line] = planLines('en-US', await books.report('G', 'alice'));
    expect(line).toContain('84 of 300,000 used');
    expect(line).not.toContain("the service's count");
  });

  it('never contradicts the used-up mark: older figures are not told as what is left', async () => {
    expect(await sendPart(84, async () => {})).toBeUndefined();
    await usedUp(books.month, new QuotaExceededError('used up', { status: 429 }).chargedAs('not-charged'));
    const report = await books.report('G', 'alice');
    const [line] = planLines('en-US', report);
    expect(line).not.toContain('299,916');
    expect(line).not.toContain("the service's count");
    expect(line).toContain('used up');
  });
});

describe('a request that cannot fit by the last figure', () => {
  it('goes out one at a time: while one asks the service, another is told the figure and not sent', async () => {
    await sendPart(83, () => Promise.reject(service429(299_990, 10)));
    const asking = await books.authorize(alice, [paid(50)]);
    const onItsWayNow = await onItsWay(books, asking, 50);
    expect(onItsWayNow.probe).toBeDefined();
    const refused = await books.authorize(alice, [paid(50)]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).reason).toMatchObject({ code: 'quota-too-few-left', left: 10, needed: 50 });
    expect(en(refused)).toContain('only 10 characters left this month and this needs 50');
    // Only what the service said, and when; not as the truth of now: another request is asking it.
    expect(en(refused)).toMatch(/^As of 2025-03-10 12:00 UTC the voice service said .* Another request is asking it/);
    // Nothing stays on the books for a part never sent: only the one on its way is written ahead.
    expect((await store.spends.monthTotals('2025-03')).spent).toBe(50);
    // One that fits still goes, the probe taken or not.
    let sent = 0;
    expect(await sendPart(5, async () => void sent++)).toBeUndefined();
    expect(sent).toBe(1);
    // The one asking has its answer: the next that cannot fit takes the probe.
    books.giveProbeBack(onItsWayNow.probe as string, 'G');
    asking.close();
    expect(await sendPart(50, async () => void sent++)).toBeUndefined();
    expect(sent).toBe(2);
  });

  it('is not held to a figure past its reset date', async () => {
    await sendPart(83, () => Promise.reject(service429(299_990, 10, new Date('2025-03-10T18:00:00Z'))));
    now = new Date('2025-03-10T18:00:00Z');
    const [one, two] = await Promise.all([books.authorize(alice, [paid(50)]), books.authorize(alice, [paid(50)])]);
    const leaving = await Promise.all([onItsWay(books, one, 50), onItsWay(books, two, 50)]);
    expect(leaving.map((entry) => entry.probe)).toEqual([undefined, undefined]);
    one.close();
    two.close();
  });

  it('is not held to a figure from before a restart without a new answer', async () => {
    await sendPart(83, () => Promise.reject(service429(299_990, 10)));
    now = new Date(now.getTime() + 1000);
    const restarted = booksOn(store, { budgets: noBudgets, now: () => now });
    const [one, two] = await Promise.all([
      restarted.authorize(alice, [paid(50)]),
      restarted.authorize(alice, [paid(50)]),
    ]);
    const leaving = await Promise.all([onItsWay(restarted, one, 50), onItsWay(restarted, two, 50)]);
    expect(leaving.map((entry) => entry.probe)).toEqual([undefined, undefined]);
    one.close();
    two.close();
    // A new answer of the service's is taken.
    await store.quota.noteService({ limit: 300_000, used: 299_990, remaining: 10, resetAt: RESET }, now);
    const asking = await restarted.authorize(alice, [paid(50)]);
    expect((await onItsWay(restarted, asking, 50)).probe).toBeDefined();
    expect(await refusalKey(restarted.authorize(alice, [paid(50)]))).toBe('quota.tooFewLeftSaidForMember');
    asking.close();
  });
});

describe('characters bought or freed at the service', () => {
  it("are seen at its next answer: fewer used under the same limit is the service's count, and a part that fits goes", async () => {
    await sendPart(83, () => Promise.reject(service429(299_998, 2)));
    // "2 left" is a hint: the next part asks the service (no other is asking), and its 2xx says what is left now (84 used).
    expect(await sendPart(5, async () => {})).toBeUndefined();
    const report = await books.report('G', 'alice');
    expect(report.bot).toMatchObject({ used: 84, remaining: 299_916, fromService: true });
    let sent = 0;
    expect(await sendPart(50, async () => void sent++)).toBeUndefined();
    expect(sent).toBe(1);
  });
});

describe('paid part-way, then too few left', () => {
  it('names the figure to those who may see the plan, and keeps it from a member', async () => {
    const { afterPaying } = await import('../../../src/core/quota/money.ts');
    const tooFew = new Refusal({ code: 'quota-too-few-left', left: 10, needed: 83, resetAt: RESET });
    const error = afterPaying(tooFew, 84);
    expect(en(error)).toContain('only 10 characters left this month and the next part needs 83');
    const member = describeFailure(error);
    expect(t('en-US', member.message.key, member.message.params)).not.toContain('10 characters');
  });
});
