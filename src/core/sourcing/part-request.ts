// A request made of the settings that apply, and what each part of it becomes: its text cut into parts (splitText, a
// free voice's each within one of its lines), and at the Voice API, from the settings' declarations
// (src/core/settings/setting-declarations.ts): the body sent (each setting under its wire name where taken), the
// effects SayBot applies and whether they change the audio, and the cache key (equal requests share one entry).
import { createHash } from 'node:crypto';
import { isFreeVoice } from '../voice-catalogue/voices.ts';
import type { EmotionTtsRequest, TtsRequest } from '../api/client.ts';
import type { ResolvedSettings, SentSettings, ServiceRequest, SpeechRequest } from '../settings/speech-request.ts';
import { changesAudio, type AudioEffects } from '../audio/effects/effect-types.ts';
import { readingChanges } from '../free-voice/reading/read-line.ts';
import { countCharacters, freeLine, type PartLimit } from '../characters.ts';
import {
  quantisePitch,
  quantiseSpeed,
  quantiseVolumeDb,
  SENT_SETTINGS,
  type SentSettingName,
  type SpeechEndpoint,
} from '../settings/setting-declarations.ts';

type Sent = string | number | undefined;

/** The request's value of each setting sent (undefined: not set). */
const sentValues = (request: ServiceRequest): { readonly [K in SentSettingName]?: Sent } => request;

/** A text-to-speech request for `text` with the settings that apply (/say's; /emote makes its own). */
export function ttsRequest(text: string, settings: ResolvedSettings): SpeechRequest {
  return { kind: 'tts', text, ...sentSettingsOf(settings, 'tts'), format: settings.format, ...effectsOf(settings) };
}

/** The settings an endpoint is sent, of those that apply (each declared with its wire name there). */
export function sentSettingsOf(settings: ResolvedSettings, endpoint: SpeechEndpoint): { voice: string } & SentSettings {
  const sent = SENT_SETTINGS.filter(([, declared]) => declared.wire[endpoint] !== undefined);
  return { ...Object.fromEntries(sent.map(([name]) => [name, settings[name]])), voice: settings.voice };
}

/** Speed, volume and pitch as `effects`, in audible steps, left out when they change nothing. */
export function effectsOf(settings: Pick<ResolvedSettings, 'speed' | 'volume' | 'pitch'>): { effects?: AudioEffects } {
  const effects = quantiseEffects({ speed: settings.speed, volumeDb: settings.volume, pitch: settings.pitch });
  return changesAudio(effects) ? { effects } : {};
}

/** Effects in the steps a listener hears (setting-declarations.ts); an unshifted pitch is none. */
export function quantiseEffects(effects: AudioEffects): AudioEffects {
  const pitch = quantisePitch(effects.pitch ?? 0);
  return {
    speed: quantiseSpeed(effects.speed),
    volumeDb: quantiseVolumeDb(effects.volumeDb),
    ...(pitch === 0 ? {} : { pitch }),
  };
}

/** The endpoint that speaks a request. */
export const endpointOf = (request: SpeechRequest): 'tts' | 'emotion-tts' =>
  request.kind === 'emotion' ? 'emotion-tts' : 'tts';

type ServiceBody = { endpoint: 'tts'; body: TtsRequest } | { endpoint: 'emotion-tts'; body: EmotionTtsRequest };

/** The body of the call that speaks `text` (one part of the request). */
export function serviceBody(request: ServiceRequest, text: string): ServiceBody {
  const body: Record<string, Sent> = { text };
  for (const [name, declared] of SENT_SETTINGS) {
    const field = declared.wire[request.kind];
    if (field !== undefined) body[field] = sentValues(request)[name];
  }
  // The client checks each body against the service's schema before it is sent (src/core/api/client.ts).
  return { endpoint: endpointOf(request), body } as ServiceBody;
}

/** The text as its key has it: NFC, trimmed, each run of whitespace one space (the same words spaced otherwise hit). */
function normaliseText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** The key of the audio an endpoint makes of `text` with the settings `sent`. */
export function cacheKey(
  endpoint: 'tts' | 'emotion-tts',
  text: string,
  sent: ReadonlyArray<string | number | null>,
): string {
  // A JSON array, not a joined string: no choice of text can make two different requests collide.
  return createHash('sha256')
    .update(JSON.stringify(['v1', endpoint, normaliseText(text), ...sent]))
    .digest('hex');
}

/** From the original's key, so another speed of a text pays nothing again (unshifted: the key from before pitch). */
export function effectsKey(originalKey: string, effects: { speed: number; volumeDb: number; pitch?: number }): string {
  const pitch = effects.pitch ?? 0;
  return createHash('sha256')
    .update(JSON.stringify(['fx1', originalKey, effects.speed, effects.volumeDb, ...(pitch === 0 ? [] : [pitch])]))
    .digest('hex');
}

/**
 * The free voice's reading of lines (src/core/free-voice/reading/), in the key of the lines it reads otherwise than
 * eSpeak NG read them whole: their audio cached before is not heard again. Bumped when a reading changes (2: long
 * unspaced runs given in shorter words and clauses, whose end eSpeak NG dropped: their cut audio is not replayed).
 */
const FREE_READING = 'free-reading-2';

/** The cache key of the service's audio for `text` spoken as `request` asks. */
export function partCacheKey(request: ServiceRequest, text: string): string {
  const sent = SENT_SETTINGS.map(([name, declared]) =>
    declared.wire[request.kind] === undefined ? null : (sentValues(request)[name] ?? null),
  );
  const read = isFreeVoice(request.voice) && readingChanges(text, request.voice);
  // An engine's own controls change its audio: each its own entry.
  const engine = request.engine === undefined ? [] : ['engine', effectsKey('', request.engine)];
  return cacheKey(endpointOf(request), text, [...sent, ...(read ? [FREE_READING] : []), ...engine]);
}

/** The request the service is sent for a part, whatever SayBot does to its audio afterwards. */
export function withoutEffects<R extends ServiceRequest>(request: R): R {
  if (request.effects === undefined) return request;
  const { effects: _effects, ...rest } = request;
  return rest as R;
}

/** A request's text in parts the service takes; in a free voice each within one line (freeLine: Japanese or Chinese
 * kept to the service's characters would last past its seconds, an engine's past its characters). A ready clip is one. */
export function partTexts(request: SpeechRequest, maxChars: number): string[] {
  if (request.kind === 'ready') return [request.text];
  const line = isFreeVoice(request.voice) ? freeLine(request.voice) : undefined;
  return splitText(request.text, Math.min(maxChars, line?.characters ?? maxChars), line);
}

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/**
 * A word of letters alone (with their marks), and the punctuation that ends it: the letters may be cut between their
 * characters to fit a part, the punctuation kept with the last piece.
 */
const LETTERS_THEN_PUNCTUATION = /^([\p{L}\p{M}]+)([\p{P}\p{S}]*)$/u;

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
