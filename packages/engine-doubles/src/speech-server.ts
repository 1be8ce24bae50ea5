// The OpenAI-compatible speech server double (what Kokoro-FastAPI, openedai-speech and others serve), from OpenAI's
// published API: POST /v1/audio/speech, GET /v1/models, and Kokoro-FastAPI's GET /v1/audio/voices. Errors in OpenAI's
// shape `{"error": {message, type, param, code}}`; with a key given, every /v1 request needs `Authorization: Bearer`.
import { timingSafeEqual } from 'node:crypto';
import { MP3_SAMPLE_RATES, resample, toneSamples } from './audio.ts';
import {
  startDouble,
  type Api,
  type ApiRequest,
  type AudioFormat,
  type DoubleOptions,
  type EngineDouble,
  type Outcome,
} from './double.ts';
import { checkVoices, DEFAULT_SPEECH_VOICES, speechVoiceId, speechVoicePitchHz, type SpeechVoice } from './voices.ts';
import { spokenLine, wordsAvailable } from './words.ts';

export interface SpeechServerDoubleOptions extends DoubleOptions {
  /** Voices (Kokoro's names by default, DEFAULT_SPEECH_VOICES), each a name or `{ id, pitchHz }`. */
  voices?: readonly SpeechVoice[];
  /** Model IDs /v1/models lists and /v1/audio/speech takes; default ['kokoro', 'tts-1', 'tts-1-hd']. */
  models?: readonly string[];
  /** When given, every /v1 request needs `Authorization: Bearer <apiKey>`, else 401. Default: none needed. */
  apiKey?: string;
  /** GET /v1/audio/voices answers (Kokoro-FastAPI does); false makes it 404, as openedai-speech and OpenAI. Default true. */
  voicesEndpoint?: boolean;
  /** Output sample rate; default 24000 (what OpenAI and Kokoro send). One an MP3 can carry. */
  sampleRate?: number;
  /** WAV header with sizes 0xFFFFFFFF, as a server streaming its audio writes it; default false (exact sizes). */
  streamedWavHeader?: boolean;
  /** 'tones' (default): a sine at the voice's pitch, which tests measure; 'words': eSpeak NG where installed. */
  speech?: 'tones' | 'words';
  /** Longest `input`, characters; default 4096 (OpenAI's limit). */
  maxInputCharacters?: number;
  /** Audio length per character of input at speed 1; default 0.06 s. */
  secondsPerCharacter?: number;
}

export interface SpeechServerDouble extends EngineDouble {
  readonly voices: readonly string[];
  readonly models: readonly string[];
  /** The key it asks for, if any. */
  readonly apiKey: string | undefined;
  /** The pitch a voice speaks at (tones). */
  pitchHz(voice: string): number | undefined;
  /** How long the audio for `input` lasts at `speed` (default 1): max(0.5, characters × 0.06) / speed. */
  expectedSeconds(input: string, speed?: number): number;
}

const AMPLITUDE = 0.4;
const BODY_LIMIT = 256 * 1024;
const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
const MADE: readonly string[] = ['mp3', 'wav', 'pcm'] satisfies AudioFormat[];
/** eSpeak NG's language for the first letter of a Kokoro voice name. */
const LANGUAGES: Readonly<Record<string, string>> = {
  a: 'en-us',
  b: 'en-gb',
  j: 'ja',
  z: 'cmn',
  e: 'es',
  f: 'fr',
  h: 'hi',
  i: 'it',
  p: 'pt-br',
};

function openAiError(
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
  type = status >= 500 ? 'server_error' : 'invalid_request_error',
): Extract<Outcome, { kind: 'json' }> {
  return { kind: 'json', status, body: { error: { message, type, param, code } } };
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

class SpeechApi implements Api {
  readonly sampleRate: number;
  readonly voices: readonly string[];
  readonly models: readonly string[];
  readonly #voices: readonly SpeechVoice[];
  readonly #apiKey: string | undefined;
  readonly #voicesEndpoint: boolean;
  readonly #streamedWav: boolean;
  readonly #words: boolean;
  readonly #maxInput: number;
  readonly #secondsPerCharacter: number;

  constructor(options: SpeechServerDoubleOptions) {
    this.#voices = options.voices ?? DEFAULT_SPEECH_VOICES;
    this.voices = this.#voices.map(speechVoiceId);
    checkVoices(this.voices, 'voices');
    this.models = options.models ?? ['kokoro', 'tts-1', 'tts-1-hd'];
    checkVoices(this.models, 'models');
    if (options.apiKey !== undefined && !/^\S{1,200}$/.test(options.apiKey)) {
      throw new RangeError('apiKey must be 1 to 200 characters without spaces');
    }
    this.#apiKey = options.apiKey;
    this.#voicesEndpoint = options.voicesEndpoint ?? true;
    this.sampleRate = options.sampleRate ?? 24_000;
    if (!MP3_SAMPLE_RATES.includes(this.sampleRate)) {
      throw new RangeError(`sampleRate must be one of ${MP3_SAMPLE_RATES.join(', ')}`);
    }
    this.#streamedWav = options.streamedWavHeader ?? false;
    this.#words = options.speech === 'words' && wordsAvailable();
    this.#maxInput = options.maxInputCharacters ?? 4096;
    this.#secondsPerCharacter = options.secondsPerCharacter ?? 0.06;
  }

  get apiKey(): string | undefined {
    return this.#apiKey;
  }

  get words(): boolean {
    return this.#words;
  }

  pitchHz(voice: string): number | undefined {
    return speechVoicePitchHz(voice, this.#voices);
  }

  seconds(input: string, speed: number): number {
    return Math.max(0.5, [...input].length * this.#secondsPerCharacter) / speed;
  }

  isAudio(method: string, path: string): boolean {
    return method === 'POST' && path === '/v1/audio/speech';
  }

  error(status: number, message: string): unknown {
    return openAiError(status, message).body;
  }

  async serve(request: ApiRequest): Promise<Outcome> {
    const { method, path } = request;
    const routes: Record<string, string> = {
      '/v1/audio/speech': 'POST',
      '/v1/models': 'GET',
      ...(this.#voicesEndpoint ? { '/v1/audio/voices': 'GET' } : {}),
    };
    const allowed = routes[path];
    if (allowed === undefined || allowed !== method) {
      const shown = `${method} ${path.slice(0, 100)}`;
      return allowed === undefined
        ? openAiError(404, `Invalid URL (${shown})`)
        : { ...openAiError(405, `Method not allowed (${shown})`), headers: { Allow: allowed } };
    }
    if (this.#apiKey !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (match === null) {
        const message =
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
        return openAiError(401, message);
      }
      if (!sameKey(match[1] ?? '', this.#apiKey)) {
        return openAiError(401, 'Incorrect API key provided.', null, 'invalid_api_key');
      }
    }
    switch (path) {
      case '/v1/models':
        return {
          kind: 'json',
          status: 200,
          body: {
            object: 'list',
            data: this.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'saybot-double' })),
          },
        };
      case '/v1/audio/voices':
        return { kind: 'json', status: 200, body: { voices: this.voices } };
    }
    return this.#speech(request);
  }

  #speech(request: ApiRequest): Outcome {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
    } catch {
      return openAiError(400, 'We could not parse the JSON body of your request.');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return openAiError(400, 'The body of your request must be a JSON object.');
    }
    const { model, input, voice, response_format: format, speed } = body as Record<string, unknown>;
    const record = request.record;
    if (typeof voice === 'string') record.voice = voice.slice(0, 100);
    if (typeof model === 'string') record.model = model.slice(0, 100);
    if (typeof format === 'string') record.format = format.slice(0, 20);
    if (typeof input === 'string') record.inputLength = [...input].length;

    if (model === undefined) return openAiError(400, 'you must provide a model parameter', 'model');
    if (typeof model !== 'string')
      return openAiError(400, "Invalid type for 'model': expected a string.", 'model', 'invalid_type');
    if (!this.models.includes(model)) {
      const message = `The model \`${model.slice(0, 100)}\` does not exist or you do not have access to it.`;
      return openAiError(404, message, null, 'model_not_found');
    }
    if (input === undefined)
      return openAiError(400, "Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
    if (typeof input !== 'string')
      return openAiError(400, "Invalid type for 'input': expected a string.", 'input', 'invalid_type');
    if (input.length === 0) return openAiError(400, "Invalid 'input': empty string.", 'input', 'empty_string');
    if ((record.inputLength ?? 0) > this.#maxInput) {
      const message = `Invalid 'input': string too long. Expected a string with maximum length ${this.#maxInput}.`;
      return openAiError(400, message, 'input', 'string_above_max_length');
    }
    if (voice === undefined)
      return openAiError(400, "Missing required parameter: 'voice'.", 'voice', 'missing_required_parameter');
    const pitchHz = typeof voice === 'string' ? this.pitchHz(voice) : undefined;
    if (typeof voice !== 'string' || pitchHz === undefined) {
      const message = `Invalid value for 'voice'. Supported values are: ${this.voices.map((v) => `'${v}'`).join(', ')}.`;
      return openAiError(400, message, 'voice', 'invalid_value');
    }
    const asked = format ?? 'mp3';
    if (typeof asked !== 'string' || !(FORMATS as readonly string[]).includes(asked)) {
      const message = `Invalid value for 'response_format'. Supported values are: ${FORMATS.map((f) => `'${f}'`).join(', ')}.`;
      return openAiError(400, message, 'response_format', 'invalid_value');
    }
    if (!MADE.includes(asked)) {
      return openAiError(
        400,
        `The double does not make '${asked}'; ask for mp3, wav or pcm.`,
        'response_format',
        'unsupported_value',
      );
    }
    const pace = speed ?? 1;
    if (typeof pace !== 'number' || !(pace >= 0.25 && pace <= 4)) {
      return openAiError(400, "Invalid 'speed': expected a number from 0.25 to 4.0.", 'speed', 'invalid_value');
    }
    const rate = this.sampleRate;
    const seconds = this.seconds(input, pace);
    const make = async () => {
      const spoken = this.#words
        ? await spokenLine({
            text: input,
            language: LANGUAGES[voice[0] ?? 'a'] ?? 'en-us',
            gender: voice[1] === 'm' ? 'm' : 'f',
            pitchHz,
            speed: pace,
          }).catch(() => undefined)
        : undefined;
      const samples = spoken
        ? resample(spoken.samples, spoken.rate, rate)
        : toneSamples({ pitchHz, seconds, amplitude: AMPLITUDE, sampleRate: rate });
      return { samples, rate, channels: 1 };
    };
    return { kind: 'audio', format: asked as AudioFormat, streamedHeader: this.#streamedWav, make };
  }
}

/** An OpenAI-compatible speech server double on 127.0.0.1 (a free port by default); `url` is http://127.0.0.1:P/v1. */
export async function startSpeechServerDouble(options: SpeechServerDoubleOptions = {}): Promise<SpeechServerDouble> {
  const api = new SpeechApi(options);
  const speech = api.words ? 'words' : 'tones';
  const double = await startDouble(api, { ...options, speech, bodyLimit: BODY_LIMIT }, '/v1');
  return Object.assign(double, {
    voices: api.voices,
    models: api.models,
    apiKey: api.apiKey,
    pitchHz: (voice: string) => api.pitchHz(voice),
    expectedSeconds: (input: string, speed = 1) => api.seconds(input, speed),
  });
}
