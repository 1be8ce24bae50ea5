// The books' writes around a paid request (its early write, its confirmation, its finish) wait on the store no
// longer than its checks do (storeDeadlineMs): a hung store refuses a request before anything is sent, and never
// holds audio already paid for. PartSource with the real client against the sandbox, real accounting on SQLite
// behind a store whose spend writes hang.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.ts';
import { Accounting } from '../../../src/core/quota/accounting.ts';
import { MONEY_RULES } from '../../../src/core/quota/money.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { PartSource, orderedPart } from '../../../src/core/sourcing/part-source.ts';
import type { SpeechRequest } from '../../../src/core/order/pipeline.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { withHangingSpendWrites } from '../store/failing-store.ts';
import { useSpeechRig } from '../../support/speech-rig.ts';

const who = { guildId: 'G', userId: 'U', command: 'say' };
const request = (text: string): SpeechRequest => ({ kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' });
const month = () => new Date().toISOString().slice(0, 7);
const OWNER = 'test-process';

const rig = useSpeechRig();
const spent = async () => (await rig.store.spends.monthTotals(month(), 'G')).spent;

/** Fresh books on `store` with a small store deadline, and the warnings they log. */
function booksOn(store: Store) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const accounting = new Accounting({
    store,
    rules: MONEY_RULES,
    budgets: { guildMonthlyChars: 100_000, memberDailyChars: 0, memberCooldownSeconds: 0 },
    planCharacterLimit: 300_000,
    logger: createLogger({ level: 'warn', destination }),
    owner: OWNER,
    storeDeadlineMs: 50,
  });
  const source = new PartSource({ client: rig.client, logger: createLogger({ level: 'silent' }), accounting });
  return { accounting, source, lines };
}

describe('a store that hangs on the books', () => {
  it('at the early write: the request is refused and nothing is sent; a write that lands later is taken back', async () => {
    const hung = withHangingSpendWrites(rig.store, ['record']);
    const { accounting, source } = booksOn(hung.store);
    const text = 'Not a byte before the books.';
    const charge = await accounting.authorize(who, await source.needs(request(text), [text]));
    const part = orderedPart(source, request(text), text, new AbortController().signal, { charge });
    await expect(part).rejects.toSatisfy((e) => e instanceof Refusal && e.reason.code === 'storage-unavailable');
    expect(rig.sandbox.requests).toEqual([]);

    // The store answers at last: the row it wrote is for a request never sent, so it is taken back.
    hung.letGo();
    charge.close();
    await source.close();
    await expect.poll(spent).toBe(0);
    expect(await rig.store.spends.finishLeftBy(OWNER)).toEqual({ confirmed: 0, inFlight: 0, inFlightCharacters: 0 });
  });

  it('at the confirmation and finish: the audio still arrives, the spend stays on the books as written', async () => {
    const hung = withHangingSpendWrites(rig.store, ['confirm', 'finish']);
    const { accounting, source, lines } = booksOn(hung.store);
    const text = 'Paid for, and heard all the same.';
    const charge = await accounting.authorize(who, await source.needs(request(text), [text]));
    const part = await orderedPart(source, request(text), text, new AbortController().signal, { charge });
    const audio = await part.body.toArray();
    charge.close();
    await source.close();
    expect(audio.length).toBeGreaterThan(0);
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    // Spent as written before it left: never fewer than the service billed.
    expect(await spent()).toBe(rig.sandbox.charactersBilled());
    // One line for each write the store did not answer in time, and nothing else said.
    const late = lines.filter((l) => l.code === 'books-write-late');
    expect(late.map((l) => l.step)).toEqual(['confirm', 'finish']);
    expect(late.every((l) => l.deadlineMs === 50 && l.characters === text.length)).toBe(true);
    hung.letGo();
  });
});
