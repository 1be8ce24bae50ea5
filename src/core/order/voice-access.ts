import type { ClonedVoice, Store } from '../store/types.ts';
import { isPresetVoiceId } from '../voice-catalogue/preset-voices.ts';
import { SpeechInputError } from '../order-errors.ts';
import { isFreeVoice } from '../free-voice/free-voices.ts';

export type UsableVoice =
  | { kind: 'preset'; voiceId: string }
  | { kind: 'free'; voiceId: string }
  | { kind: 'cloned'; voiceId: string; voice: ClonedVoice };

/**
 * The one check of a voice before it is used or saved (every request's settings, /preset save, /myvoice).
 * A voice ID of the documented preset shape is accepted even when the catalogue does not list it (the service has
 * 41, documents 6), and so is a free voice's (src/core/free-voice/free-voices.ts). Anything else must be a cloned voice
 * of *this* server, by ID or by its name there: a cloned
 * voice of another server is refused exactly like an unknown one, so its existence does not leak.
 */
export async function usableVoice(store: Store, guildId: string, idOrName: string): Promise<UsableVoice> {
  if (isPresetVoiceId(idOrName)) return { kind: 'preset', voiceId: idOrName };
  // Whether the free voice may speak here is the speech path's to say (FREE_VOICE, the package installed).
  if (isFreeVoice(idOrName)) return { kind: 'free', voiceId: idOrName };
  const cloned =
    (await store.voiceLibrary.get(guildId, idOrName)) ?? (await store.voiceLibrary.findByName(guildId, idOrName));
  if (cloned) return { kind: 'cloned', voiceId: cloned.voiceId, voice: cloned };
  throw new SpeechInputError({ code: 'unknown-voice', voice: idOrName });
}
