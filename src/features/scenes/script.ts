// Reads a /scene script into who speaks, with which voice, what and in what order. Pure. A script may be 16,000
// characters of anything, so lines are read by hand scans and anchored patterns: nothing here can backtrack.
//
// One line is, in this order of precedence:
//   blank                      skipped; ends a turn
//   # note, // note            a comment, skipped; ends a turn
//   [pause 1.5s]               silence: s (the default) or ms, 0 < each <= caps.pauseSeconds
//   ( … )                      a stage direction, wholly in parentheses: skipped; ends a turn
//   cast: A = voice, B = <@id> voices for names; the keyword makes it a cast line whatever follows
//   Name (tone) [0.8]: text    a turn; the cues are optional, in either order, once each
//   anything else              the text of the turn on the line just before (joined with a space), else an error

import { countCharacters, moreCharactersThan } from '../../core/characters.ts';
import type {
  CastEntry,
  CastVoice,
  SceneCaps,
  SceneLine,
  ScenePause,
  SceneScript,
  ScriptErrorCode,
} from './script-types.ts';

/** Seconds of silence the renderer puts between two turns; steps carry only the pauses a script writes. */
export const DEFAULT_GAP_SECONDS = 0.35;

/** SayBot's limits on a scene (`speakers`: ElevenLabs' dialogue allows 10), counted in the unit the service bills. */
export const SCENE_CAPS: SceneCaps = Object.freeze({
  scriptChars: 16_000,
  lines: 60,
  speakers: 10,
  characters: 4_000,
  pauseSeconds: 5,
  pauseTotalSeconds: 30,
  nameLength: 32,
  toneLength: 100,
});

/** A script refused: `line` 1-based (0: the whole script), `params` fill `scene.script.<code>`. */
export class ScriptError extends Error {
  readonly code: ScriptErrorCode;
  readonly line: number;
  readonly params: Record<string, string | number>;

  constructor(code: ScriptErrorCode, line: number, params: Record<string, string | number> = {}) {
    super(line > 0 ? `scene script: ${code} on line ${line}` : `scene script: ${code}`);
    this.name = 'ScriptError';
    this.code = code;
    this.line = line;
    this.params = params;
  }
}

/** What a speaker's name may be made of: letters of any script (with their marks), digits, spaces, _ - ' ’ and `.`. */
const NAME_CHAR = /^[\p{L}\p{M}\p{N}\s_\-'.\u2019]$/u;
const LETTER = /^\p{L}$/u;
const SPACES = /\s+/g;
/** The colon that ends a name: ASCII, or the full-width one a Japanese or Chinese keyboard types. */
const COLONS = new Set([':', '\uff1a']);
const CAST_LINE = /^cast\s*[:\uff1a]/i;
/** `<@123…>` or `<@!123…>`: a member mention, as Discord writes it. */
const MENTION = /^<@!?(\d{17,20})>$/;
/** A number from a pause or an intensity: `2`, `1.5`, `1.`, `.5`. Anchored, one way to match: linear. */
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const PAUSE_AMOUNT = /^(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?$/i;

/** The name as shown (trimmed, white space folded) and as matched (also lower case and NFC). */
function foldName(raw: string): { name: string; key: string } {
  const name = raw.trim().replace(SPACES, ' ');
  return { name, key: name.normalize('NFC').toLowerCase() };
}

/** Whether a whole string is a possible name: only name characters, at least one of them a letter. */
function isNameShaped(text: string): boolean {
  let letter = false;
  for (const char of text) {
    if (!NAME_CHAR.test(char)) return false;
    if (!letter && LETTER.test(char)) letter = true;
  }
  return letter;
}

interface Turn {
  name: string;
  key: string;
  tone?: string;
  intensity?: number;
  text: string;
}

/** `Name (tone) [intensity]: text` as a turn, `'long-name'`, or undefined; a wrong cue throws at once. */
function readTurn(line: string, lineNumber: number, caps: SceneCaps): Turn | 'long-name' | undefined {
  let at = 0;
  let letter = false;
  while (at < line.length) {
    const char = String.fromCodePoint(line.codePointAt(at) ?? 0);
    if (!NAME_CHAR.test(char)) break;
    if (!letter && LETTER.test(char)) letter = true;
    at += char.length;
  }
  // A name has a letter, so `10:30 sharp` on a line after a turn goes on with that turn.
  if (!letter) return undefined;
  const rawName = line.slice(0, at);
  let tone: string | undefined;
  let intensity: number | undefined;
  for (;;) {
    while (at < line.length && /\s/.test(line[at] ?? '')) at += 1;
    const char = line[at];
    if (char === undefined) return undefined;
    if (COLONS.has(char)) break;
    const close = char === '(' ? ')' : char === '[' ? ']' : undefined;
    if (close === undefined || (char === '(' ? tone !== undefined : intensity !== undefined)) return undefined;
    const end = line.indexOf(close, at + 1);
    if (end === -1) return undefined;
    const inner = line.slice(at + 1, end);
    if (inner.includes(char)) return undefined;
    at = end + 1;
    if (char === '(') {
      tone = inner.trim();
      if (tone === '') return undefined;
      if (moreCharactersThan(tone, caps.toneLength)) {
        throw new ScriptError('tone-too-long', lineNumber, { line: lineNumber, max: caps.toneLength });
      }
    } else {
      const written = inner.trim();
      const value = NUMBER.test(written) ? Number(written) : Number.NaN;
      if (!(value >= 0 && value <= 1)) throw new ScriptError('bad-intensity', lineNumber, { line: lineNumber });
      intensity = value;
    }
  }
  // `https://…` is a link in the text, not a speaker called https.
  if (line.startsWith('//', at + 1)) return undefined;
  const { name, key } = foldName(rawName);
  if (moreCharactersThan(name, caps.nameLength)) return 'long-name';
  const turn: Turn = { name, key, text: line.slice(at + 1).trim() };
  if (tone !== undefined) turn.tone = tone;
  if (intensity !== undefined) turn.intensity = intensity;
  return turn;
}

/** A `[pause …]` line's length in whole milliseconds, or undefined when the line is not a pause marker at all. */
function readPause(line: string, lineNumber: number): number | undefined {
  if (!line.startsWith('[')) return undefined;
  const opened = line.slice(1).trimStart();
  if (opened.slice(0, 5).toLowerCase() !== 'pause') return undefined;
  // From here the line meant a pause: anything wrong in it is a bad pause, not an unreadable line.
  const rest = opened.slice(5);
  const match = line.endsWith(']') && /^\s/.test(rest) ? PAUSE_AMOUNT.exec(rest.slice(0, -1).trim()) : null;
  const amount = match?.[1];
  if (match === null || amount === undefined) throw new ScriptError('bad-pause', lineNumber, { line: lineNumber });
  const milliseconds = Math.round(Number(amount) * (match[2]?.toLowerCase() === 'ms' ? 1 : 1000));
  if (!(milliseconds > 0)) throw new ScriptError('bad-pause', lineNumber, { line: lineNumber });
  return milliseconds;
}

/** The entries of a cast line (after `cast:`), in order; the voice is kept as written, a mention recognised. */
function readCast(list: string, lineNumber: number, caps: SceneCaps): CastEntry[] {
  const entries: CastEntry[] = [];
  for (const part of list.split(',')) {
    const written = part.trim();
    // `cast: A = x,` with a trailing comma: an empty entry is nothing, not an error.
    if (written === '') continue;
    const equals = written.indexOf('=');
    const { name, key } = foldName(written.slice(0, Math.max(equals, 0)));
    const text = written.slice(equals + 1).trim();
    if (equals === -1 || !isNameShaped(name) || text === '' || moreCharactersThan(text, 100)) {
      throw new ScriptError('bad-cast', lineNumber, { line: lineNumber });
    }
    if (moreCharactersThan(name, caps.nameLength)) {
      throw new ScriptError('name-too-long', lineNumber, { line: lineNumber, max: caps.nameLength });
    }
    const member = MENTION.exec(text)?.[1];
    const voice: CastVoice = member === undefined ? { kind: 'name', text } : { kind: 'member', userId: member };
    entries.push({ name, key, voice, line: lineNumber });
  }
  if (entries.length === 0) throw new ScriptError('bad-cast', lineNumber, { line: lineNumber });
  return entries;
}

/** Reads a script; throws a `ScriptError` for the first thing wrong. `caps`: overrides of `SCENE_CAPS`, for tests. */
export function parseScript(source: string, caps: Partial<SceneCaps> = {}): SceneScript {
  const limits: SceneCaps = { ...SCENE_CAPS, ...caps };
  const script = source.startsWith('\ufeff') ? source.slice(1) : source;
  if (moreCharactersThan(script, limits.scriptChars)) {
    throw new ScriptError('too-long-script', 0, { max: limits.scriptChars });
  }
  const cast: CastEntry[] = [];
  const castByKey = new Map<string, CastEntry>();
  const steps: (SceneLine | ScenePause)[] = [];
  const shownName = new Map<string, string>();
  let turns = 0;
  let characters = 0;
  let pauseMilliseconds = 0;
  let pauseRun: { step: ScenePause; milliseconds: number } | undefined;
  /** The turn a next line may continue: the one on the line just before, or continued there. */
  let open: SceneLine | undefined;

  const lines = script.split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const lineNumber = index + 1;
    const line = (lines[index] ?? '').trim();
    const continued = open;
    open = undefined;
    if (line === '' || line.startsWith('#') || line.startsWith('//')) continue;

    const pause = readPause(line, lineNumber);
    if (pause !== undefined) {
      const max = limits.pauseSeconds;
      if (pause > max * 1000) {
        throw new ScriptError('pause-too-long', lineNumber, { line: lineNumber, max, seconds: pause / 1000 });
      }
      pauseMilliseconds += pause;
      if (pauseMilliseconds > limits.pauseTotalSeconds * 1000) {
        throw new ScriptError('pauses-too-long', lineNumber, { line: lineNumber, max: limits.pauseTotalSeconds });
      }
      if (pauseRun === undefined) {
        pauseRun = { step: { kind: 'pause', seconds: 0, line: lineNumber }, milliseconds: 0 };
        steps.push(pauseRun.step);
      }
      // Summed in whole milliseconds, so 0.1 s + 0.2 s is 0.3 s exactly.
      pauseRun.milliseconds += pause;
      pauseRun.step.seconds = pauseRun.milliseconds / 1000;
      continue;
    }

    if (line.startsWith('(') && line.endsWith(')')) continue;

    const castLine = CAST_LINE.exec(line);
    if (castLine !== null) {
      for (const entry of readCast(line.slice(castLine[0].length), lineNumber, limits)) {
        const first = castByKey.get(entry.key);
        if (first !== undefined) {
          throw new ScriptError('cast-twice', lineNumber, { line: lineNumber, name: entry.name, first: first.line });
        }
        castByKey.set(entry.key, entry);
        cast.push(entry);
      }
      continue;
    }

    const turn = readTurn(line, lineNumber, limits);
    if (turn !== undefined && turn !== 'long-name') {
      if (turn.text === '') throw new ScriptError('empty-line', lineNumber, { line: lineNumber, name: turn.name });
      turns += 1;
      if (turns > limits.lines)
        throw new ScriptError('too-many-lines', lineNumber, { line: lineNumber, max: limits.lines });
      let speaker = shownName.get(turn.key);
      if (speaker === undefined) {
        if (shownName.size >= limits.speakers) {
          throw new ScriptError('too-many-speakers', lineNumber, {
            line: lineNumber,
            max: limits.speakers,
            name: turn.name,
          });
        }
        speaker = turn.name;
        shownName.set(turn.key, speaker);
      }
      const step: SceneLine = { kind: 'line', speaker, key: turn.key, text: turn.text, line: lineNumber };
      if (turn.tone !== undefined) step.tone = turn.tone;
      if (turn.intensity !== undefined) step.intensity = turn.intensity;
      characters += countCharacters(turn.text);
      if (characters > limits.characters) throw tooManyCharacters(lineNumber, characters, limits);
      steps.push(step);
      pauseRun = undefined;
      open = step;
      continue;
    }

    if (continued !== undefined) {
      continued.text += ` ${line}`;
      characters += 1 + countCharacters(line);
      if (characters > limits.characters) throw tooManyCharacters(lineNumber, characters, limits);
      open = continued;
      continue;
    }
    if (turn === 'long-name') {
      throw new ScriptError('name-too-long', lineNumber, { line: lineNumber, max: limits.nameLength });
    }
    throw new ScriptError('unreadable-line', lineNumber, { line: lineNumber });
  }

  if (turns === 0) throw new ScriptError('empty', 0);
  return { cast, steps, speakers: [...shownName.keys()] };
}

/** The spoken characters passed the cap on `line`: the cap, and the count there (what the service would bill). */
function tooManyCharacters(line: number, characters: number, caps: SceneCaps): ScriptError {
  return new ScriptError('too-many-characters', line, { line, max: caps.characters, characters });
}

/** The characters a scene will speak: every line's text, as the Voice API bills them (countCharacters). */
export function sceneCharacters(script: SceneScript): number {
  let total = 0;
  for (const step of script.steps) if (step.kind === 'line') total += countCharacters(step.text);
  return total;
}
