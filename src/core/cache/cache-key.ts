import { createHash } from 'node:crypto';

/** Everything that shapes the audio of one request: requests equal in all of these sound the same. */
export interface CacheKeyFields {
  endpoint: 'tts' | 'emotion-tts';
  text: string;
  voice: string;
  language?: string | undefined;
  format?: string;
  tone?: string | undefined;
  exaggeration?: number;
}

/**
 * The text as the cache compares it: NFC (so composed and decomposed Hangul or accents match), trimmed, and
 * every run of whitespace folded to one space (a line break or a double space does not change what is said).
 */
export function normaliseText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** A file-name-safe key (SHA-256, hex): the same fields always give the same key, any difference another. */
export function cacheKey(fields: CacheKeyFields): string {
  // A JSON array, not a joined string: no choice of text can make two different requests collide.
  const parts = [
    'v1',
    fields.endpoint,
    normaliseText(fields.text),
    fields.voice,
    fields.language ?? null,
    fields.format ?? null,
    fields.tone ?? null,
    fields.exaggeration ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
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
