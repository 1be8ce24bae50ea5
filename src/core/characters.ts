// Characters as the Voice API bills them: code points after NFC (U+FB2C is one as written, three after). Every count
// SayBot shows, caps, holds or charges is this one (parts are cut to it: src/core/sourcing/part-request.ts). And the
// seconds a text will take, estimated from them: what the queue bounds count, the caps check, a free line's bound.
import { engineOf, espeakVoice } from './voice-catalogue/voices.ts';
import type { LengthCapped } from './audio/errors.ts';

/** Characters as the Voice API counts them: Unicode code points after NFC normalisation. */
export function countCharacters(text: string): number {
  let n = 0;
  for (const _ of text.normalize('NFC')) n++;
  return n;
}

/** Whether `text` is over `max`: NFC joins at most four UTF-16 units, so past 4 × (max + 1) units it is. */
export function moreCharactersThan(text: string, max: number): boolean {
  return text.length > 4 * (max + 1) || countCharacters(text) > max;
}

/** A second bound on a part: at most `max` of `measure` (a free voice's seconds), additive over pieces. */
export interface PartLimit {
  readonly max: number;
  measure(piece: string): number;
}

/**
 * Seconds a text will take, from its characters (the real length is known only once paid): alphabetic scripts at
 * about 15 characters a second, Korean, Japanese and Chinese at 7 (erring long, so their queues are not under-counted).
 */
export function estimateSpeechSeconds(text: string): number {
  let seconds = 0;
  for (const char of text.normalize('NFC')) seconds += CJK.test(char) ? 1 / CJK_PER_SECOND : 1 / ALPHABETIC_PER_SECOND;
  return seconds;
}

const ALPHABETIC_PER_SECOND = 15;
const CJK_PER_SECOND = 7;
const CJK = /[\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/** What an estimate reads of a speech request (settings/speech-request.ts): its kind, voice, text and SayBot's speed. */
interface TimedRequest {
  readonly kind: string;
  readonly text: string;
  readonly voice: string;
  readonly effects?: { readonly speed: number } | undefined;
}

/**
 * Seconds `text` takes as heard: at its voice's rate (eSpeak NG's at its own, estimateFreeLineSeconds below;
 * an engine's at natural speech's), over the speed SayBot applies itself (known exactly: no margin stands in for it).
 */
export function estimateRequestSeconds<R extends TimedRequest>(request: R, text: string): number {
  if (request.kind === 'ready') return estimateSpeechSeconds(text);
  return voiceSeconds(text, request.voice) / (request.effects?.speed ?? 1);
}

/** `text` at its voice's own rate: eSpeak NG's as measured, any other voice's (an engine's, a paid one's) natural speech's. */
function voiceSeconds(text: string, voiceId: string): number {
  return espeakVoice(voiceId) ? estimateFreeLineSeconds(text, voiceId) : estimateSpeechSeconds(text);
}

// The seconds caps (a scene's 600 s, a free line's 120 s) are checked on the estimate before any work, with a margin
// (the refusal is checkEstimatedSeconds, below); audio that still proves longer is cut at the cap where it is made,
// never thrown away once paid, and the member is told (the outcome's `cutAt`, `lineCutAt`).
/** The share of a cap kept back for audio slower than its estimate: 545 s of a 600 s scene pass. */
export const ESTIMATE_MARGIN = 0.1;

export function estimateCeiling(cap: number): number {
  return cap / (1 + ESTIMATE_MARGIN);
}

/** The most audio one line of a free voice may make, seconds: eSpeak NG's (cut there by its thread) and an owner's
 * engine's (refused past it, src/core/engines/) alike. */
export const MAX_FREE_LINE_SECONDS = 120;

/** The most characters one line of an owner's engine may have: the split cuts there, and src/core/engines/ sends no
 * longer one. VOICEVOX takes the text in its URL's query (1000 kana are about 9 KB escaped, within what it reads). */
export const MAX_ENGINE_LINE_CHARACTERS = 1000;

/** More characters a second than any voice says: a line of more surely makes too much audio (refused unspoken). */
export const MOST_CHARACTERS_PER_SECOND = 40;

// How long eSpeak NG takes to say a line (its work class, whether it fits a free line), at its own rates: it reads
// Korean and Chinese slower than the paid voices and alphabetic scripts faster, so their estimate let Korean lines
// through that proved longer than the cap's margin, and refused English lines that would have fitted.

/**
 * Characters a second, as bench/free-voice-rate.ts measures them with the real engine (both variants, lines of
 * 15 to 45 s), set some 5% slower so that a line of that language errs long, well within the 10% margin. Each
 * script is read in its own voice (a line in several scripts is several runs, src/core/free-voice/reading/read-line.ts): Hangul in
 * Korean's, kana in Japanese's, Han in Japanese's on a Japanese line and Chinese's elsewhere (the slower).
 */
const HANGUL_PER_SECOND = 5.5; // measured 5.75
const KANA_PER_SECOND = 6.5; // measured 6.9, kanji and kana together on Japanese lines
const HANZI_PER_SECOND = 3.5; // measured 3.76
/** Everything else (letters, spaces, punctuation) in the line's voice: measured en 18.5, es 17.8, fr 23.0, de 18.1. */
const OTHER_PER_SECOND: Record<string, number> = { en: 17.5, es: 17, fr: 21.5, de: 17 };
/** Other characters in a voice not measured for them (Korean's spaces, Japanese's punctuation): the paid rate. */
const OTHER_DEFAULT_PER_SECOND = 15;
/**
 * Seconds a digit takes: eSpeak NG reads a run of digits as the number it makes ("9876543.": "nine million eight
 * hundred ...", some 4.3 s), each digit some ten letters' time, whatever the run's length (1 to 20 digits measured:
 * en at most 0.61 s a digit, ko 0.62, ja 0.52; de 0.65, es 0.60, fr 0.47, zh 0.50), set some 5% slower. A round
 * number ("1000000": "one million", 0.8 s) takes far less, so it errs long, which the cap's margin wants.
 */
const DIGIT_SECONDS: Record<string, number> = { en: 0.65, ko: 0.65, ja: 0.55 };
/** A digit in a voice not measured for them: the slowest measured, and more. */
const DIGIT_DEFAULT_SECONDS = 0.7;

/**
 * Seconds a full-width sentence end (。！？) takes: eSpeak NG pauses there, which the rates above, measured on lines
 * of long sentences, hardly count. Measured: 'はい。' 0.61 s in free-ja-m, 0.31 s past its two kana; set some 5% more.
 */
const SENTENCE_END_SECONDS = 0.32;

const SENTENCE_END = /[。！？]/u;
const HANGUL = /\p{Script=Hangul}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const DIGIT = /\p{Nd}/u;

/** Seconds the free voice `voiceId` will take to say `text`, at eSpeak NG's measured rates. */
export function estimateFreeLineSeconds(text: string, voiceId: string): number {
  const language = espeakVoice(voiceId)?.language;
  const han = language === 'ja' ? KANA_PER_SECOND : HANZI_PER_SECOND;
  const other = OTHER_PER_SECOND[language ?? ''] ?? OTHER_DEFAULT_PER_SECOND;
  const digit = DIGIT_SECONDS[language ?? ''] ?? DIGIT_DEFAULT_SECONDS;
  let seconds = 0;
  for (const char of text.normalize('NFC')) {
    if (DIGIT.test(char)) seconds += digit;
    else if (SENTENCE_END.test(char)) seconds += SENTENCE_END_SECONDS;
    else if (HANGUL.test(char)) seconds += 1 / HANGUL_PER_SECOND;
    else if (KANA.test(char)) seconds += 1 / KANA_PER_SECOND;
    else if (HAN.test(char)) seconds += 1 / han;
    else seconds += 1 / other;
  }
  return seconds;
}

/** One free line (one eSpeak NG or engine job) of `voiceId`, the one rule of what it holds: a text's seconds at its own
 * rate (`measure`) within the cap less the margin (`max`), an engine's in its `characters`; the split fills it, the
 * check before a hold and the stand-in ask whether a text `fits`. */
export function freeLine(voiceId: string): PartLimit & { characters: number; fits(text: string): boolean } {
  const max = estimateCeiling(MAX_FREE_LINE_SECONDS);
  const characters = engineOf(voiceId) ? MAX_ENGINE_LINE_CHARACTERS : Infinity;
  const measure = (text: string) => voiceSeconds(text, voiceId);
  return { max, measure, characters, fits: (text) => countCharacters(text) <= characters && measure(text) <= max };
}

/** A plan estimated over its cap (with the margin): refused before anything is held, made or paid. */
export class OverSecondsCapError extends Error {
  readonly capped: LengthCapped;
  readonly estimate: number;
  readonly cap: number;

  constructor(capped: LengthCapped, estimate: number, cap: number) {
    super(
      `${capped} estimated at ${estimate.toFixed(1)} s, over ${estimateCeiling(cap).toFixed(1)} s (a cap of ${cap} s)`,
    );
    this.name = 'OverSecondsCapError';
    this.capped = capped;
    this.estimate = estimate;
    this.cap = cap;
  }
}

export function checkEstimatedSeconds(estimate: number, cap: number, capped: LengthCapped): void {
  if (estimate > estimateCeiling(cap)) throw new OverSecondsCapError(capped, estimate, cap);
}

/** A free line past what it holds (freeLine) refused before it is queued, so no line is made to lose most of it at the cut. */
export function checkFreeLineSeconds(text: string, voiceId: string): void {
  const line = freeLine(voiceId);
  if (!line.fits(text)) throw new OverSecondsCapError('free-line', line.measure(text), MAX_FREE_LINE_SECONDS);
}

/** A plan's seconds (one function for a scene's preview and its "Play it" check): pauses and lines as heard. */
export function estimatePlanSeconds(lines: ReadonlyArray<{ request: TimedRequest; pauseBefore: number }>): number {
  return lines.reduce(
    (sum, line) => sum + line.pauseBefore + estimateRequestSeconds(line.request, line.request.text),
    0,
  );
}
