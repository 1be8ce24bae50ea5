// Never paid twice, never unrecorded: PartSource with the real client against the sandbox
// (which bills at acceptance, with its own count) and real accounting on an SQLite store.
import { beforeEach, describe, expect, it } from 'vitest';
import { UndeliveredError } from '../../src/core/api/index.ts';
import type { SpeechRequest } from '../../src/core/speech/pipeline.ts';
import type { NewSpend } from '../../src/core/store/types.ts';
import { fixture } from '../audio/fixtures.ts';
import { useSpeechRig } from '../support/speech-rig.ts';

const who = { guildId: 'G', userId: 'U', command: 'say' };
const request = (text: string): SpeechRequest => ({ kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' });
const month = () => new Date().toISOString().slice(0, 7);

const rig = useSpeechRig();
/** Every spend the store was given, as given. */
let written: NewSpend[];

beforeEach(() => {
  written = [];
  const { spends } = rig.store;
  const record = spends.record.bind(spends);
  spends.record = (spend) => {
    written.push(spend);
    return record(spend);
  };
});

describe('a 2xx whose body breaks before its audio', () => {
  it('is sent once and recorded once: spent, marked undelivered, the figure the service billed', async () => {
    const text = 'Charged once, heard never.';
    rig.sandbox.injectFault({ kind: 'reset-after', bytes: 100, endpoint: 'tts' });
    const charge = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
    await expect(rig.source.fetch(request(text), text, new AbortController().signal, charge)).rejects.toBeInstanceOf(
      UndeliveredError,
    );
    charge.close();
    await rig.source.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      endpoint: 'tts',
      cached: false,
      undelivered: true,
      requestId: rig.sandbox.requests[0]?.id,
    });
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({
      spent: rig.sandbox.charactersBilled(),
      saved: 0,
    });
  });

  it('a clone whose voice ID never arrived: recorded once as spent and undelivered, not cloned again', async () => {
    rig.sandbox.injectFault({ kind: 'clone-without-voice-id' });
    const text = 'A voice we never got to name.';
    const charge = await rig.accounting.authorize(who, [
      { text, endpoint: 'voice-clone', characters: text.length, free: false },
    ]);
    const clip = { data: fixture('tone-220hz-5s-48k.wav'), filename: 'ref.wav', contentType: 'audio/wav' };
    await expect(rig.source.cloneVoice(text, clip, undefined, charge)).rejects.toBeInstanceOf(UndeliveredError);
    charge.close();
    await rig.source.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'voice-clone')).toHaveLength(1);
    expect(written).toEqual([expect.objectContaining({ endpoint: 'voice-clone', undelivered: true })]);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({
      spent: rig.sandbox.charactersBilled(),
      saved: 0,
    });
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
    const part = await rig.source.fetch(request(text), text, new AbortController().signal, charge);
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
