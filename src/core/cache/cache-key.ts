import { createHash } from 'node:crypto';

/**
 * The text as the cache compares it: NFC (so composed and decomposed Hangul or accents match), trimmed, and
 * every run of whitespace folded to one space (a line break or a double space does not change what is said).
 */
export function normaliseText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/**
 * A file-name-safe key (SHA-256, hex) of the audio an endpoint makes of `text` with the settings `sent` (each in
 * its declared place, null where not sent: src/core/sourcing/service-request.ts): the same always give the same key,
 * any difference another.
 */
export function cacheKey(
  endpoint: 'tts' | 'emotion-tts',
  text: string,
  sent: ReadonlyArray<string | number | null>,
): string {
  // A JSON array, not a joined string: no choice of text can make two different requests collide.
  return createHash('sha256')
    .update(JSON.stringify(['v1', endpoint, normaliseText(text), ...sent]))
    .digest('hex');
}

/**
 * The key of a part as SayBot changed it (speed, volume, pitch): derived from the key of the service's original,
 * which the change never alters, so another speed of the same text finds the original and pays nothing again. An
 * unshifted part keeps the key it had before pitch existed.
 */
export function effectsKey(originalKey: string, effects: { speed: number; volumeDb: number; pitch?: number }): string {
  const pitch = effects.pitch ?? 0;
  return createHash('sha256')
    .update(JSON.stringify(['fx1', originalKey, effects.speed, effects.volumeDb, ...(pitch === 0 ? [] : [pitch])]))
    .digest('hex');
}
