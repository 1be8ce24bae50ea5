// The voice autocomplete's choices: cloned voices of the server first, then the preset voices, then the free voices
// when the free voice may speak, each by its ID or its words, in the member's language.
import { ESPEAK_VOICES } from '../../../src/core/voice-catalogue/voices.ts';
import { describe, expect, it } from 'vitest';
import { voiceChoices } from '../../../src/core/interactions/choices.ts';
import '../../../src/app/feature-strings.ts';

describe('the voice choices', () => {
  it('offer the free voices after the presets only when given them, named as free in the member language', () => {
    const without = voiceChoices('', 'en-US', 'ko');
    expect(without.some((choice) => choice.value.startsWith('free-'))).toBe(false);
    const withFree = voiceChoices('', 'en-US', 'ko', undefined, [], ESPEAK_VOICES);
    expect(withFree.filter((choice) => choice.value.startsWith('free-')).map((choice) => choice.value)).toEqual([
      'free-ko-f',
      'free-ko-m',
    ]);
    expect(withFree.at(-1)?.name).toBe('Korean · free voice, no characters (free-ko-m)');
    expect(voiceChoices('무료', 'ko', undefined, undefined, [], ESPEAK_VOICES).length).toBe(ESPEAK_VOICES.length);
  });

  it('find a voice by the words of its name as typed, in any order, without the "·" between them', () => {
    // As the Voice API names it ("English friendly female") and the choice shows it ("English · friendly female").
    const found = (typed: string) => voiceChoices(typed, 'en-US').map((choice) => choice.value);
    expect(found('English friendly')).toEqual(['voice-b-en-f-01']);
    expect(found('  female   ENGLISH friendly ')).toEqual(['voice-b-en-f-01']);
    expect(found('friendly')).toEqual(['voice-b-ko-f-01', 'voice-b-en-f-01']);
    expect(found('English unfriendly')).toEqual([]);
  });
});
