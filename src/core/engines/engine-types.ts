// The types of the owner's speech engines (src/core/engines/): a VOICEVOX-compatible engine and an OpenAI-compatible
// speech server, whose voices SayBot offers beside its own. Types only: the modules beside this one hold the behaviour.
import type { Readable } from 'node:stream';
import type { AudioEffects } from '../audio/effects/effect-types.ts';

/** Which engine: `voicevox` (VOICEVOX_URL) or `speech` (SPEECH_SERVER_URL). Also the voice ID's prefix. */
export type EngineName = 'voicevox' | 'speech';

/** One voice an engine offers now, as SayBot names it. */
export interface EngineVoice {
  /** What members choose: `voicevox:<style id>` or `speech:<name>` (engine-voices.ts). */
  readonly id: string;
  readonly engine: EngineName;
  /** What the engine is sent: the style ID (VOICEVOX) or the voice's name (speech server). */
  readonly engineVoice: string;
  /** For people: "<speaker> (<style>)" for a VOICEVOX style, the voice's name for a speech server's. */
  readonly name: string;
  /** ISO 639-1 code; undefined when neither the owner nor the name says. */
  readonly language: string | undefined;
  /** What the engine's terms ask to be shown with the voice (`VOICEVOX:<speaker>`); undefined: none. */
  readonly credit: string | undefined;
}

/** Whose line it is: the queue serves servers in turn and holds each to its share. */
export interface EngineOwner {
  /** The server; a DM or a user install passes a key of its own (every line of one key shares one share). */
  guildId: string;
  userId: string;
}

/** A line an engine spoke. */
export interface EngineSpeech {
  /** A WAV file as it arrives: RIFF/WAVE, PCM 16-bit, its header and first samples checked (engine-http.ts). */
  body: Readable;
  /** Its rate and channels, from its header. */
  sampleRate: number;
  channels: number;
  /** Of SayBot's effects, those the engine rendered; SayBot applies the others to the audio. */
  applies: ReadonlyArray<keyof AudioEffects>;
  voice: EngineVoice;
}

/** An engine as the doctor and the owner's console show it. */
export interface EngineStatus {
  engine: EngineName;
  /** Its base URL, never with credentials. */
  url: string;
  /** Whether it answered its last catalogue fetch (made for this status). */
  answers: boolean;
  /** How many voices SayBot offers from it now. */
  voices: number;
  /** Its last failure in words (never a key, a text or a body); undefined: none since it last answered. */
  lastFailure: string | undefined;
  /** Marked down by its circuit: lines fail at once until its backoff ends. */
  down: boolean;
  /** While down: when the next line may try it again (epoch ms). */
  retryAt?: number | undefined;
}

/** A free voice FREE_VOICES names for a language (config.ts). */
export type FreeVoiceChoice =
  { kind: 'espeak' } | { kind: 'free'; voice: string } | { kind: 'engine'; engine: EngineName; voice: string };

/** A voice SPEECH_SERVER_VOICES names, with its language if it says one. */
export interface ListedSpeechVoice {
  name: string;
  language?: string | undefined;
}

/** The engines' part of SayBot's configuration (config.ts `Config.engines`). */
export interface EnginesConfig {
  /** VOICEVOX_URL without a trailing slash; absent: no VOICEVOX engine. */
  voicevoxUrl?: string | undefined;
  /** SPEECH_SERVER_URL (up to and including `/v1`), SPEECH_SERVER_KEY (a secret), SPEECH_SERVER_MODEL, _VOICES. */
  speechServer?:
    | {
        url: string;
        key?: string | undefined;
        model: string;
        /** SPEECH_SERVER_VOICES; absent: the server's own list. */
        voices?: readonly ListedSpeechVoice[] | undefined;
      }
    | undefined;
  /**
   * FREE_VOICES: per language (ISO 639-1, or `*` for any other), which free voice speaks when the paid one may not.
   * Absent entries (or none at all): eSpeak NG's voice closest to the language, as without engines.
   */
  freeVoices: Readonly<Record<string, FreeVoiceChoice>>;
}
