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
  /** Whether its engine lists the voice (false: no such engine; undefined: it has not answered since start): requireVoice's. */
  lists(id: string): boolean | undefined;
  /** Reads its engine's list again where it lacks the voice (bounded per engine), so that `lists` answers anew. */
  recheck(id: string): Promise<void>;
  /** Whether the voice's engine is configured and down now (failed lately, or its voices never fetched). */
  down(id: string): boolean;
  /** The language the voice reads, where known: its engine's word, else what its ID says. */
  language(id: string): string | undefined;
  /** An engine voice's request with the member's effects split: those its engine applies itself (`engine`, its own
   * controls, part of the cache key) and those SayBot applies to its audio (`effects`); any other as it is. */
  controlled<R extends { voice: string; effects?: AudioEffects; engine?: AudioEffects }>(request: R): R;
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
