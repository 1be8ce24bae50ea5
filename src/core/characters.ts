// Characters as the Voice API bills them: code points after NFC (U+FB2C is one as written, three after). Every count
// SayBot shows, caps, holds or charges is this one; splitText cuts long text into parts of at most that many. And the
// seconds a text will take, estimated from them: what the queue bounds count and the seconds caps check (below).
import { isEspeakVoice } from './voice-catalogue/voices.ts';
import { estimateFreeLineSeconds } from './free-voice/free-voice-engine.ts';
import { MAX_FREE_LINE_SECONDS } from './audio/workers/job-thread.ts';

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

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/**
 * A word of letters alone (with their marks), and the punctuation that ends it: the letters may be cut between their
 * characters to fit a part, the punctuation kept with the last piece.
 */
const LETTERS_THEN_PUNCTUATION = /^([\p{L}\p{M}]+)([\p{P}\p{S}]*)$/u;

/** A second bound on a part: at most `max` of `measure` (a free voice's seconds), additive over pieces. */
interface PartLimit {
  readonly max: number;
  measure(piece: string): number;
}

/**
 * Splits text into parts of at most `maxChars` (and `limit`), at sentences where possible, else between words. A word
 * too long is cut between code points for `maxChars`, and for `limit` only when letters alone (unspaced Hangul): a cut
 * number reads differently, so it is a part of its own past `limit`, for the caller to refuse. Only whitespace at cuts
 * is lost.
 */
export function splitText(text: string, maxChars: number, limit?: PartLimit): string[] {
  if (maxChars < 1) throw new RangeError('maxChars must be at least 1');
  const normalised = text.normalize('NFC').trim();
  if (normalised === '') return [];
  const limits: PartLimit[] = [{ max: maxChars, measure: countCharacters }, ...(limit === undefined ? [] : [limit])];
  const within = (piece: string) => limits.every(({ max, measure }) => measure(piece) <= max);
  if (within(normalised)) return [normalised];

  const parts: string[] = [];
  let current = '';
  // Each limit's measure of `current`.
  let measured = limits.map(() => 0);
  const flush = () => {
    const part = current.trim();
    if (part !== '') parts.push(part);
    current = '';
    measured = limits.map(() => 0);
  };
  const append = (piece: string) => {
    measured = limits.map(({ measure }, i) => measured[i]! + measure(piece));
    current += piece;
  };
  // Whitespace always fits: a part is trimmed, so what follows it decides whether it ends there.
  const fitsWith = (piece: string) =>
    piece.trim() === '' || limits.every(({ max, measure }, i) => measured[i]! + measure(piece.trimEnd()) <= max);
  // `fallback` cuts a piece that does not fit into smaller ones (each added with `next`); with none it is a part.
  const add = (piece: string, fallback?: (piece: string) => string[], next?: (piece: string) => string[]) => {
    if (fitsWith(piece)) {
      append(piece);
      return;
    }
    flush();
    if (fallback === undefined || within(piece.trim())) {
      append(piece.trimStart());
      return;
    }
    for (const smaller of fallback(piece)) add(smaller, next);
  };

  // Punctuation goes with the word before it: a sentence's end alone would be a part, a request paid for nothing.
  const wordsOf = (sentence: string) =>
    Array.from(words.segment(sentence)).reduce<string[]>((out, { segment, isWordLike }) => {
      const last = out.length - 1;
      if (!isWordLike && last >= 0 && segment.trim() !== '' && out[last]!.trim() !== '') out[last] += segment;
      else out.push(segment);
      return out;
    }, []);
  // An unspaced run of letters (Hangul without spaces is one "word" to the segmenter) is cut to fit, between its
  // characters; a number is not (its reading depends on all its digits), nor anything else within the characters.
  const fitted = (piece: string): string[] => {
    const out: string[] = [];
    let run = '';
    let sums = limits.map(() => 0);
    for (const { segment: char } of graphemes.segment(piece)) {
      const next = limits.map(({ measure }, i) => sums[i]! + measure(char));
      if (run !== '' && limits.some(({ max }, i) => next[i]! > max)) {
        out.push(run);
        run = '';
        sums = limits.map(({ measure }) => measure(char));
      } else sums = next;
      run += char;
    }
    if (run !== '') out.push(run);
    return out;
  };
  const cutWord = (word: string) => {
    const [, letters, end = ''] = LETTERS_THEN_PUNCTUATION.exec(word.trim()) ?? [];
    if (letters === undefined) return hardSplit(maxChars)(word);
    const cut = fitted(letters);
    const last = cut.pop() ?? '';
    if (end === '' || within(last + end)) return [...cut, last + end];
    // The last letter goes with the punctuation, which alone would be a request paid for nothing.
    const chars = Array.from(graphemes.segment(last), (g) => g.segment);
    const tail = `${chars.pop() ?? ''}${end}`;
    const rest = chars.join('');
    return within(tail) ? [...cut, ...(rest === '' ? [] : [rest]), tail] : [...cut, last, ...hardSplit(maxChars)(end)];
  };
  for (const { segment } of sentences.segment(normalised)) add(segment, wordsOf, cutWord);
  flush();
  return SPEAKABLE.test(normalised) ? speakableParts(normalised, parts, within) : parts;
}

/** What a part must hold to be sent: a letter or a digit. Punctuation, symbols and emoji alone are paid for nothing. */
const SPEAKABLE = /[\p{L}\p{N}]/u;
const speakable = (piece: string) => SPEAKABLE.test(piece);

/**
 * `parts` (trimmed, in order, apart only by whitespace in `text`) with none of punctuation or emoji alone. Such a run
 * joins the part before or after it where the two fit; else takes the last word (or letter, or digit) of the part
 * before, or the first of the part after; else the part before takes what fits of it and the part after the rest. What
 * fits nowhere beside a letter (punctuation longer than a part) is not sent: it would say nothing.
 */
function speakableParts(text: string, parts: readonly string[], within: (piece: string) => boolean): string[] {
  let cursor = 0;
  const spans: Span[] = [];
  for (const part of parts) {
    const start = text.indexOf(part, cursor);
    cursor = start + part.length;
    const last = spans.at(-1);
    // Runs of parts without a letter are one run: what they hold goes to their neighbours together.
    if (last !== undefined && !speakable(part) && !speakable(text.slice(last.start, last.end))) last.end = cursor;
    else spans.push({ start, end: cursor });
  }
  const slice = (start: number, end: number) => text.slice(start, end).trim();
  const fits = (start: number, end: number) => speakable(slice(start, end)) && within(slice(start, end));
  const out: Span[] = [];
  for (const [i, run] of spans.entries()) {
    const before = out.at(-1);
    const after = spans[i + 1];
    if (speakable(slice(run.start, run.end))) out.push(run);
    else if (before !== undefined && within(slice(before.start, run.end))) before.end = run.end;
    else if (after !== undefined && within(slice(run.start, after.end))) after.start = run.start;
    else {
      const cut = before && cutPoints(text, before, 'last').find((at) => fits(before.start, at) && fits(at, run.end));
      const next = after && cutPoints(text, after, 'first').find((at) => fits(run.start, at) && fits(at, after.end));
      if (before !== undefined && cut !== undefined) {
        out.push({ start: cut, end: run.end });
        before.end = cut;
      } else if (after !== undefined && next !== undefined) {
        out.push({ start: run.start, end: next });
        after.start = next;
      } else {
        const bounds = Array.from(graphemes.segment(text.slice(run.start, run.end)), ({ index }) => run.start + index);
        const kept = before === undefined ? run.start : bounds.findLast((at) => within(slice(before.start, at)));
        if (before !== undefined) before.end = kept ?? before.end;
        const rest = bounds.find((at) => at >= (kept ?? run.start) && within(slice(at, after?.end ?? at)));
        if (after !== undefined) after.start = rest ?? after.start;
      }
    }
  }
  return out.map(({ start, end }) => slice(start, end));
}

interface Span {
  start: number;
  end: number;
}

/**
 * Where a part may be cut to give its `last` (or `first`) word or letter to a neighbour: at its last (first) space,
 * then before its last letter or digit (after its first).
 */
function cutPoints(text: string, { start, end }: Span, side: 'last' | 'first'): number[] {
  const piece = text.slice(start, end);
  const chars = Array.from(graphemes.segment(piece));
  const letters = chars.filter(({ segment }) => speakable(segment));
  if (side === 'last') {
    const space = piece.search(/\s\S*$/u);
    const letter = letters.at(-1)?.index;
    return [space < 0 ? undefined : space + 1, letter].flatMap((at) => (at === undefined ? [] : [start + at]));
  }
  const space = piece.search(/\s/u);
  const first = letters[0];
  const letter = first === undefined ? undefined : first.index + first.segment.length;
  return [space < 0 ? undefined : space, letter].flatMap((at) => (at === undefined ? [] : [start + at]));
}

function hardSplit(maxChars: number): (piece: string) => string[] {
  return (piece) => {
    const codePoints = [...piece];
    const out: string[] = [];
    for (let i = 0; i < codePoints.length; i += maxChars) out.push(codePoints.slice(i, i + maxChars).join(''));
    return out;
  };
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
 * Seconds `text` takes as heard: at its voice's rate (eSpeak NG's at its own, src/core/free-voice/free-voice-engine.ts;
 * an engine's at natural speech's), over the speed SayBot applies itself (known exactly: no margin stands in for it).
 */
export function estimateRequestSeconds<R extends TimedRequest>(request: R, text: string): number {
  if (request.kind === 'ready') return estimateSpeechSeconds(text);
  return voiceSeconds(text, request.voice) / (request.effects?.speed ?? 1);
}

/** `text` at its voice's own rate: eSpeak NG's as measured, any other voice's (an engine's, a paid one's) natural speech's. */
function voiceSeconds(text: string, voiceId: string): number {
  return isEspeakVoice(voiceId) ? estimateFreeLineSeconds(text, voiceId) : estimateSpeechSeconds(text);
}

// The seconds caps (a scene's 600 s, a free line's 120 s) are checked on the estimate before any work, with a margin
// (the refusal is capacity.ts' checkEstimatedSeconds); audio that still proves longer is cut at the cap where it is made,
// never thrown away once paid, and the member is told (the outcome's `cutAt`, `lineCutAt`).
/** The share of a cap kept back for audio slower than its estimate: 545 s of a 600 s scene pass. */
export const ESTIMATE_MARGIN = 0.1;

export function estimateCeiling(cap: number): number {
  return cap / (1 + ESTIMATE_MARGIN);
}

/** What one free-voice part may hold (splitText): a long line is split rather than refused. */
export function freeLineLimit(voiceId: string): PartLimit {
  return {
    max: estimateCeiling(MAX_FREE_LINE_SECONDS),
    measure: (piece) => voiceSeconds(piece, voiceId),
  };
}

/** A plan's seconds (one function for a scene's preview and its "Play it" check): pauses and lines as heard. */
export function estimatePlanSeconds(lines: ReadonlyArray<{ request: TimedRequest; pauseBefore: number }>): number {
  return lines.reduce(
    (sum, line) => sum + line.pauseBefore + estimateRequestSeconds(line.request, line.request.text),
    0,
  );
}
