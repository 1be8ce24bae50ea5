// The types of the free voice's reading of a line: what it gives eSpeak NG, and the Japanese analyser it is given.

/** One call of eSpeak NG: `text` spoken in `espeak` (a voice and variant, `ja+f2`). */
export interface SpokenRun {
  readonly text: string;
  readonly espeak: string;
}

/** Japanese text read as kana (katakana as pronounced: 今日は -> キョーワ), punctuation and unknown words kept. */
export interface JapaneseAnalyser {
  toKana(text: string): string;
}
