// The owner's engines (src/core/engines/) as the part source's EnginePort (src/core/sourcing/engine-port.ts): which
// member's effects each engine applies itself, and which of its failures eSpeak NG may stand in for.
import type { AudioEffects } from '../core/audio/effects/effect-types.ts';
import { SPEECH_SERVER_APPLIES, VOICEVOX_APPLIES } from '../core/engines/engine-controls.ts';
import { EngineError } from '../core/engines/engine-errors.ts';
import type { Engines } from '../core/engines/engines.ts';
import type { AppliedControls, EnginesConfig } from '../core/engines/engine-types.ts';
import { engineVoiceLanguage, parseEngineVoiceId } from '../core/engines/engine-voices.ts';
import type { EnginePort } from '../core/sourcing/engine-port.ts';
import { workClassOf } from '../core/audio/workers/work-classes.ts';
import { estimateSpeechSeconds } from '../core/quota/seconds-bounds.ts';
import { ESPEAK_CHOICE, type FreeVoiceChoice } from '../core/sourcing/part-source.ts';

const effectNames = (applies: Readonly<AppliedControls>): Array<keyof AudioEffects> => [
  ...(applies.speed ? (['speed'] as const) : []),
  ...(applies.pitch ? (['pitch'] as const) : []),
  ...(applies.volume ? (['volumeDb'] as const) : []),
];

export function enginePort(engines: Engines): EnginePort {
  return {
    voice: (id) => engines.voice(id),
    voices: () => engines.voices(),
    down: (id) => engines.down(id),
    language: (id) => engines.voice(id)?.language ?? engineVoiceLanguage(id),
    controls: (id) =>
      effectNames(parseEngineVoiceId(id)?.engine === 'voicevox' ? VOICEVOX_APPLIES : SPEECH_SERVER_APPLIES),
    speakLine: async (text, voiceId, controls, owner, signal) => {
      // Its class as SayBot's other audio work's: the seconds it will say, at natural speech's rate.
      const long = workClassOf({ seconds: estimateSpeechSeconds(text) / (controls?.speed ?? 1) }) === 'long';
      return (await engines.synthesize(text, voiceId, controls ?? {}, owner, signal, long)).body;
    },
    // A server past its share of the engine is told busy; any other failure of the engine, eSpeak NG may speak for.
    failed: (error) => error instanceof EngineError && error.reason !== 'busy',
  };
}

/** FREE_VOICES as the part source reads it: a language (or `*`) to a free voice's ID, or `espeak`. */
export function freeVoiceChoice(config: EnginesConfig): FreeVoiceChoice | undefined {
  const entries = Object.entries(config.freeVoices).map(([language, choice]): [string, string] => [
    language,
    choice.kind === 'espeak' ? ESPEAK_CHOICE : choice.voice,
  ]);
  return entries.length === 0 ? undefined : new Map(entries);
}
