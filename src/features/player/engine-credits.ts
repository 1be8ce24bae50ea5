// The credits the owner's engines' terms ask for (VOICEVOX:<speaker>), said once where SayBot joins a voice channel.
import { asWritten } from '../../core/interactions/safe-text.ts';
import type { OfferedVoice } from '../../core/sourcing/engine-port.ts';

/** Credits named in one notice: a long catalogue is summed up after them, so the notice stays one short line. */
export const MAX_CREDITS_NAMED = 12;

/** The distinct credits of `voices`, joined, the rest counted; undefined when none asks for one. */
export function engineCredits(voices: readonly OfferedVoice[]): string | undefined {
  // An engine's names are its own words: said as written, never as Discord markdown or a link in the channel.
  const credits = [
    ...new Set(voices.flatMap((voice) => (voice.credit === undefined ? [] : [asWritten(voice.credit)]))),
  ];
  if (credits.length === 0) return undefined;
  const named = credits.slice(0, MAX_CREDITS_NAMED).join(', ');
  const more = credits.length - MAX_CREDITS_NAMED;
  return more > 0 ? `${named} (+${more})` : named;
}
