// The member's words taken out of what a service or gateway says back (src/core/api/echoes.ts).
import { expect, it } from 'vitest';
import { ECHO, REDACTED, withoutEchoes, withoutSecretRuns } from '../../../src/core/api/echoes.ts';

it('takes out every word of the request of four code points or more, and the request whole', () => {
  const said = ['Pelican marmalade, for the gateway!', 'こんにちは世界'];
  expect(withoutEchoes('upstream failed for "Pelican marmalade, for the gateway!"', said)).toBe(
    `upstream failed for "${ECHO}"`,
  );
  expect(withoutEchoes('the marmalade word and the gateway word', said)).toBe(`the ${ECHO} word and the ${ECHO} word`);
  expect(withoutEchoes('「こんにちは世界」は長すぎます', said)).toBe(`「${ECHO}」は長すぎます`);
  // The service's own words stay: short words, and words the request does not hold.
  expect(withoutEchoes('voice_id not found for the request', said)).toBe('voice_id not found for the request');
  expect(withoutEchoes('nothing said', [])).toBe('nothing said');
});

it('leaves a word of the voice it was said in, so the voice ID the service names is not garbled (bb11)', () => {
  const said = ['Say this in my voice, please.'];
  expect(withoutEchoes('unknown voice: voice-b-en-f-99', said)).toBe(`unknown ${ECHO}: ${ECHO}-b-en-f-99`);
  expect(withoutEchoes('unknown voice: voice-b-en-f-99', said, 'voice-b-en-f-99')).toBe(
    'unknown voice: voice-b-en-f-99',
  );
  expect(withoutEchoes('please: voice-b-en-f-99', said, 'voice-b-en-f-99')).toBe(`${ECHO}: voice-b-en-f-99`);
});

it('takes out every run of eight or more characters of the key a service quotes, not only the whole key', () => {
  const key = 'sk-live-SAYBOT-0123456789abcdef87dbb607ed48';
  expect(withoutSecretRuns('The key ending 87dbb607ed48 timed out.', key)).toBe(
    `The key ending ${REDACTED} timed out.`,
  );
  expect(withoutSecretRuns(`key ${key} refused`, key)).toBe(`key ${REDACTED} refused`);
  // Shorter runs are words anyone may write.
  expect(withoutSecretRuns('sk-live is the prefix', key)).toBe('sk-live is the prefix');
});
