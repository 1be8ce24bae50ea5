import type { Readable } from 'node:stream';
import type { AudioResponse, CloneVoiceResponse, VoiceApiClient } from '../api/client.ts';
import type { AudioFormat } from '../audio/format.ts';
import { analyseClip } from '../audio/clip.ts';
import { exactMp3File } from '../audio/mp3-file.ts';
import { exactWavFile } from '../audio/wav-file.ts';
import { createOpusPacketStream } from '../audio/playback.ts';
import type { Logger } from '../log.ts';
import type { Charge } from '../quota/accounting.ts';
import type { GuildPlayer, PlaybackItem, PlaybackResult } from '../voice/guild-player.ts';
import { PartSource, type SpeechAudio } from './part-source.ts';
import { splitText } from './split-text.ts';

/** What to say and how: the settings resolved from the command's options (and, later, presets). */
export type SpeechRequest =
  | { kind: 'tts'; text: string; voice: string; language?: string; format: 'wav' | 'mp3'; tone?: string }
  | { kind: 'emotion'; text: string; voice: string; exaggeration: number }
  /** Audio the service already sent (a voice clone's first line): played or posted as it is, no further call. */
  | { kind: 'ready'; text: string; voice: string; response: AudioResponse };

export interface SpokenFile {
  parts: Array<{ data: Buffer; format: AudioFormat }>;
  seconds: number;
}

export interface VoicePlayback {
  /** Clips ahead of this request when it was queued. */
  ahead: number;
  parts: number;
  /** Settles when every part has played, or at the first part that did not. */
  done: Promise<PlaybackResult>;
  /** Resolves when the first part starts playing; never, when it does not. */
  firstAudio: Promise<void>;
}

export interface SpeechServiceOptions {
  client: VoiceApiClient;
  logger: Logger;
  maxCharsPerRequest: number;
  /** Where parts come from (cache, shared flights, the API) and how they are recorded; default: the API alone. */
  source?: PartSource;
}

/**
 * Turns a request into audio: splits the text into parts the service accepts, calls the Voice API once per
 * part, and hands the audio either to a guild's player (streaming, part after part) or back as files.
 */
export class SpeechService {
  readonly #source: PartSource;
  readonly #log: Logger;
  readonly #maxChars: number;

  constructor(options: SpeechServiceOptions) {
    this.#source = options.source ?? new PartSource({ client: options.client, logger: options.logger });
    this.#log = options.logger;
    this.#maxChars = options.maxCharsPerRequest;
  }

  /** The texts that will be sent, one request each. */
  parts(request: SpeechRequest): string[] {
    if (request.kind === 'ready') return [request.text];
    return splitText(request.text, this.#maxChars);
  }

  /** Creates a cloned voice from a checked reference clip; the service answers with its ID and, often, audio. */
  cloneVoice(text: string, clip: { data: Uint8Array; filename: string; contentType: string }, signal?: AbortSignal, charge?: Charge): Promise<CloneVoiceResponse> {
    return this.#source.cloneVoice(text, clip, signal, charge);
  }

  /** One part's audio: from the cache, a flight under way or the API (part-source.ts), recorded against `charge`. */
  #fetch(request: SpeechRequest, text: string, signal: AbortSignal, charge?: Charge): Promise<SpeechAudio> {
    return this.#source.fetch(request, text, signal, charge);
  }

  /** Queues every part on the player; each part's request starts just before its turn. */
  play(request: SpeechRequest, player: GuildPlayer, label: string, charge?: Charge): VoicePlayback {
    const texts = this.parts(request);
    const ahead = player.busy ? player.queueLength + 1 : 0;
    const items = texts.map((text, index) => this.#playbackItem(request, text, `${label}#${index + 1}`, charge));
    const firstAudio = new Promise<void>((resolve) => {
      const first = items[0];
      if (first) first.started = resolve;
    });
    const results = items.map((item) => player.enqueue(item));
    const done = (async (): Promise<PlaybackResult> => {
      let seconds = 0;
      for (const pending of results) {
        const result = await pending;
        seconds += result.seconds;
        if (result.status !== 'played') {
          // A skip ends the whole reply, and the parts after a failed one would make no sense alone.
          player.dropQueued(items);
          return { ...result, seconds };
        }
      }
      return { status: 'played', seconds };
    })();
    return { ahead, parts: texts.length, done, firstAudio };
  }

  #playbackItem(request: SpeechRequest, text: string, label: string, charge?: Charge): PlaybackItem & { started?: () => void } {
    const prefetch = new AbortController();
    let pending: Promise<SpeechAudio> | undefined;
    const start = () => (pending ??= this.#fetch(request, text, prefetch.signal, charge));
    return {
      label,
      prepare: () => {
        // A prefetch that fails is reported when the item is opened; until then nobody awaits it.
        start().catch(() => undefined);
      },
      dispose: () => {
        prefetch.abort();
        pending?.then((response) => response.body.destroy()).catch(() => undefined);
      },
      open: async (signal: AbortSignal): Promise<Readable> => {
        const onAbort = () => prefetch.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          const response = await start();
          this.#log.debug({ label, requestId: response.requestId, format: response.format }, 'audio response started');
          // A cached or shared part brings its Opus packets: nothing to decode or encode again.
          if (response.packets) {
            response.body.destroy();
            return response.packets(signal);
          }
          return createOpusPacketStream(response.body, response.format, { signal });
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      },
    };
  }

  /** Fetches every part in full, for posting as files. Parts are fetched one after the other, in order. */
  async renderFiles(request: SpeechRequest, signal?: AbortSignal, charge?: Charge): Promise<SpokenFile> {
    const parts: SpokenFile['parts'] = [];
    let seconds = 0;
    for (const text of this.parts(request)) {
      const response = await this.#fetch(request, text, signal ?? new AbortController().signal, charge);
      const data = exactFile(response.format, Buffer.concat(await response.body.toArray()));
      // The reply's duration is the file's own, measured from its samples.
      const info = await analyseClip(data);
      seconds += info.durationSeconds;
      parts.push({ data, format: response.format });
    }
    return { parts, seconds };
  }
}

/** The bytes as a file every player reads: exact WAV sizes whatever header was streamed, no cut MP3 frame. */
function exactFile(format: AudioFormat, data: Buffer): Buffer {
  const fixed = format === 'wav' ? exactWavFile(data) : format === 'mp3' ? exactMp3File(data) : data;
  return fixed === data ? data : Buffer.from(fixed.buffer, fixed.byteOffset, fixed.byteLength);
}
