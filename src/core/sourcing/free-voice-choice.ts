// Which free voice speaks a paid request when the paid one may not (refused for money, the service failing): the
// owner's FREE_VOICES, per language, eSpeak NG's closest voice the last resort.
import { freeVoiceFor } from '../free-voice/free-voices.ts';
import { PRESET_VOICE_ID } from '../voice-catalogue/preset-voices.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';

/**
 * FREE_VOICES as the config reads it: a language (ISO 639-1, lower case; `*` for every other) to a free voice's ID
 * (`voicevox:3`, `speech:af_heart`, `free-en-f`) or `espeak` (eSpeak NG's voice closest to the request).
 */
export type FreeVoiceChoice = ReadonlyMap<string, string>;

/** The word FREE_VOICES uses for eSpeak NG's closest voice. */
export const ESPEAK_CHOICE = 'espeak';

/**
 * A request's language: its `language` option, else its voice's (a preset voice's ID names it), lower case and
 * without its region (`ko-KR` is `ko`).
 */
export function requestLanguage(request: Pick<ServiceRequest, 'voice' | 'language'>): string | undefined {
  const given = request.language?.split('-')[0]?.toLowerCase();
  return given !== undefined && given !== '' ? given : PRESET_VOICE_ID.exec(request.voice)?.[1];
}

/**
 * The free voice that stands in for `request`: FREE_VOICES' for its language (else its `*`) where `usable` says that
 * voice can speak now (its engine offers it and answers; eSpeak NG can speak), else eSpeak NG's closest where it can;
 * undefined where none can.
 */
export function standInVoice(
  choice: FreeVoiceChoice | undefined,
  request: Pick<ServiceRequest, 'voice' | 'language'>,
  usable: (voiceId: string) => boolean,
): string | undefined {
  const language = requestLanguage(request);
  const wanted = (language === undefined ? undefined : choice?.get(language)) ?? choice?.get('*') ?? ESPEAK_CHOICE;
  if (wanted !== ESPEAK_CHOICE && usable(wanted)) return wanted;
  const espeak = freeVoiceFor(request.voice, request.language);
  return usable(espeak) ? espeak : undefined;
}
