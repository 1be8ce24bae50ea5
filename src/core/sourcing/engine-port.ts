// What the part source needs of the owner's speech engines (src/core/engines/): types only, so that sourcing depends on
// no engine's client. The app makes it from the engines it started (src/app/start-saybot.ts).
import type { Readable } from 'node:stream';
import type { AudioEffects } from '../audio/effects/effect-types.ts';

/** One voice an engine offers now. */
export interface OfferedVoice {
  /** `voicevox:<style id>` or `speech:<name>`. */
  readonly id: string;
  /** How members see it: a VOICEVOX speaker and style, a speech server's voice name. */
  readonly name: string;
  /** The language it reads (ISO 639-1), where known. */
  readonly language?: string | undefined;
  /** What the engine's terms ask a reply to say of it (`VOICEVOX:<speaker>`); absent where nothing is asked. */
  readonly credit?: string | undefined;
}

/** The owner's engines as the speaking path sees them. */
export interface EnginePort {
  /** The voice, when an engine offers it now; undefined for one no engine offers (never sent). */
  voice(id: string): OfferedVoice | undefined;
  /** Every voice offered now, in the engines' order. */
  voices(): readonly OfferedVoice[];
  /**
   * Whether the voice's engine is configured and down now (failed lately, or its voices never fetched): its voices are
   * stood in for, not refused, and a stand-in goes elsewhere.
   */
  down(id: string): boolean;
  /** The language the voice reads, where known: its engine's word, else what its ID says. */
  language(id: string): string | undefined;
  /**
   * A member's effects on this voice: those its engine applies itself (`engine`, sent as its own controls, part of the
   * cache key) and those SayBot applies to its audio (`effects`); each absent where it changes nothing.
   */
  splitEffects(id: string, effects: AudioEffects): { engine?: AudioEffects; effects?: AudioEffects };
  /**
   * `text` in the engine voice `voiceId` with `controls` applied by the engine, as a WAV file streaming as it arrives
   * (its header and first samples checked), in `owner`'s share of the engine. Rejects with the engines' own error (an
   * engine down, slow, refusing or answering badly; a server past its share) or the signal's reason when it fires
   * first (the request closed, its slot freed).
   */
  speakLine(
    text: string,
    voiceId: string,
    controls: AudioEffects | undefined,
    owner: { guildId: string; userId: string },
    signal: AbortSignal,
  ): Promise<Readable>;
  /** Whether `error` is an engine's failure that eSpeak NG may stand in for (not a server over its share). */
  failed(error: unknown): boolean;
}
