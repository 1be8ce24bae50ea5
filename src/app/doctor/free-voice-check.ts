// npm run doctor's free voice line: which voice speaks each language when the paid one may not (the month used up, a
// budget, a failing service), as FREE_VOICE and FREE_VOICES set it and eSpeak NG's package allows.
import type { Config } from '../../core/config.ts';
import { freeVoiceInstalled, freeVoiceRules } from '../../core/free-voice/free-voice-engine.ts';
import type { DoctorCheck } from '../../features/dashboard/index.ts';

const name = 'Free voice';

/** `unoffered`: FREE_VOICES' engine voices their engine answers without (checkEngines): eSpeak NG speaks for them. */
export function checkFreeVoice(
  config: Config,
  installed = freeVoiceInstalled(),
  unoffered: ReadonlySet<string> = new Set(),
): DoctorCheck {
  const named = Object.entries(config.engines.freeVoices);
  const chosen = freeVoiceRules(config.freeVoice, installed).chosen ? 'members may choose its voices; ' : '';
  if (!config.freeVoice.fallback) {
    // FREE_VOICES with FREE_VOICE=off: the owner named voices that will never speak.
    if (named.length > 0)
      return {
        name,
        ok: true,
        warn: true,
        detail: 'FREE_VOICE=off: what the paid voice may not speak is refused, whatever FREE_VOICES names',
      };
    // FREE_VOICE=off (nor chosen) turns FREE_VOICES off too: only FREE_VOICE can turn the fallback on.
    const advice = config.freeVoice.chosen
      ? 'set FREE_VOICES, or FREE_VOICE=fallback, to speak it in a free voice'
      : 'set FREE_VOICE=fallback to speak it in a free voice; FREE_VOICES then names its voices';
    // FREE_VOICE=chosen without the package: members' picks of its voices are refused at each use.
    const missing = config.freeVoice.chosen && !installed;
    const refused = missing ? "eSpeak NG is not installed, so members' choices of its voices are refused; " : '';
    const detail = `${chosen}${refused}what the paid voice may not speak is refused (${advice})`;
    return { name, ok: true, ...(missing ? { warn: true } : {}), detail };
  }
  const espeak = installed ? "eSpeak NG's closest voice" : 'refused: eSpeak NG is not installed';
  const voiceOf = (choice: Config['engines']['freeVoices'][string]) =>
    choice.kind === 'engine'
      ? unoffered.has(choice.voice)
        ? `${espeak} (its engine does not offer ${choice.voice})`
        : `${choice.voice} (while its engine is down, ${espeak})`
      : choice.kind === 'free' && installed
        ? choice.voice
        : espeak;
  const languages = named.filter(([language]) => language !== '*').map(([language, c]) => `${language}: ${voiceOf(c)}`);
  const rest = config.engines.freeVoices['*'];
  const others = `${languages.length === 0 ? 'every language' : 'every other language'}: ${rest === undefined ? espeak : voiceOf(rest)}`;
  return {
    name,
    ok: true,
    ...(installed && unoffered.size === 0 ? {} : { warn: true }),
    detail: `${chosen}when the paid voice may not speak, ${[...languages, others].join(', ')}`,
  };
}
