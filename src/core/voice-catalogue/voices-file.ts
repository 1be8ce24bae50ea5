import { PRESET_VOICE_ID, type PresetVoice } from './voices.ts';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * VOICES_FILE: extra preset voices the operator knows (the service documents six of 41), language and gender read
 * from the ID: [{ "id": "voice-b-de-m-01", "character": "deep male newsreader" }]
 */
const VoicesFileSchema = z
  .array(
    z.strictObject({
      id: z.string().regex(PRESET_VOICE_ID, 'must be a preset voice ID such as voice-b-de-m-01'),
      character: z.string().trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters'),
    }),
  )
  .max(200, 'lists at most 200 voices');

/** Reads and checks the file; throws one Error whose lines each name an entry and what is wrong with it. */
export function readVoicesFile(file: string): PresetVoice[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
    throw new Error(`${why} (${file})`, { cause: error });
  }
  const parsed = VoicesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      parsed.error.issues
        .map((issue) => `${issue.path.length === 0 ? 'the list' : `entry ${issue.path.join('.')}`} ${issue.message}`)
        .join('; '),
    );
  }
  return parsed.data.map(({ id, character }) => {
    const [, language = '', gender] = PRESET_VOICE_ID.exec(id) ?? [];
    return { id, language, gender: gender === 'm' ? 'm' : 'f', character };
  });
}
