// What a speech request becomes at the Voice API: the body, and the cache key of its audio. The keys are pinned as
// released (computed before the settings were declared once): a cache filled by an earlier SayBot keeps being found.
import { describe, expect, it } from 'vitest';
import { partCacheKey, serviceBody } from '../../../src/core/sourcing/service-request.ts';
import type { ServiceRequest } from '../../../src/core/settings/speech-request.ts';

const PINNED: Array<[string, ServiceRequest, string, string]> = [
  [
    'tts, nothing but the voice',
    { kind: 'tts', text: 'x', voice: 'voice-b-en-f-01', format: 'wav' },
    'Hello there',
    '530b64f8dac90dded1460cf7679175b62b2809ff56ae10d78baedf0b8e0ba350',
  ],
  [
    'tts with language, format and tone',
    { kind: 'tts', text: 'x', voice: 'voice-b-ko-m-01', format: 'mp3', language: 'ko', tone: 'whispering' },
    '안녕하세요',
    'ac975edfab15754783e1e0bd6fa17cbd2f7d72f1ac930ebac36a65f7ea385d2f',
  ],
  [
    'tts with speed and volume (effects never change the original key)',
    { kind: 'tts', text: 'x', voice: 'voice-b-en-f-01', format: 'wav', effects: { speed: 1.5, volumeDb: -6 } },
    'Hello there',
    '530b64f8dac90dded1460cf7679175b62b2809ff56ae10d78baedf0b8e0ba350',
  ],
  [
    'emotion',
    { kind: 'emotion', text: 'x', voice: 'voice-b-ko-f-01', exaggeration: 0.8 },
    'Wow!',
    'e970d902b05220e9df3e7dcc505aea44b6a34ae74a2cdde6aaf4c584978f67e0',
  ],
  [
    'a cloned voice',
    { kind: 'tts', text: 'x', voice: 'clone_abc123', format: 'wav', language: 'en' },
    'Hi',
    '67b50285828410ad74eeda1702fd7d0bd0fe41812704587f2b9fe5bb6c6b043a',
  ],
];

describe('a request at the Voice API', () => {
  it.each(PINNED)('%s: its cache key is the one released', (_, request, text, key) => {
    expect(partCacheKey(request, text)).toBe(key);
  });

  it('tts: sends the text, the voice, the format, the language and the tone under their wire names', () => {
    expect(
      serviceBody({ kind: 'tts', text: 'x', voice: 'v', format: 'mp3', language: 'ja', tone: 'calm' }, 'part'),
    ).toEqual({
      endpoint: 'tts',
      body: { text: 'part', voice_id: 'v', output_format: 'mp3', language: 'ja', tone_instruction: 'calm' },
    });
  });

  it('emotion: sends the text, the voice and the exaggeration; never a format or a tone', () => {
    expect(serviceBody({ kind: 'emotion', text: 'x', voice: 'v', exaggeration: 0.3 }, 'part')).toEqual({
      endpoint: 'emotion-tts',
      body: { text: 'part', voice: 'v', exaggeration: 0.3 },
    });
  });

  it('keys differ by every field sent, and whitespace in the text does not', () => {
    const base: ServiceRequest = { kind: 'tts', text: 'x', voice: 'v', format: 'wav' };
    const keys = new Set([
      partCacheKey(base, 'a b'),
      partCacheKey({ ...base, format: 'mp3' }, 'a b'),
      partCacheKey({ ...base, language: 'en' }, 'a b'),
      partCacheKey({ ...base, tone: 't' }, 'a b'),
      partCacheKey({ ...base, voice: 'w' }, 'a b'),
      partCacheKey({ kind: 'emotion', text: 'x', voice: 'v', exaggeration: 0.5 }, 'a b'),
    ]);
    expect(keys.size).toBe(6);
    expect(partCacheKey(base, ' a \n b ')).toBe(partCacheKey(base, 'a b'));
  });
});
