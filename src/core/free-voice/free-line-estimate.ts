// How long the free voice (eSpeak NG, src/core/free-voice/) takes to say a line, estimated from its characters, for
// the check of its 120 s a line (src/core/quota/seconds-bounds.ts). Its own rates, not the paid voices'
// (src/core/quota/seconds-bounds.ts): eSpeak NG
// reads Korean and Chinese slower than they do, and alphabetic scripts faster, so the paid estimate let Korean
// lines through that proved longer than the cap's margin and refused English lines that would have fitted.
import { freeVoice } from './free-voices.ts';

/**
 * Characters a second, as bench/free-voice-rate.ts measures them with the real engine (both variants, lines of
 * 15 to 45 s), set some 5% slower so that a line of that language errs long, well within the 10% margin. Each
 * script is read in its own voice (a line in several scripts is several runs, reading/read-aloud.ts): Hangul in
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
  const language = freeVoice(voiceId)?.language;
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
