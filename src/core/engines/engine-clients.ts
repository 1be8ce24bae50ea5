// The two engines' HTTP APIs, one client each, every exchange through engine-http.ts (its deadlines, bounds and
// checks). VOICEVOX ENGINE (and what speaks its API: AivisSpeech Engine, SHAREVOX): `GET /speakers`, then a line as
// `POST /audio_query?text=&speaker=` and `POST /synthesis?speaker=` with that query, SayBot's controls set in it. An
// OpenAI-compatible speech server (Kokoro-FastAPI, speaches, openedai-speech, LocalAI): `GET {base}/audio/voices`
// (which many do not have: 404) and `POST {base}/audio/speech`, with its bearer token when the owner set one.
import type { Agent } from 'undici';
import { SPEECH_SERVER_APPLIES, speechServerSpeed, VOICEVOX_APPLIES, voicevoxScales } from './engine-controls.ts';
import { EngineError } from './engine-errors.ts';
import { EngineExchange, engineAgent, NOT_LISTED, type EngineDeadlines, type Wav } from './engine-http.ts';
import type { AppliedControls, EngineControls, EngineName, EngineVoice, ListedSpeechVoice } from './engine-types.ts';
import { listedNames, speechVoices, voicevoxVoices } from './engine-voices.ts';

/** What the Engines class asks of either engine. */
export interface EngineClient {
  readonly engine: EngineName;
  /** The base URL (never with credentials: config refuses them). */
  readonly url: string;
  /** The voices the engine offers now, bounded and cleaned (engine-voices.ts). */
  fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]>;
  synthesize(text: string, voice: EngineVoice, controls: EngineControls, signal?: AbortSignal): Promise<SpokenWav>;
  close(): Promise<void>;
}

export interface SpokenWav extends Wav {
  applied: AppliedControls;
}

abstract class HttpClient {
  protected readonly agent: Agent;
  protected readonly exchange: EngineExchange;

  constructor(engine: EngineName, deadlines: EngineDeadlines) {
    this.agent = engineAgent(deadlines);
    this.exchange = new EngineExchange(engine, this.agent, deadlines);
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

export class VoicevoxClient extends HttpClient implements EngineClient {
  readonly engine = 'voicevox';
  readonly url: string;

  constructor(url: string, deadlines: EngineDeadlines) {
    super('voicevox', deadlines);
    this.url = url;
  }

  async fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]> {
    const answer = await this.exchange.json({ method: 'GET', url: `${this.url}/speakers`, signal }, 'its voice list');
    if (!Array.isArray(answer))
      throw new EngineError('voicevox', 'bad-answer', 'its voice list (GET /speakers) is not a list of speakers');
    return voicevoxVoices(answer);
  }

  async synthesize(
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    signal?: AbortSignal,
  ): Promise<SpokenWav> {
    const speaker = encodeURIComponent(voice.engineVoice);
    const query = await this.exchange.json(
      {
        method: 'POST',
        url: `${this.url}/audio_query?text=${encodeURIComponent(text)}&speaker=${speaker}`,
        headers: { accept: 'application/json' },
        signal,
      },
      'its audio query',
    );
    if (typeof query !== 'object' || query === null || Array.isArray(query))
      throw new EngineError('voicevox', 'bad-answer', 'its audio query is not a query object');
    const wav = await this.exchange.wav(
      {
        method: 'POST',
        url: `${this.url}/synthesis?speaker=${speaker}`,
        headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ ...query, ...voicevoxScales(controls) }),
        signal,
      },
      'its synthesis',
    );
    return { ...wav, applied: { ...VOICEVOX_APPLIES } };
  }
}

export interface SpeechServerOptions {
  url: string;
  key?: string | undefined;
  model: string;
  voices?: readonly ListedSpeechVoice[] | undefined;
}

export class SpeechServerClient extends HttpClient implements EngineClient {
  readonly engine = 'speech';
  readonly url: string;
  readonly #key: string | undefined;
  readonly #model: string;
  readonly #listed: readonly ListedSpeechVoice[] | undefined;

  constructor(options: SpeechServerOptions, deadlines: EngineDeadlines) {
    super('speech', deadlines);
    this.url = options.url;
    this.#key = options.key;
    this.#model = options.model;
    this.#listed = options.voices;
  }

  #headers(extra: Record<string, string>): Record<string, string> {
    return this.#key === undefined ? extra : { ...extra, authorization: `Bearer ${this.#key}` };
  }

  async fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]> {
    const answer = await this.exchange.json(
      {
        method: 'GET',
        url: `${this.url}/audio/voices`,
        headers: this.#headers({ accept: 'application/json' }),
        signal,
      },
      'its voice list',
      { notFound: true },
    );
    return speechVoices(answer === NOT_LISTED ? undefined : listedNames(answer), this.#listed);
  }

  async synthesize(
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    signal?: AbortSignal,
  ): Promise<SpokenWav> {
    const body = {
      model: this.#model,
      input: text,
      voice: voice.engineVoice,
      response_format: 'wav',
      speed: speechServerSpeed(controls),
    };
    const wav = await this.exchange.wav(
      {
        method: 'POST',
        url: `${this.url}/audio/speech`,
        headers: this.#headers({ 'content-type': 'application/json', accept: 'audio/wav' }),
        body: JSON.stringify(body),
        signal,
      },
      'its speech',
    );
    return { ...wav, applied: { ...SPEECH_SERVER_APPLIES } };
  }

  toJSON(): Record<string, unknown> {
    return { engine: this.engine, url: this.url, model: this.#model, key: this.#key === undefined ? 'none' : 'set' };
  }
}
