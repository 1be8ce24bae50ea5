// Never paid twice, never unrecorded (issue 23, point 6): PartSource with the real client against the sandbox
// (which bills at acceptance, with its own count) and real accounting on an SQLite store.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UndeliveredError, VoiceApiClient } from '../../src/api/index.ts';
import { silentLogger } from '../../src/log.ts';
import { Accounting } from '../../src/quota/accounting.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { PartSource } from '../../src/speech/part-source.ts';
import type { SpeechRequest } from '../../src/speech/pipeline.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import type { NewSpend } from '../../src/store/types.ts';
import { fixture } from '../audio/fixtures.ts';

const who = { guildId: 'G', userId: 'U', command: 'say' };
const request = (text: string): SpeechRequest => ({ kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' });
const month = () => new Date().toISOString().slice(0, 7);

let sandbox: Sandbox;
let client: VoiceApiClient;
let store: SqliteStore;
let accounting: Accounting;
let source: PartSource;
/** Every spend the store was given, as given. */
let written: NewSpend[];

beforeAll(async () => {
  sandbox = await startSandbox();
  client = new VoiceApiClient({ baseUrl: sandbox.url, apiKey: sandbox.testKey, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
beforeEach(() => {
  store = new SqliteStore(':memory:');
  written = [];
  const record = store.spends.record.bind(store.spends);
  store.spends.record = (spend) => {
    written.push(spend);
    return record(spend);
  };
  accounting = new Accounting({ store, budgets: { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 }, planCharacterLimit: 300_000, logger: silentLogger });
  source = new PartSource({ client, logger: silentLogger, accounting });
});
afterEach(async () => {
  await source.close();
  await store.close();
  sandbox.clearFaults();
  sandbox.resetCounters();
});

describe('a 2xx whose body breaks before its audio', () => {
  it('is sent once and recorded once: spent, marked undelivered, the figure the service billed', async () => {
    const text = 'Charged once, heard never.';
    sandbox.injectFault({ kind: 'reset-after', bytes: 100, endpoint: 'tts' });
    const charge = await accounting.authorize(who, await source.needs(request(text), [text]));
    await expect(source.fetch(request(text), text, new AbortController().signal, charge)).rejects.toBeInstanceOf(UndeliveredError);
    charge.close();
    await source.close();
    expect(sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ endpoint: 'tts', cached: false, undelivered: true, requestId: sandbox.requests[0]?.id });
    expect(await store.spends.monthTotals(month(), 'G')).toEqual({ spent: sandbox.charactersBilled(), saved: 0 });
  });

  it('a clone whose voice ID never arrived: recorded once as spent and undelivered, not cloned again', async () => {
    sandbox.injectFault({ kind: 'clone-without-voice-id' });
    const text = 'A voice we never got to name.';
    const charge = await accounting.authorize(who, [{ text, endpoint: 'voice-clone', characters: text.length, free: false }]);
    const clip = { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav', contentType: 'audio/wav' };
    await expect(source.cloneVoice(text, clip, undefined, charge)).rejects.toBeInstanceOf(UndeliveredError);
    charge.close();
    await source.close();
    expect(sandbox.requests.filter((r) => r.endpoint === 'voice-clone')).toHaveLength(1);
    expect(written).toEqual([expect.objectContaining({ endpoint: 'voice-clone', undelivered: true })]);
    expect(await store.spends.monthTotals(month(), 'G')).toEqual({ spent: sandbox.charactersBilled(), saved: 0 });
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
    const charge = await accounting.authorize(who, await source.needs(request(text), [text]));
    const part = await source.fetch(request(text), text, new AbortController().signal, charge);
    await part.body.toArray();
    charge.close();
    await source.close();
    expect(sandbox.charactersBilled()).toBeGreaterThan(0);
    expect(await store.spends.monthTotals(month(), 'G')).toEqual({ spent: sandbox.charactersBilled(), saved: 0 });
  });
});
