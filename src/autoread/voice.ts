// Whose voice reads a message: the member's /myvoice, else the server's default preset, else the built-in voice of
// the server's language (speech/settings.ts, the order /say follows without options). A voice that can no longer
// be used (a cloned voice deleted meanwhile) falls back to the built-in one: a chat message is read rather than lost.
import { usableVoice } from '../speech/voice-access.ts';
import { resolveSettings } from '../speech/settings.ts';
import type { SpeechRequest } from '../speech/pipeline.ts';
import type { Store } from '../store/types.ts';

export async function autoreadSpeechRequest(
  store: Store,
  guild: { id: string; preferredLocale: string | null },
  /** Whose /myvoice applies; null: the server's voice (join/leave lines). */
  userId: string | null,
  text: string,
): Promise<SpeechRequest> {
  const [member, server] = await Promise.all([
    userId === null ? undefined : store.getMemberDefaults(guild.id, userId),
    store.getDefaultPreset(guild.id),
  ]);
  const settings = resolveSettings({
    options: {},
    member,
    server: server && { name: server.name, settings: server },
    guildLocale: guild.preferredLocale,
  });
  let voice: string;
  try {
    voice = (await usableVoice(store, guild.id, settings.voice)).voiceId;
  } catch {
    voice = resolveSettings({ options: {}, guildLocale: guild.preferredLocale }).voice;
  }
  return {
    kind: 'tts',
    text,
    voice,
    format: settings.format,
    ...(settings.language === undefined ? {} : { language: settings.language }),
    ...(settings.tone === undefined ? {} : { tone: settings.tone }),
  };
}
