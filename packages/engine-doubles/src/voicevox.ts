// The VOICEVOX ENGINE double (the API AivisSpeech Engine and SHAREVOX speak too), from its published API:
// GET /version, GET /speakers, GET /speaker_info, POST /audio_query, POST /synthesis. Errors in FastAPI's shape:
// 422 `{"detail": [{type, loc, msg, input}]}` for a bad parameter or body, 422 `{"detail": "..."}` for a style it does
// not have, 404 `{"detail": "Not Found"}`, 405 `{"detail": "Method Not Allowed"}`.
import { z } from 'zod';
import { scaled, stereo, toneSamples, resample } from './audio.ts';
import {
  startDouble,
  type Api,
  type ApiRequest,
  type DoubleOptions,
  type EngineDouble,
  type Outcome,
} from './double.ts';
import {
  checkVoices,
  DEFAULT_VOICEVOX_SPEAKERS,
  voicevoxSpeakerOf,
  voicevoxShiftedHz,
  voicevoxStylePitchHz,
  type VoicevoxSpeaker,
} from './voices.ts';
import { spokenLine, wordsAvailable } from './words.ts';

export interface VoicevoxDoubleOptions extends DoubleOptions {
  /** Default DEFAULT_VOICEVOX_SPEAKERS (3 made-up speakers, 9 styles). */
  speakers?: readonly VoicevoxSpeaker[];
  /** What GET /version answers; default '0.25.0'. */
  version?: string;
  /** 'tones' (default): a sine at the style's pitch, which tests measure; 'words': eSpeak NG where installed. */
  speech?: 'tones' | 'words';
  /** Longest `text` of /audio_query, characters; default 1000 (the double's bound, not VOICEVOX's). */
  maxTextCharacters?: number;
  /** Longest audio /synthesis makes, seconds; longer is 422 (the double's bound). Default 300. */
  maxAudioSeconds?: number;
  /** AudioQuery carries `pauseLength` and `pauseLengthScale` (VOICEVOX 0.19 and later); default true. */
  pauseLength?: boolean;
  /** Audio a mora lasts in its queries, seconds; default MORA_SECONDS. */
  moraSeconds?: number;
}

export interface VoicevoxDouble extends EngineDouble {
  readonly speakers: readonly VoicevoxSpeaker[];
  /** The pitch a style speaks at (tones), shifted by a query's pitchScale (on the log of its F0, as VOICEVOX). */
  pitchHz(styleId: number, pitchScale?: number): number | undefined;
  /** How long /synthesis's audio lasts for /audio_query's text, at a speedScale (default 1). */
  expectedSeconds(text: string, speedScale?: number): number;
}

/** Audio a mora lasts in the double's queries: about what a character takes to say. */
export const MORA_SECONDS = 0.06;
const PHONEME_SECONDS = 0.1;
const AMPLITUDE = 0.4;
const BODY_LIMIT = 1024 * 1024;
const PAUSES = /[、。，．,.!?！？…\s]/u;
/** A 1×1 transparent PNG: the portraits and icons, kept tiny. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const mora = z.object({
  text: z.string(),
  consonant: z.string().nullish(),
  consonant_length: z.number().min(0).nullish(),
  vowel: z.string(),
  vowel_length: z.number().min(0),
  pitch: z.number(),
});
const accentPhrase = z.object({
  moras: z.array(mora),
  accent: z.int(),
  pause_mora: mora.nullish(),
  is_interrogative: z.boolean().default(false),
});
const audioQuery = z.object({
  accent_phrases: z.array(accentPhrase),
  speedScale: z.number().gt(0).max(10),
  pitchScale: z.number().min(-1).max(1),
  intonationScale: z.number().min(0).max(10),
  volumeScale: z.number().min(0).max(10),
  prePhonemeLength: z.number().min(0).max(10),
  postPhonemeLength: z.number().min(0).max(10),
  pauseLength: z.number().min(0).max(10).nullish(),
  pauseLengthScale: z.number().min(0).max(10).default(1),
  outputSamplingRate: z.int().min(8000).max(48000),
  outputStereo: z.boolean(),
  kana: z.string().optional(),
});
type Mora = z.output<typeof mora>;
type AccentPhrase = z.output<typeof accentPhrase>;
type AudioQuery = z.output<typeof audioQuery>;

/** One of FastAPI's validation errors (pydantic 2's shape). */
interface Detail {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

const invalid = (detail: Detail[]): Outcome => ({ kind: 'json', status: 422, body: { detail } });
const missing = (where: 'query' | 'body', name: string): Detail => ({
  type: 'missing',
  loc: [where, name],
  msg: 'Field required',
  input: null,
});

/** The text as a query's accent phrases: a mora a character, a phrase ending (with a pause) at punctuation or space. */
export function accentPhrases(text: string, pitchHz: number, moraSeconds = MORA_SECONDS): AccentPhrase[] {
  const pitch = Math.round(Math.log(pitchHz) * 1e4) / 1e4;
  const phrases: AccentPhrase[] = [];
  let moras: Mora[] = [];
  const end = (pause: string | undefined) => {
    if (moras.length === 0) return;
    phrases.push({
      moras,
      accent: 1,
      pause_mora:
        pause === undefined
          ? null
          : { text: '、', consonant: null, consonant_length: null, vowel: 'pau', vowel_length: moraSeconds, pitch: 0 },
      is_interrogative: pause === '?' || pause === '？',
    });
    moras = [];
  };
  for (const character of text) {
    if (PAUSES.test(character)) end(character);
    else
      moras.push({
        text: character,
        consonant: null,
        consonant_length: null,
        vowel: 'a',
        vowel_length: moraSeconds,
        pitch,
      });
  }
  end(undefined);
  return phrases;
}

/** AquesTalk-like kana of the phrases: the accented mora marked with ', phrases split by / or 、 at a pause. */
function kanaOf(phrases: readonly AccentPhrase[]): string {
  return phrases
    .map((phrase, i) => {
      const text = phrase.moras.map((m, j) => (j + 1 === phrase.accent ? `${m.text}'` : m.text)).join('');
      const last = i === phrases.length - 1;
      return `${text}${phrase.is_interrogative ? '？' : ''}${last ? '' : phrase.pause_mora ? '、' : '/'}`;
    })
    .join('');
}

interface Segment {
  seconds: number;
  voiced: boolean;
}

/** The stretches of sound and silence a query makes, before speedScale. */
function segments(query: AudioQuery): Segment[] {
  const out: Segment[] = [{ seconds: query.prePhonemeLength, voiced: false }];
  for (const phrase of query.accent_phrases) {
    for (const m of phrase.moras)
      out.push({ seconds: (m.consonant_length ?? 0) + m.vowel_length, voiced: m.pitch > 0 });
    if (phrase.pause_mora) {
      const seconds = (query.pauseLength ?? phrase.pause_mora.vowel_length) * query.pauseLengthScale;
      out.push({ seconds, voiced: false });
    }
  }
  out.push({ seconds: query.postPhonemeLength, voiced: false });
  return out;
}

/** A tone over each voiced run of segments, silence between, at `rate`. */
function toneOf(
  parts: readonly Segment[],
  speed: number,
  pitchHz: number,
  amplitude: number,
  rate: number,
): Int16Array {
  const total = Math.round((parts.reduce((sum, s) => sum + s.seconds, 0) / speed) * rate);
  const out = new Int16Array(total);
  let at = 0;
  let run = 0;
  const flush = () => {
    if (run > 0) out.set(toneSamples({ pitchHz, seconds: run / rate, amplitude, sampleRate: rate }), at - run);
    run = 0;
  };
  for (const part of parts) {
    const length = Math.round((part.seconds / speed) * rate);
    if (!part.voiced) flush();
    at += length;
    if (part.voiced) run += length;
  }
  flush();
  return out.subarray(0, total);
}

function issues(error: z.ZodError, where: 'body' | 'query', value: unknown): Detail[] {
  return error.issues.slice(0, 20).map((issue) => {
    let input: unknown = value;
    for (const key of issue.path) input = (input as Record<PropertyKey, unknown> | undefined)?.[key];
    return input === undefined
      ? { ...missing(where, ''), loc: [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))] }
      : {
          type: 'value_error',
          loc: [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
          msg: issue.message,
          input: typeof input === 'object' ? null : input,
        };
  });
}

class VoicevoxApi implements Api {
  readonly sampleRate = 24_000;
  readonly #speakers: readonly VoicevoxSpeaker[];
  readonly #version: string;
  readonly #words: boolean;
  readonly #maxText: number;
  readonly #maxSeconds: number;
  readonly #pauseLength: boolean;
  readonly #moraSeconds: number;

  constructor(options: VoicevoxDoubleOptions) {
    this.#speakers = options.speakers ?? DEFAULT_VOICEVOX_SPEAKERS;
    checkVoices(
      this.#speakers.flatMap((s) => s.styles.map((style) => style.id)),
      'speakers (their styles)',
    );
    checkVoices(
      this.#speakers.map((s) => s.speaker_uuid),
      'speakers',
    );
    this.#version = options.version ?? '0.25.0';
    this.#words = options.speech === 'words' && wordsAvailable();
    this.#maxText = options.maxTextCharacters ?? 1000;
    this.#maxSeconds = options.maxAudioSeconds ?? 300;
    this.#pauseLength = options.pauseLength ?? true;
    this.#moraSeconds = options.moraSeconds ?? MORA_SECONDS;
  }

  get speakers(): readonly VoicevoxSpeaker[] {
    return this.#speakers;
  }

  get words(): boolean {
    return this.#words;
  }

  isAudio(method: string, path: string): boolean {
    return method === 'POST' && path === '/synthesis';
  }

  error(status: number, message: string): unknown {
    return { detail: message };
  }

  query(text: string, styleId: number): AudioQuery {
    const phrases = accentPhrases(text, voicevoxStylePitchHz(styleId, this.#speakers) ?? 1, this.#moraSeconds);
    return {
      accent_phrases: phrases,
      speedScale: 1,
      pitchScale: 0,
      intonationScale: 1,
      volumeScale: 1,
      prePhonemeLength: PHONEME_SECONDS,
      postPhonemeLength: PHONEME_SECONDS,
      ...(this.#pauseLength ? { pauseLength: null, pauseLengthScale: 1 } : { pauseLengthScale: 1 }),
      outputSamplingRate: 24_000,
      outputStereo: false,
      kana: kanaOf(phrases),
    };
  }

  seconds(query: AudioQuery): number {
    return segments(query).reduce((sum, s) => sum + s.seconds, 0) / query.speedScale;
  }

  async serve(request: ApiRequest): Promise<Outcome> {
    const { method, path, query } = request;
    const routes: Record<string, string> = {
      '/version': 'GET',
      '/speakers': 'GET',
      '/speaker_info': 'GET',
      '/audio_query': 'POST',
      '/synthesis': 'POST',
    };
    const allowed = routes[path];
    if (allowed === undefined) return { kind: 'json', status: 404, body: { detail: 'Not Found' } };
    if (allowed !== method) {
      return { kind: 'json', status: 405, body: { detail: 'Method Not Allowed' }, headers: { Allow: allowed } };
    }
    switch (path) {
      case '/version':
        return { kind: 'json', status: 200, body: this.#version };
      case '/speakers':
        return { kind: 'json', status: 200, body: this.#speakers.map((s) => this.#speakerJson(s)) };
      case '/speaker_info':
        return this.#speakerInfo(query.get('speaker_uuid'));
    }
    const styleId = this.#styleParameter(request);
    if (typeof styleId !== 'number') return styleId;
    if (path === '/audio_query') {
      const text = query.get('text');
      if (text === null) return invalid([missing('query', 'text')]);
      const length = [...text].length;
      request.record.inputLength = length;
      if (length > this.#maxText) {
        const msg = `String should have at most ${this.#maxText} characters`;
        return invalid([{ type: 'string_too_long', loc: ['query', 'text'], msg, input: `${text.slice(0, 50)}…` }]);
      }
      return { kind: 'json', status: 200, body: this.query(text, styleId) };
    }
    return this.#synthesis(request, styleId);
  }

  #speakerJson(speaker: VoicevoxSpeaker): unknown {
    return {
      name: speaker.name,
      speaker_uuid: speaker.speaker_uuid,
      styles: speaker.styles.map((style) => ({ name: style.name, id: style.id, type: 'talk' })),
      version: this.#version,
      supported_features: { permitted_synthesis_morphing: 'SELF_ONLY' },
    };
  }

  #speakerInfo(uuid: string | null): Outcome {
    if (uuid === null) return invalid([missing('query', 'speaker_uuid')]);
    const speaker = this.#speakers.find((s) => s.speaker_uuid === uuid);
    if (speaker === undefined) return { kind: 'json', status: 404, body: { detail: '該当する話者が見つかりません' } };
    return {
      kind: 'json',
      status: 200,
      body: {
        policy: `# ${speaker.name}\n\nA made-up voice of SayBot's VOICEVOX double, for tests: free to use, no credit needed.\n`,
        portrait: TINY_PNG,
        style_infos: speaker.styles.map((style) => ({
          id: style.id,
          icon: TINY_PNG,
          portrait: TINY_PNG,
          voice_samples: [],
        })),
      },
    };
  }

  /** The `speaker` query parameter as a style this double has, else the 422 to answer. */
  #styleParameter({ query, record }: ApiRequest): number | Outcome {
    const given = query.get('speaker');
    if (given === null) return invalid([missing('query', 'speaker')]);
    if (!/^-?\d{1,9}$/.test(given.trim())) {
      const msg = 'Input should be a valid integer, unable to parse string as an integer';
      return invalid([{ type: 'int_parsing', loc: ['query', 'speaker'], msg, input: given.slice(0, 50) }]);
    }
    const id = Number(given);
    record.speaker = id;
    if (voicevoxSpeakerOf(id, this.#speakers) === undefined) {
      return { kind: 'json', status: 422, body: { detail: `該当するスタイル(style_id=${id})が見つかりません` } };
    }
    return id;
  }

  #synthesis(request: ApiRequest, styleId: number): Outcome {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
    } catch {
      return invalid([{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {} }]);
    }
    const parsed = audioQuery.safeParse(json);
    if (!parsed.success) return invalid(issues(parsed.error, 'body', json));
    const query = parsed.data;
    const parts = segments(query);
    const seconds = this.seconds(query);
    if (seconds > this.#maxSeconds) {
      const msg = `the double makes at most ${this.#maxSeconds} s of audio; this query asks for ${seconds.toFixed(1)} s`;
      return invalid([{ type: 'value_error', loc: ['body'], msg, input: null }]);
    }
    const text = query.accent_phrases.map((phrase) => phrase.moras.map((m) => m.text).join('')).join('、');
    request.record.inputLength = query.accent_phrases.reduce((sum, phrase) => sum + phrase.moras.length, 0);
    const styleHz = voicevoxStylePitchHz(styleId, this.#speakers) ?? 1;
    const pitchHz = voicevoxShiftedHz(styleHz, query.pitchScale);
    const rate = query.outputSamplingRate;
    const gender = voicevoxSpeakerOf(styleId, this.#speakers)?.gender ?? 'f';
    const make = async () => {
      const spoken =
        this.#words && text.length > 0
          ? await spokenLine({
              text,
              language: 'ja',
              gender,
              pitchHz: styleHz,
              shift: Math.log2(pitchHz / styleHz),
              speed: query.speedScale,
            }).catch(() => undefined)
          : undefined;
      const mono = spoken
        ? scaled(resample(spoken.samples, spoken.rate, rate), query.volumeScale)
        : toneOf(parts, query.speedScale, pitchHz, AMPLITUDE * query.volumeScale, rate);
      return query.outputStereo ? { samples: stereo(mono), rate, channels: 2 } : { samples: mono, rate, channels: 1 };
    };
    return { kind: 'audio', format: 'wav', make };
  }
}

/** A VOICEVOX ENGINE double on 127.0.0.1 (a free port by default); `url` is its base, http://127.0.0.1:P. */
export async function startVoicevoxDouble(options: VoicevoxDoubleOptions = {}): Promise<VoicevoxDouble> {
  const api = new VoicevoxApi(options);
  const speech = api.words ? 'words' : 'tones';
  const double = await startDouble(api, { ...options, speech, bodyLimit: BODY_LIMIT });
  return Object.assign(double, {
    speakers: api.speakers,
    pitchHz: (styleId: number, pitchScale = 0) => {
      const base = voicevoxStylePitchHz(styleId, api.speakers);
      return base === undefined ? undefined : voicevoxShiftedHz(base, pitchScale);
    },
    expectedSeconds: (text: string, speedScale = 1) => api.seconds({ ...api.query(text, -1), speedScale }),
  });
}
