// The engines' variables read from their text (VOICEVOX_URL, SPEECH_SERVER_URL and its key, model and voices,
// FREE_VOICES) into their part of the configuration (EnginesConfig), each problem one line naming the variable, for
// src/core/config.ts, which validates the environment once.
import { engineOf, espeakVoice, SPEECH_VOICE_NAME, type EngineName } from '../voice-catalogue/voices.ts';

export const ENGINE_VARIABLES = [
  'VOICEVOX_URL',
  'SPEECH_SERVER_URL',
  'SPEECH_SERVER_KEY',
  'SPEECH_SERVER_MODEL',
  'SPEECH_SERVER_VOICES',
  'FREE_VOICES',
] as const;

/** What the engines' variables hold, each as written (trimmed) or undefined when unset. */
export type EngineVariables = Partial<Record<(typeof ENGINE_VARIABLES)[number], string>>;

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
  speechServer?: {
    url: string;
    key?: string | undefined;
    model: string;
    /** SPEECH_SERVER_VOICES; absent: the server's own list. */
    voices?: readonly ListedSpeechVoice[] | undefined;
  };
  /** FREE_VOICES: per language (ISO 639-1, or `*` for any other), which free voice speaks when the paid one may not.
   * Absent entries (or none at all): eSpeak NG's voice closest to the language, as without engines. */
  freeVoices: Readonly<Record<string, FreeVoiceChoice>>;
}

export const DEFAULT_SPEECH_SERVER_MODEL = 'tts-1';
/** A language as FREE_VOICES and SPEECH_SERVER_VOICES name it: ISO 639-1 (or -3), a region allowed and ignored. */
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i;
const MAX_LISTED_VOICES = 500;

/** What is wrong with an engine's base URL, or undefined; never quotes it: a user and password in it are a secret. */
export function engineUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be an http:// or https:// URL';
  const url = new URL(value);
  if (!/^https?:$/.test(url.protocol)) return 'must be an http:// or https:// URL';
  if (url.username !== '' || url.password !== '')
    return "must not hold a user name or password (a speech server's token goes in SPEECH_SERVER_KEY)";
  if (url.search !== '' || url.hash !== '') return 'must be a base address, with no ? query or # fragment';
  return undefined;
}

/** The URL as the engines use it: no trailing slash. */
const base = (value: string): string => value.replace(/\/+$/, '');

function listedVoices(text: string, problems: string[]): ListedSpeechVoice[] {
  const voices: ListedSpeechVoice[] = [];
  const seen = new Set<string>();
  for (const entry of text.split(',').map((e) => e.trim())) {
    const [name = '', language, ...extra] = entry.split(':');
    if (!SPEECH_VOICE_NAME.test(name) || extra.length > 0 || (language !== undefined && !LANGUAGE.test(language))) {
      problems.push(
        `SPEECH_SERVER_VOICES must be a comma-separated list of voice names, each optionally with its language ` +
          `(af_heart,jf_alpha:ja); got ${JSON.stringify(entry.slice(0, 80))}`,
      );
      return [];
    }
    if (seen.has(name)) continue;
    seen.add(name);
    voices.push({ name, ...(language === undefined ? {} : { language: language.split('-')[0]!.toLowerCase() }) });
  }
  if (voices.length > MAX_LISTED_VOICES)
    problems.push(`SPEECH_SERVER_VOICES must list at most ${MAX_LISTED_VOICES} voices; got ${voices.length}`);
  return voices;
}

function freeVoiceChoice(value: string, variables: EngineVariables): { choice: FreeVoiceChoice } | { problem: string } {
  if (value === 'espeak') return { choice: { kind: 'espeak' } };
  if (espeakVoice(value)) return { choice: { kind: 'free', voice: value } };
  const engine = engineOf(value);
  if (engine === undefined)
    return {
      problem: `names ${JSON.stringify(value.slice(0, 80))}, which is not espeak, a free voice (free-en-f) or an engine's voice (voicevox:3, speech:af_heart)`,
    };
  if (engine.engine === 'voicevox' && variables.VOICEVOX_URL === undefined)
    return { problem: `names ${value}, a VOICEVOX voice, but VOICEVOX_URL is not set` };
  if (engine.engine === 'speech' && variables.SPEECH_SERVER_URL === undefined)
    return { problem: `names ${value}, a speech server's voice, but SPEECH_SERVER_URL is not set` };
  return { choice: { kind: 'engine', engine: engine.engine, voice: value } };
}

function freeVoices(text: string, variables: EngineVariables, problems: string[]): Record<string, FreeVoiceChoice> {
  const choices: Record<string, FreeVoiceChoice> = {};
  for (const entry of text.split(',').map((e) => e.trim())) {
    const equals = entry.indexOf('=');
    const language = equals < 0 ? '' : entry.slice(0, equals).trim().toLowerCase();
    const value = equals < 0 ? '' : entry.slice(equals + 1).trim();
    if ((language !== '*' && !LANGUAGE.test(language)) || value === '') {
      problems.push(
        `FREE_VOICES must be a comma-separated list of language=voice (ja=voicevox:3,en=speech:af_heart,*=espeak); ` +
          `got ${JSON.stringify(entry.slice(0, 80))}`,
      );
      continue;
    }
    const key = language === '*' ? '*' : language.split('-')[0]!;
    if (key in choices) {
      problems.push(`FREE_VOICES names the language ${key} twice`);
      continue;
    }
    const read = freeVoiceChoice(value, variables);
    if ('problem' in read) problems.push(`FREE_VOICES ${read.problem}`);
    else choices[key] = read.choice;
  }
  return choices;
}

/** The engines' part of the configuration, and one line per problem (each naming its variable). */
export function readEngineVariables(variables: EngineVariables): { engines: EnginesConfig; problems: string[] } {
  const problems: string[] = [];
  const urlOf = (name: 'VOICEVOX_URL' | 'SPEECH_SERVER_URL'): string | undefined => {
    const value = variables[name];
    if (value === undefined) return undefined;
    const problem = engineUrlProblem(value);
    if (problem !== undefined) problems.push(`${name} ${problem}`);
    return problem === undefined ? base(value) : undefined;
  };
  const voicevoxUrl = urlOf('VOICEVOX_URL');
  const speechUrl = urlOf('SPEECH_SERVER_URL');
  const { SPEECH_SERVER_KEY: key, SPEECH_SERVER_MODEL: model, SPEECH_SERVER_VOICES: voices } = variables;
  if (variables.SPEECH_SERVER_URL === undefined)
    for (const name of ['SPEECH_SERVER_KEY', 'SPEECH_SERVER_MODEL', 'SPEECH_SERVER_VOICES'] as const)
      if (variables[name] !== undefined)
        problems.push(`${name} is set, but SPEECH_SERVER_URL (the server it is for) is not`);
  if (key !== undefined && !/^[\x21-\x7e]{1,1024}$/.test(key))
    problems.push(
      `SPEECH_SERVER_KEY must be a token of visible ASCII characters with no spaces; got a value of ${key.length} characters (not shown)`,
    );
  if (model !== undefined && !/^[\w.:/-]{1,100}$/.test(model))
    problems.push(
      `SPEECH_SERVER_MODEL must be a model name (letters, digits, _ . : / -, at most 100); got ${JSON.stringify(model.slice(0, 100))}`,
    );
  const listed = voices === undefined ? undefined : listedVoices(voices, problems);
  const choices = variables.FREE_VOICES === undefined ? {} : freeVoices(variables.FREE_VOICES, variables, problems);
  return {
    problems,
    engines: {
      voicevoxUrl,
      speechServer:
        speechUrl === undefined
          ? undefined
          : { url: speechUrl, key, model: model ?? DEFAULT_SPEECH_SERVER_MODEL, voices: listed },
      freeVoices: choices,
    },
  };
}
