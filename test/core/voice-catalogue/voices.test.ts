// The free voice that stands in for a paid one (espeakVoiceFor): its gender, and the language it can speak.
import { espeakVoiceFor } from '../../../src/core/voice-catalogue/voices.ts';
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
