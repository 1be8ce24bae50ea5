// The shapes of a parsed /scene script; types only, so others name them without loading the parser.

/** A cast line's voice as written: a member mention, or text for the caller to resolve. */
export type CastVoice = { kind: 'member'; userId: string } | { kind: 'name'; text: string };

/** One `Name = voice` of a cast line. */
export interface CastEntry {
  /** The name as written (trimmed, runs of white space folded to one space). */
  name: string;
  /** The name folded for matching: lower case, NFC, white space folded; the `key` of that speaker's lines. */
  key: string;
  voice: CastVoice;
  /** The 1-based line of the cast line. */
  line: number;
}

/** A spoken turn: one speaker's text with the cues written between the name and the colon. */
export interface SceneLine {
  kind: 'line';
  /** The speaker's name as first written in the script (later spellings of the same key keep this one). */
  speaker: string;
  /** The folded name, as `CastEntry.key`. */
  key: string;
  /** The text to speak, trimmed; continuation lines joined with one space. */
  text: string;
  /** `(whispering)`: a tone for this line, trimmed, 1 to `SceneCaps.toneLength` characters. */
  tone?: string;
  /** `[0.8]`: an emotion intensity from 0 to 1. */
  intensity?: number;
  /** The 1-based line the turn starts on. */
  line: number;
}

/** Silence written with `[pause …]`; pause markers with no spoken line between them are one step. */
export interface ScenePause {
  kind: 'pause';
  /** Whole milliseconds, as seconds. */
  seconds: number;
  /** The 1-based line of the first marker. */
  line: number;
}

export type SceneStep = SceneLine | ScenePause;

/** A parsed script: the cast as written, the steps in order and the distinct speakers. */
export interface SceneScript {
  cast: CastEntry[];
  steps: SceneStep[];
  /** The speakers' keys in order of first appearance in a turn (cast-only names are not here). */
  speakers: string[];
}

/** The limits a script is held to; `SCENE_CAPS` in script.ts holds SayBot's. */
export interface SceneCaps {
  /** Characters (countCharacters: code points after NFC) of the whole script, checked before it is read. */
  readonly scriptChars: number;
  /** Spoken turns. */
  readonly lines: number;
  /** Distinct speakers. */
  readonly speakers: number;
  /** Spoken characters (countCharacters: what the service bills) in total, over every turn's text. */
  readonly characters: number;
  /** Seconds of one `[pause …]` marker. */
  readonly pauseSeconds: number;
  /** Seconds of every pause marker together. */
  readonly pauseTotalSeconds: number;
  /** Characters of a speaker's name. */
  readonly nameLength: number;
  /** Characters of a tone. */
  readonly toneLength: number;
}

/** Why a script was refused; the member's words are the string `scene.script.<code>`. */
export type ScriptErrorCode =
  | 'empty'
  | 'unreadable-line'
  | 'empty-line'
  | 'bad-intensity'
  | 'bad-pause'
  | 'bad-cast'
  | 'cast-twice'
  | 'too-many-lines'
  | 'too-many-speakers'
  | 'too-many-characters'
  | 'pause-too-long'
  | 'pauses-too-long'
  | 'name-too-long'
  | 'tone-too-long'
  | 'too-long-script';
