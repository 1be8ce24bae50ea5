// What is to be said: a type-only module shared by the pipeline and the parts it uses (clips, part source).
import type { AudioResponse } from '../api/client.ts';
import type { AudioEffects } from '../audio/effects/effect-types.ts';

/** What to say and how: the settings resolved from the front-end's input, presets and defaults (settings.ts). */
export type SpeechRequest =
  | {
      kind: 'tts';
      text: string;
      voice: string;
      language?: string | undefined;
      format: 'wav' | 'mp3';
      tone?: string | undefined;
      effects?: AudioEffects;
    }
  | { kind: 'emotion'; text: string; voice: string; exaggeration: number; effects?: AudioEffects }
  /** Audio the service already sent (a voice clone's first line): played or posted as it is, no further call. */
  | { kind: 'ready'; text: string; voice: string; response: AudioResponse };
