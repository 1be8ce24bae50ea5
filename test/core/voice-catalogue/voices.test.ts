// The free voice that stands in for a paid one (espeakVoiceFor): its gender, and the language it can speak. Whether a
// voice may be spoken here (admitVoice): the one place each refusal is decided.
import { SpeechInputError } from '../../../src/core/order-errors.ts';
import { admitVoice, espeakVoiceFor } from '../../../src/core/voice-catalogue/voices.ts';
import { describe, expect, it } from 'vitest';

describe('espeakVoiceFor', () => {
  it.each([
    ['voice-b-ko-m-01', undefined, 'free-ko-m'],
    ['voice-b-en-f-01', 'ja', 'free-ja-f'],
    // A region: the language before it.
    ['voice-b-en-f-01', 'ko-KR', 'free-ko-f'],
    ['voice-b-en-m-01', 'ZH-cn', 'free-zh-m'],
    // No free voice speaks Italian: the preset's own language before English.
    ['voice-b-ja-f-01', 'it', 'free-ja-f'],
    ['voice-b-it-m-01', 'it', 'free-en-m'],
    // A cloned voice: no gender or language in its ID.
    ['clone_1234', undefined, 'free-en-f'],
    [undefined, 'fr', 'free-fr-f'],
  ])('%s speaking %s -> %s', (voice, language, expected) => {
    expect(espeakVoiceFor(voice, language)).toBe(expected);
  });
});

describe('admitVoice', () => {
  const offered = new Set(['voicevox:3']);
  const here = (over: { espeak?: boolean; chosen?: boolean; down?: boolean; engines?: boolean } = {}) => ({
    deleted: new Set(['clone_gone']),
    freeVoice: { espeak: over.espeak ?? true, chosen: over.chosen ?? true },
    engines:
      over.engines === false
        ? undefined
        : { voice: (id: string) => (offered.has(id) ? { id } : undefined), down: () => over.down ?? false },
  });
  const refusal = (voice: string, at: ReturnType<typeof here>, chosen = false) => {
    try {
      admitVoice(voice, at, chosen);
      return undefined;
    } catch (error) {
      if (!(error instanceof SpeechInputError)) throw error;
      return error.problem.code;
    }
  };

  it('admits a preset, a clone not deleted, an offered engine voice and eSpeak NG where it speaks', () => {
    for (const voice of ['voice-b-en-f-01', 'clone_here', 'voicevox:3', 'free-en-f'])
      expect(refusal(voice, here(), true)).toBeUndefined();
  });

  it('refuses a cloned voice deleted since', () => {
    expect(refusal('clone_gone', here())).toBe('voice-deleted');
  });

  it("refuses eSpeak NG's voice where it is not installed, and as a member's choice where FREE_VOICE does not let them", () => {
    expect(refusal('free-ko-m', here({ espeak: false }))).toBe('free-voice-unavailable');
    expect(refusal('free-ko-m', here({ chosen: false }), true)).toBe('free-voice-unavailable');
    // Standing in is not choosing it.
    expect(refusal('free-ko-m', here({ chosen: false }))).toBeUndefined();
  });

  it('refuses an engine voice no engine offers, or with no engine, but not one whose engine is down (stood in)', () => {
    expect(refusal('voicevox:9', here())).toBe('engine-voice-unknown');
    expect(refusal('voicevox:3', here({ engines: false }))).toBe('engine-voice-unknown');
    expect(refusal('voicevox:9', here({ down: true }))).toBeUndefined();
  });
});
