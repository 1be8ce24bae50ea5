// Whose voice reads a message: the settings /say uses without options (speech/settings.ts chooseSettings: the
// member's /myvoice, else the server's default preset, else the built-in voice of the server's language). A voice
// that can no longer be used (a cloned voice deleted meanwhile) falls back to the built-in settings: a chat message
// is read rather than lost.
import { SpeechInputError } from '../speech/errors.ts';
import type { SpeechRequest } from '../speech/pipeline.ts';
import { chooseSettings, resolveSettings, ttsRequest, type ResolvedSettings } from '../speech/settings.ts';
import type { Store } from '../store/types.ts';

export async function autoreadSpeechRequest(
  store: Store,
  guild: { id: string; preferredLocale: string | null },
  /** Whose /myvoice applies; null: the server's voice (join/leave lines). */
  userId: string | null,
  text: string,
): Promise<SpeechRequest> {
  let settings: ResolvedSettings;
  try {
    settings = await chooseSettings(store, { guildId: guild.id, userId, options: {}, guildLocale: guild.preferredLocale });
  } catch (error) {
    if (!(error instanceof SpeechInputError)) throw error;
    settings = resolveSettings({ options: {}, guildLocale: guild.preferredLocale });
  }
  return ttsRequest(text, settings);
}
