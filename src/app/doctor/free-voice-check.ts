// npm run doctor's free voice line: which voice speaks each language when the paid one may not (the month used up, a
// budget, a failing service), as FREE_VOICE and FREE_VOICES set it and eSpeak NG's package allows.
import type { Config } from '../../core/config.ts';
import { freeVoiceInstalled } from '../../core/free-voice/free-voice-engine.ts';
import type { CheckResult } from './check-result.ts';

const name = 'Free voice';

export function checkFreeVoice(config: Config, installed = freeVoiceInstalled()): CheckResult {
  const named = Object.entries(config.engines.freeVoices);
  const chosen = config.freeVoice.chosen && installed ? 'members may choose its voices; ' : '';
  if (!config.freeVoice.fallback) {
    // FREE_VOICES with FREE_VOICE=off: the owner named voices that will never speak.
    if (named.length > 0)
      return {
        name,
        ok: true,
        warn: true,
        detail: 'FREE_VOICE=off: what the paid voice may not speak is refused, whatever FREE_VOICES names',
      };
    return {
      name,
      ok: true,
      detail: `${chosen}what the paid voice may not speak is refused (set FREE_VOICES, or FREE_VOICE=fallback, to speak it in a free voice)`,
    };
  }
  const espeak = installed ? "eSpeak NG's closest voice" : 'refused: eSpeak NG is not installed';
  const voiceOf = (choice: Config['engines']['freeVoices'][string]) =>
    choice.kind === 'engine'
      ? `${choice.voice} (while its engine is down, ${espeak})`
      : choice.kind === 'free' && installed
        ? choice.voice
        : espeak;
  const languages = named.filter(([language]) => language !== '*').map(([language, c]) => `${language}: ${voiceOf(c)}`);
  const rest = config.engines.freeVoices['*'];
  const others = `${languages.length === 0 ? 'every language' : 'every other language'}: ${rest === undefined ? espeak : voiceOf(rest)}`;
  return {
    name,
    ok: true,
    ...(installed ? {} : { warn: true }),
    detail: `${chosen}when the paid voice may not speak, ${[...languages, others].join(', ')}`,
  };
}
