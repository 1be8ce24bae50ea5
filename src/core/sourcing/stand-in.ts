// The stand-in's choice, made here alone: whether a free voice may speak in place of the paid one (FREE_VOICE's
// fallback: a plain order, not a scene, refused for money, or a part that failed, where money.ts' standInCause lets
// one) or for an engine's failed voice; which (FREE_VOICES' voice for the language where its engine offers it and
// answers, else eSpeak NG's closest: espeakVoiceFor), with what request (the same text and SayBot's effects, as WAV),
// and whether each part fits one of its lines. Asked by money for an order refused, by the part source as a part fails.
import { engineOf, espeakVoice, isFreeVoice, PRESET_VOICE_ID } from '../voice-catalogue/voices.ts';
import type { ServiceRequest, SpeechRequest, StandIn } from '../settings/speech-request.ts';
import type { FreeVoiceRules } from '../free-voice/free-voice-engine.ts';
import { freeLine } from '../characters.ts';
import { standInCause } from '../quota/money.ts';
import type { EnginePort } from './engine-port.ts';
import type { OrderAccount } from './order-account.ts';

/**
 * FREE_VOICES as the config reads it: a language (ISO 639-1, lower case; `*` for every other) to a free voice's ID
 * (`voicevox:3`, `speech:af_heart`, `free-en-f`) or `espeak` (eSpeak NG's voice closest to the request).
 */
export type StandInVoices = ReadonlyMap<string, string>;

/** The word FREE_VOICES uses for eSpeak NG's closest voice. */
export const ESPEAK_CHOICE = 'espeak';

/** A line as an order has it: its request and its text in parts. */
type Said = { readonly request: SpeechRequest; readonly texts: readonly string[] };
/** A part the service failed, said by a free voice: its request, and why. */
type Instead = { request: ServiceRequest; cause: StandIn['cause'] };

export class StandIns {
  readonly #rules: FreeVoiceRules;
  readonly #engines: EnginePort | undefined;
  readonly #choice: StandInVoices | undefined;

  constructor(rules: FreeVoiceRules, engines?: EnginePort, choice?: StandInVoices) {
    this.#rules = rules;
    this.#engines = engines;
    this.#choice = choice;
  }

  /** The free voice's version of an order's one line, for its paid voice refused for money, where a free voice may
   * stand in; undefined otherwise. A scene is never spoken for: its member confirmed its voices and its quote. */
  forOrder<Line extends Said>(order: { readonly scene: boolean; readonly lines: readonly Line[] }): Line[] | undefined {
    const [only] = order.lines;
    if (!this.#rules.standsIn || order.scene || only === undefined) return undefined;
    const free = this.request(only.request, only.texts);
    return free === undefined ? undefined : [{ ...only, request: free }];
  }

  /** The free voice's version of a part the service failed, and why, where FREE_VOICE lets one stand in for that
   * failure (money.ts' standInCause) and a free voice can say the part within one of its lines. */
  forFailure(order: OrderAccount, error: unknown, request: SpeechRequest, text: string): Instead | undefined {
    const cause = this.#rules.standsIn && order.followUp !== true ? standInCause(error, text) : undefined;
    const free = cause === undefined ? undefined : this.request(request, [text]);
    return free === undefined || cause === undefined ? undefined : { request: free, cause };
  }

  /**
   * The free voice's version of a paid request, where it can say each of `texts` within one of its lines; undefined for
   * a request already free or handed in whole, or none fitting.
   */
  request(request: SpeechRequest, texts: readonly string[]): ServiceRequest | undefined {
    if (request.kind === 'ready' || isFreeVoice(request.voice)) return undefined;
    const [language] = requestLanguages(request.voice, request.language);
    const choice = this.#choice;
    const wanted = (language === undefined ? undefined : choice?.get(language)) ?? choice?.get('*') ?? ESPEAK_CHOICE;
    const voice =
      wanted !== ESPEAK_CHOICE && this.#usable(wanted) ? wanted : espeakVoiceFor(request.voice, request.language);
    if (!this.#usable(voice) || !texts.every(freeLine(voice).fits)) return undefined;
    return freeRequest(request, voice);
  }

  /** A request as a free voice says it (auto-read's free_voice): where none may speak here, eSpeak NG's closest. */
  freeVersion(request: SpeechRequest): SpeechRequest {
    if (request.kind === 'ready' || isFreeVoice(request.voice)) return request;
    return this.request(request, []) ?? freeRequest(request, espeakVoiceFor(request.voice, request.language));
  }

  /** An engine's stand-in: eSpeak NG's voice of its language for a line an engine's voice failed, where it may say it. */
  forEngine(request: ServiceRequest, text: string, error: unknown): ServiceRequest | undefined {
    if (!engineOf(request.voice) || this.#engines?.failed(error) !== true || !this.#rules.espeak) return undefined;
    const espeak = freeRequest(request, espeakVoiceFor(undefined, this.#engines.language(request.voice)));
    return freeLine(espeak.voice).fits(text) ? espeak : undefined;
  }

  #usable(id: string): boolean {
    return engineOf(id) ? this.#engines?.voice(id) !== undefined && !this.#engines.down(id) : this.#rules.espeak;
  }
}

/** A request's languages, lower case without their region (`ko-KR` is `ko`): its `language` first, then its preset voice's. */
function requestLanguages(voice: string | undefined, language: string | undefined): string[] {
  const given = language?.split('-')[0]?.toLowerCase();
  const preset = PRESET_VOICE_ID.exec(voice ?? '')?.[1];
  return [given, preset].filter((wanted): wanted is string => wanted !== undefined && wanted !== '');
}

/**
 * eSpeak NG's voice closest to a paid one, of the preset voice's gender (its ID's f or m; else female): of `language`
 * (`ko-KR` reads as `ko`) if one speaks it, else of the preset voice's own language, else English.
 */
export function espeakVoiceFor(voice: string | undefined, language: string | undefined): string {
  const preset = PRESET_VOICE_ID.exec(voice ?? '');
  const gender = preset?.[2] ?? 'f';
  for (const wanted of requestLanguages(voice, language)) {
    const id = `free-${wanted}-${gender}`;
    if (espeakVoice(id)) return id;
  }
  return `free-en-${gender}`;
}

/** `request` said by the free voice `voice`: the same text and SayBot's effects, as WAV (what free voices make). */
function freeRequest(request: ServiceRequest, voice: string): ServiceRequest {
  return {
    kind: 'tts',
    text: request.text,
    voice,
    format: 'wav',
    ...(request.effects ? { effects: request.effects } : {}),
  };
}
