// Never paid twice, never unrecorded: PartSource with the real client against the sandbox
// (which bills at acceptance, with its own count) and real accounting on an SQLite store.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BadRequestError, ConnectionError, ServerError, UndeliveredError } from '../../../src/core/api/errors.ts';
import { VoiceApiClient } from '../../../src/core/api/client.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { countCharacters } from '../../../src/core/characters.ts';
import { Accounting } from '../../../src/core/quota/accounting.ts';
import { MONEY_RULES } from '../../../src/core/quota/money.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { PartSource, orderedPart } from '../../../src/core/sourcing/part-source.ts';
import type { SpeechRequest } from '../../../src/core/order/pipeline.ts';
import type { NewSpend, SpendConfirmation, SpendOutcome } from '../../../src/core/store/quota-store.ts';
import { fixture } from '../audio/fixtures.ts';
import { withFailingSpendWrites } from '../store/failing-store.ts';
import { clientFor, useSpeechRig } from '../../support/speech-rig.ts';
import { refusedUntilRetry } from '../api/helpers.ts';

const who = { guildId: 'G', userId: 'U', command: 'say' };
const request = (text: string): SpeechRequest => ({ kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' });
const month = () => new Date().toISOString().slice(0, 7);

const rig = useSpeechRig();
/** A wait for an event: a bound for a slow, busy host, never a figure. */
const EVENT = { timeout: 20_000, interval: 20 };
/** Every spend the store was given, as given. */
let written: NewSpend[];
/** Every finish of a spend written ahead the store was given. */
let finished: SpendOutcome[];
/** Every confirmation (the service's 2xx) of a spend written ahead the store was given. */
let confirmed: SpendConfirmation[];
/** How many spends written ahead the store took back (a definite "not charged"). */
let takenBack: number;

beforeEach(() => {
  written = [];
  finished = [];
  confirmed = [];
  takenBack = 0;
  const { spends } = rig.store;
  const confirm = spends.confirm.bind(spends);
  spends.confirm = (id, confirmation) => {
    confirmed.push(confirmation);
    return confirm(id, confirmation);
  };
  const erase = spends.erase.bind(spends);
  spends.erase = async (id, spend) => {
    const gone = await erase(id, spend);
    if (gone) takenBack += 1;
    return gone;
  };
  const record = spends.record.bind(spends);
  spends.record = (spend) => {
    written.push(spend);
    return record(spend);
  };
  const finish = spends.finish.bind(spends);
  spends.finish = (id, outcome) => {
    finished.push(outcome);
    return finish(id, outcome);
  };
});

describe('a 2xx whose body breaks before its audio', () => {
  it("lets go of its own part's characters once: an identical part of the same request stays reserved", async () => {
    const text = 'Said twice, the first time cut.';
    rig.sandbox.injectFault({ kind: 'reset-after', bytes: 100, endpoint: 'tts' });
    const charge = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text, text]));
    await expect(
      orderedPart(rig.source, request(text), text, new AbortController().signal, { charge }),
    ).rejects.toBeInstanceOf(UndeliveredError);
    // The second part's reservation (and so the request's hold) is still there for it.
    expect(charge.reserved).toBe(countCharacters(text));
    charge.close();
    await rig.source.close();
  });

  it('is sent once and recorded once: spent, marked undelivered, the figure the service billed', async () => {
    const text = 'Charged once, heard never.';
    rig.sandbox.injectFault({ kind: 'reset-after', bytes: 100, endpoint: 'tts' });
    const charge = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
    await expect(
      orderedPart(rig.source, request(text), text, new AbortController().signal, { charge }),
    ).rejects.toBeInstanceOf(UndeliveredError);
    charge.close();
    await rig.source.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    // Written once, ahead (before it was sent), confirmed, then finished as undelivered.
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ endpoint: 'tts', cached: false, owner: expect.any(String), unconfirmed: true });
    expect(confirmed).toEqual([expect.objectContaining({ requestId: rig.sandbox.requests[0]?.id })]);
    expect(finished).toEqual(['undelivered']);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({
      spent: rig.sandbox.charactersBilled(),
      saved: 0,
    });
  });

  it('a clone whose voice ID never arrived: recorded once as spent and undelivered, not cloned again', async () => {
    rig.sandbox.injectFault({ kind: 'clone-without-voice-id' });
    const text = 'A voice we never got to name.';
    const charge = await rig.accounting.authorize(who, [
      { text, key: text, endpoint: 'voice-clone', characters: text.length, free: false },
    ]);
    const clip = { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav', contentType: 'audio/wav' };
    await expect(rig.source.cloneVoice(text, clip, undefined, charge)).rejects.toBeInstanceOf(UndeliveredError);
    charge.close();
    await rig.source.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'voice-clone')).toHaveLength(1);
    expect(written).toEqual([expect.objectContaining({ endpoint: 'voice-clone', owner: expect.any(String) })]);
    expect(finished).toEqual(['undelivered']);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({
      spent: rig.sandbox.charactersBilled(),
      saved: 0,
    });
  });
});

const OWNER = 'test-process';
const NOTHING_LEFT = { confirmed: 0, inFlight: 0, inFlightCharacters: 0 };
/** Accounting with a server budget, so that every paid request holds its characters in the store. */
const books = (store = rig.store) =>
  new Accounting({
    store,
    rules: MONEY_RULES,
    budgets: { guildMonthlyChars: 100_000, memberDailyChars: 0, memberCooldownSeconds: 0 },
    planCharacterLimit: 300_000,
    logger: silentLogger,
    owner: OWNER,
  });
/** What the server's budget counts now: spends plus live holds, as the store's own check sees them. */
const countedByTheBudget = async () => {
  const probe = await rig.store.budgets.hold({
    guildId: 'G',
    userId: 'U',
    characters: 1_000_000,
    limits: { guildMonthlyChars: 100_000 },
    ttlMs: 1,
  });
  return probe.status === 'refused' ? probe.used : NaN;
};

describe('a paid part written ahead, before its body is read', () => {
  const paused = () => vi.waitFor(() => expect(rig.sandbox.requests.at(-1)?.outcome).toBe('paused'), EVENT);

  it('is on the books, once, while its body is paused; the body ending finishes it and writes no second record', async () => {
    const text = 'Written down before a single byte of audio was read.';
    const accounting = books();
    const source = new PartSource({ client: rig.client, logger: silentLogger, accounting });
    rig.sandbox.injectFault({ kind: 'pause-after', bytes: 6000, endpoint: 'tts' });
    const charge = await accounting.authorize(who, await source.needs(request(text), [text]));
    const part = await orderedPart(source, request(text), text, new AbortController().signal, { charge });
    await paused();
    const billed = rig.sandbox.charactersBilled();
    expect(billed).toBe(text.length);
    // Confirmed: spent from now on, its characters out of the hold (counted once by the budget, not twice).
    await vi.waitFor(
      () => expect(written).toEqual([expect.objectContaining({ owner: OWNER, characters: billed })]),
      EVENT,
    );
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: billed, saved: 0 });
    expect(await countedByTheBudget()).toBe(billed);

    rig.sandbox.resumePaused();
    await part.body.toArray();
    charge.close();
    await source.close();
    expect(written).toHaveLength(1);
    expect(finished).toEqual(['delivered']);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: billed, saved: 0 });
    expect(await countedByTheBudget()).toBe(billed);
    // Finished (delivered): nothing of this process is left confirmed for a restart to finish.
    expect(await rig.store.spends.finishLeftBy(OWNER)).toEqual(NOTHING_LEFT);
  });

  it('a process that dies mid-body: the next start finishes its spend and releases what its hold kept for parts never charged', async () => {
    const [first, second] = ['The first part was accepted.', 'The second part never was.'];
    const dying = books();
    const source = new PartSource({ client: rig.client, logger: silentLogger, accounting: dying });
    rig.sandbox.injectFault({ kind: 'pause-after', bytes: 6000, endpoint: 'tts' });
    const charge = await dying.authorize(who, await source.needs(request(first), [first, second]));
    await orderedPart(source, request(first), first, new AbortController().signal, { charge });
    await paused();
    await vi.waitFor(() => expect(written).toHaveLength(1), EVENT);
    // The first part is spent; the hold keeps the second's characters.
    expect(await countedByTheBudget()).toBe(first.length + second.length);

    // The process is gone (nothing of it runs on); the next start with the same owner finishes from the books.
    const next = books();
    expect(await next.recover()).toEqual({ ...NOTHING_LEFT, confirmed: 1, holds: 1 });
    expect(await countedByTheBudget()).toBe(rig.sandbox.charactersBilled());
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: first.length, saved: 0 });
    expect(await next.recover()).toEqual({ ...NOTHING_LEFT, holds: 0 });

    // (The test's own leftovers: the paused body let go; its finish then finds the spend finished already.)
    rig.sandbox.resumePaused();
    charge.close();
    await source.close();
    expect(written).toHaveLength(1);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: first.length, saved: 0 });
  });
});

describe('a paid part written down before its first byte leaves', () => {
  const spent = async () => (await rig.store.spends.monthTotals(month(), 'G')).spent;
  /** Fetches `text` as the one part of a request under fresh books, through `client` (the sandbox's by default). */
  async function fetchOne(text: string, client = rig.client, store = rig.store) {
    const accounting = books(store);
    const source = new PartSource({ client, logger: silentLogger, accounting });
    const charge = await accounting.authorize(who, await source.needs(request(text), [text]));
    const part = orderedPart(source, request(text), text, new AbortController().signal, { charge });
    const done = async () => {
      charge.close();
      await source.close();
    };
    return { accounting, part, done };
  }

  it('is on the books while the service holds its answer after charging; a dead process leaves it spent, in flight', async () => {
    const text = 'Charged, and its answer still on the way.';
    rig.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const { part, done } = await fetchOne(text);
    void part.catch(() => undefined);
    await vi.waitFor(() => expect(rig.sandbox.requests.at(-1)?.outcome).toBe('held'), EVENT);
    const billed = rig.sandbox.charactersBilled();
    expect(billed).toBe(text.length);
    // Written before it left: the service has charged it, and the books already say so, once.
    expect(written).toEqual([expect.objectContaining({ owner: OWNER, unconfirmed: true, characters: billed })]);
    expect(await spent()).toBe(billed);
    expect(await countedByTheBudget()).toBe(billed);

    // The process dies here; the next start counts what it left in flight as spent, and says how many.
    expect(await books().recover()).toEqual({ confirmed: 0, inFlight: 1, inFlightCharacters: billed, holds: 0 });
    expect(await spent()).toBe(billed);
    expect(await countedByTheBudget()).toBe(billed);

    // (The test's own leftovers: the answer let go; confirming and finishing it changes no count.)
    rig.sandbox.resumePaused();
    await (await part).body.toArray();
    await done();
    expect(written).toHaveLength(1);
    expect(await spent()).toBe(billed);
  });

  it('the 2xx confirms it and the body finishes it: one row, the billed figure', async () => {
    const text = 'Written, sent, accepted, heard.';
    rig.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const { part, done } = await fetchOne(text);
    await vi.waitFor(() => expect(rig.sandbox.requests.at(-1)?.outcome).toBe('held'), EVENT);
    expect(confirmed).toEqual([]);
    rig.sandbox.resumePaused();
    await (await part).body.toArray();
    await done();
    expect(written).toEqual([expect.objectContaining({ unconfirmed: true })]);
    expect(confirmed).toEqual([expect.objectContaining({ requestId: rig.sandbox.requests.at(-1)?.id })]);
    expect(finished).toEqual(['delivered']);
    expect(takenBack).toBe(0);
    expect(await spent()).toBe(rig.sandbox.charactersBilled());
    expect(await rig.store.spends.finishLeftBy(OWNER)).toEqual(NOTHING_LEFT);
  });

  it('a 400 (no 2xx) takes it back: nothing spent, nothing held', async () => {
    rig.sandbox.injectFault({
      kind: 'service-error',
      status: 400,
      body: '{"error":{"message":"no"}}',
      endpoint: 'tts',
    });
    const { part, done } = await fetchOne('Refused at the door.');
    await expect(part).rejects.toBeInstanceOf(BadRequestError);
    await done();
    expect(rig.sandbox.charactersBilled()).toBe(0);
    expect([written.length, takenBack, confirmed.length]).toEqual([1, 1, 0]);
    expect(await spent()).toBe(0);
    expect(await countedByTheBudget()).toBe(0);
    expect(await rig.store.spends.finishLeftBy(OWNER)).toEqual(NOTHING_LEFT);
  });

  it('a connection that never opened takes it back', async () => {
    // Nothing listens on port 1 of this host: the connection is refused, every attempt.
    const nowhere = new VoiceApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', retryBaseDelayMs: 1 });
    try {
      const { part, done } = await fetchOne('Nobody at that address.', nowhere);
      await expect(part).rejects.toBeInstanceOf(ConnectionError);
      await done();
    } finally {
      await nowhere.close();
    }
    expect([written.length, takenBack]).toEqual([1, 1]);
    expect(await spent()).toBe(0);
  });

  it('retried after a connection refused, then answered 2xx: written once, spent once', async () => {
    const text = 'Second time lucky.';
    const address = await refusedUntilRetry(rig.sandbox);
    const client = clientFor(rig.sandbox, { baseUrl: address.url });
    try {
      const { part, done } = await fetchOne(text, client);
      await (await part).body.toArray();
      await done();
    } finally {
      await client.close();
      await address.close();
    }
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect([written.length, confirmed.length, takenBack]).toEqual([1, 1, 0]);
    expect(await spent()).toBe(rig.sandbox.charactersBilled());
  });

  it('charged, then the connection reset before its answer: sent once, billed once, on the books as spent', async () => {
    const text = 'Charged, and the answer lost on the way.';
    rig.sandbox.injectFault({ kind: 'reset-after-charge', endpoint: 'tts' });
    const { part, done } = await fetchOne(text);
    const outcome = await part.then(
      async (audio) => audio.body.toArray(),
      (error: unknown) => error,
    );
    await done();
    // Sent again, it would be charged again while the books hold one spend for the part.
    expect(await spent()).toBeGreaterThanOrEqual(rig.sandbox.charactersBilled());
    expect(rig.sandbox.charactersBilled()).toBe(text.length);
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect(outcome).toBeInstanceOf(ConnectionError);
    expect([written.length, takenBack]).toEqual([1, 0]);
    expect(finished).toEqual(['undelivered']);
    expect(await spent()).toBeGreaterThanOrEqual(rig.sandbox.charactersBilled());
    expect(await countedByTheBudget()).toBeGreaterThanOrEqual(rig.sandbox.charactersBilled());
    expect(await rig.store.spends.finishLeftBy(OWNER)).toEqual(NOTHING_LEFT);
  });

  it('503 on every attempt: not charged, taken back', async () => {
    rig.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts', times: Infinity });
    const { part, done } = await fetchOne('Down for a while.');
    await expect(part).rejects.toBeInstanceOf(ServerError);
    await done();
    expect([written.length, takenBack]).toEqual([1, 1]);
    expect(await spent()).toBe(0);
  });

  it('sent and never answered (closed before any response, every attempt): spent and unconfirmed, at most its own characters more than billed', async () => {
    const text = 'Gone without a word.';
    rig.sandbox.injectFault({ kind: 'close-before-response', endpoint: 'tts', times: Infinity });
    const { part, done } = await fetchOne(text);
    await expect(part).rejects.toBeInstanceOf(ConnectionError);
    await done();
    expect(rig.sandbox.charactersBilled()).toBe(0);
    expect([written.length, takenBack]).toEqual([1, 0]);
    expect(finished).toEqual(['undelivered']);
    expect(await spent()).toBe(text.length);
    expect(await rig.store.spends.finishLeftBy(OWNER)).toEqual(NOTHING_LEFT);
  });

  it('a store that cannot write it down: a refusal, and nothing sent', async () => {
    const full = withFailingSpendWrites(rig.store, () => true);
    const { part, done } = await fetchOne('Not a byte before the books.', rig.client, full);
    await expect(part).rejects.toSatisfy((e) => e instanceof Refusal && e.reason.code === 'spends-unrecorded');
    await done();
    expect(rig.sandbox.requests).toEqual([]);
    expect(await spent()).toBe(0);
  });
});

describe("the bot's count against the service's own", () => {
  // What a counting mistake (UTF-16 units, bytes, no NFC, trimming) would get wrong; the sandbox counts as the
  // service's document says, with its own code.
  it.each([
    ['combining marks', 'Cafe\u0301 au lait, s\u0327il vous pla\u0131\u0302t.'],
    ['Hangul jamo (NFD)', '\u1100\u1161\u1102\u1161\u1103\u1161 \uD55C\uAD6D\uC5B4'],
    ['emoji and modifiers', 'Hi 👋🏽 and 👨‍👩‍👧 family 🇰🇷!'],
    ['whitespace and punctuation', 'Tabs\tand  spaces… “quoted” — dashes.'],
    ['astral CJK', '𠀋𡈽𡌛 ok'],
  ])('%s: recorded = billed', async (_what, text) => {
    const charge = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
    const part = await orderedPart(rig.source, request(text), text, new AbortController().signal, { charge });
    await part.body.toArray();
    charge.close();
    await rig.source.close();
    expect(rig.sandbox.charactersBilled()).toBeGreaterThan(0);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({
      spent: rig.sandbox.charactersBilled(),
      saved: 0,
    });
  });
});
