// The free voice speaks every character of a long run without spaces or punctuation (a run-on Japanese or Korean
// sentence, Chinese, a long Latin word): eSpeak NG keeps some 200 bytes of one word's phonemes and 1,000 phonemes of
// one clause and drops the rest unsaid, so espeakText (reading/read-line.ts) breaks such runs first.
// Lengths in samples (the female variants breathe at random, so to a margin): a whole run lasts about as long as its
// two halves spoken apart (their two starts and ends of silence make the halves a little longer, never shorter).
// Needs the optional espeak-ng and kuromoji packages; skipped with one line without.
import { describe, expect, it } from 'vitest';
import { parseWavHeader } from '../../../src/core/audio/codecs/wav.ts';
import { speakFree } from '../../../src/core/free-voice/free-voice-engine.ts';
import { readingPackagesInstalled } from '../../support/espeak-phonemes.ts';

const installed = readingPackagesInstalled();
if (!installed) console.info("free voice's long runs: skipped, the optional espeak-ng or kuromoji is not installed");

/** The number of samples of a 16-bit WAV. */
function sampleCount(wav: Buffer): number {
  const parsed = parseWavHeader(wav);
  if (!('header' in parsed)) throw new Error('not a WAV');
  return (wav.length - parsed.header.dataOffset) / 2;
}

/** `n` characters of `chars` in a fixed pseudo-random order, a space after every `spaceEvery`th if asked. */
function text(chars: string, n: number, spaceEvery = 0): string {
  const all = [...chars];
  let seed = 12345;
  let out = '';
  for (let i = 1; i <= n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += all[seed % all.length];
    if (spaceEvery > 0 && i % spaceEvery === 0 && i < n) out += ' ';
  }
  return out;
}

const KANA = 'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん';
const HANGUL = '가나다라마바사아자차카타파하고노도로모보소오조초코토포호구누두루무부수우주추쿠투푸후닭읽값없밭빛';
const HAN = '我们今天去公园看花吃饭喝茶读书写字唱歌跳舞学习工作休息朋友家人天气很好非常快乐';
const LATIN = 'abcdefghijklmnopqrstuvwxyz';

describe.skipIf(!installed)("the free voice's long runs without spaces", { timeout: 120_000 }, () => {
  // Before the break, 200 kana lasted 8.3 s (73 said), 200 Hangul 9.7 s (about 60 said), 300 hanzi 64 s of 82 s
  // (some 200 said: the clause's phonemes), a 300-letter word 10 s (152 letters said).
  it.each([
    ['200 kana, a run-on Japanese sentence', text(KANA, 200), 'free-ja-f'],
    ['200 Hangul syllables', text(HANGUL, 200), 'free-ko-f'],
    ['200 Hangul syllables, a space every 10', text(HANGUL, 200, 10), 'free-ko-m'],
    ['300 hanzi', text(HAN, 300), 'free-zh-f'],
    ['a word of 300 Latin letters', text(LATIN, 300), 'free-en-m'],
  ])('%s: all of it, about as long as its two halves', async (_label, line, voice) => {
    const chars = [...line];
    const half = chars.slice(0, chars.length / 2).join('').length;
    const samples = async (part: string) => sampleCount(await speakFree(part, voice, 'G9'));
    const whole = await samples(line);
    const halves = (await samples(line.slice(0, half))) + (await samples(line.slice(half)));
    expect(whole).toBeGreaterThan(0.9 * halves);
  });
});
