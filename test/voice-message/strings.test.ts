import { describe, expect, it } from 'vitest';
import { en } from '../../src/bot/i18n/en.ts';
import type { VoiceMessageFallbackReason } from '../../src/bot/voice-message-post.ts';
import { voiceMessageStrings } from '../../src/voice-message/strings.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the voice-message words waiting for the catalogue', () => {
  it('give every key in en, ko and ja with the same placeholders', () => {
    const keys = Object.keys(voiceMessageStrings.en).sort();
    for (const [language, table] of Object.entries(voiceMessageStrings)) {
      expect(Object.keys(table).sort(), language).toEqual(keys);
      for (const [key, text] of Object.entries(table)) {
        expect(text.trim(), `${language} ${key}`).toBeTruthy();
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders((voiceMessageStrings.en as Record<string, string>)[key] ?? ''));
      }
    }
  });

  it('word every fallback reason postVoiceMessage can give, and add no key the catalogue has but the output description', () => {
    const reasons: VoiceMessageFallbackReason[] = ['no-permission', 'not-allowed-here', 'too-large', 'refused'];
    for (const reason of reasons) expect(voiceMessageStrings.en).toHaveProperty([`voiceMessage.fallback.${reason}`]);
    expect(Object.keys(voiceMessageStrings.en).filter((key) => key in en)).toEqual(['option.output.description']);
  });
});
