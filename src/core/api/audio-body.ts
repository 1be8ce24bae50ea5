// An audio response's body: how much audio a request's text can take (audioBound), its first bytes (they show the
// format), and the stream of the rest, cut at its bound (AudioBodyStream); a body that is not audio read within a cap.
import { Readable } from 'node:stream';
import type { AudioFormat } from '../audio/codecs/format.ts';
import { parseWavHeader } from '../audio/codecs/wav.ts';
import { countCharacters } from '../characters.ts';

// How much audio a request's text can take: more is not speech of that text (a fault, a proxy never ending), and is
// cut before it takes the process's memory. Seconds, turned into bytes at the format's rate, under a hard byte cap.
export interface AudioLimits {
  /** Speech runs at 0.07-0.15 s a character; the default allows several times that. */
  secondsPerCharacter: number;
  /** Seconds allowed whatever the text's length: a word or two may come with silence around it. */
  minSeconds: number;
  maxBytes: number;
}

export const DEFAULT_AUDIO_LIMITS: Readonly<AudioLimits> = Object.freeze({
  secondsPerCharacter: 1,
  minSeconds: 30,
  maxBytes: 64 * 1024 * 1024,
});

/** 48 kHz stereo 32-bit PCM: no WAV, FLAC, Ogg or M4A of speech takes more bytes a second. */
const WORST_PCM_BYTES_PER_SECOND = 48_000 * 2 * 4;
const MP3_BYTES_PER_SECOND = 320_000 / 8;
/** Headers, tags and chunks besides the audio (an ID3 tag with a picture, a LIST chunk). */
const HEADER_ALLOWANCE_BYTES = 256 * 1024;

/** The most bytes a second of this audio can take, from its header where it says (WAV), else the format's worst. */
function bytesPerSecond(format: AudioFormat, head: Uint8Array): number {
  if (format === 'mp3') return MP3_BYTES_PER_SECOND;
  if (format === 'wav') {
    try {
      const parsed = parseWavHeader(head);
      if ('header' in parsed) {
        const { sampleRate, blockAlign } = parsed.header.format;
        if (sampleRate > 0 && blockAlign > 0) return sampleRate * blockAlign;
      }
    } catch {
      // A header the decoder will refuse anyway: the worst rate bounds it meanwhile.
    }
  }
  return WORST_PCM_BYTES_PER_SECOND;
}

interface AudioBound {
  maxBytes: number;
  maxSeconds: number;
}

export function audioBound(limits: AudioLimits, text: string, format: AudioFormat, head: Uint8Array): AudioBound {
  const maxSeconds = Math.max(limits.minSeconds, countCharacters(text) * limits.secondsPerCharacter);
  const bySeconds = Math.ceil(maxSeconds * bytesPerSecond(format, head)) + HEADER_ALLOWANCE_BYTES;
  return { maxBytes: Math.min(limits.maxBytes, bySeconds), maxSeconds };
}

export interface Head {
  /** Every byte read so far: at least `wanted` bytes unless the body ended first. */
  bytes: Buffer;
  ended: boolean;
}

/** Reads until `wanted` bytes arrived or the body ended, leaving `source` paused; rejects with its own error. */
export function readHead(source: Readable, wanted: number): Promise<Head> {
  return new Promise<Head>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const unlisten = (): void => listen(source, { data: onData, end: onEnd, error: onError, close: onClose }, false);
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= wanted) {
        source.pause();
        unlisten();
        // Until the next reader attaches, an error must not go unhandled; it stays on `source.errored`.
        source.on('error', ignore);
        resolve({ bytes: Buffer.concat(chunks, length), ended: false });
      }
    };
    const onEnd = (): void => {
      unlisten();
      resolve({ bytes: Buffer.concat(chunks, length), ended: true });
    };
    const onError = (error: unknown): void => {
      unlisten();
      reject(error);
    };
    const onClose = (): void => {
      unlisten();
      reject(new PrematureCloseError());
    };
    listen(source, { data: onData, end: onEnd, error: onError, close: onClose }, true);
  });
}

type Listener = Parameters<Readable['on']>[1];

function listen(source: Readable, listeners: Record<string, Listener>, on: boolean): void {
  for (const [event, listener] of Object.entries(listeners))
    if (on) source.on(event, listener);
    else source.off(event, listener);
}

export function ignore(): void {}

/** Drops a body no longer wanted, swallowing the error undici emits for destroying it unfinished. */
export function discard(source: Readable): void {
  source.on('error', ignore);
  source.destroy();
}

class PrematureCloseError extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
}

/** How much of a body that is not audio is read (an error's, a clone's JSON). */
export const ERROR_BODY_CAP = 64 * 1024;

/** At most `cap` bytes of a body that is not audio. Never rejects: it must not hide the status before it. */
export async function readCapped(source: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= cap) break;
    }
  } catch {
    // Keep what arrived.
  } finally {
    discard(source);
  }
  return Buffer.concat(chunks, length).subarray(0, cap);
}

interface AudioBodyHooks {
  mapError: (error: unknown) => Error;
  /** The caller stopped reading (the socket paused) or started again: not the service being slow. */
  waiting: (waiting: boolean) => void;
  /** The network side is over (all arrived, or broken off), maybe well before the caller read it all. */
  done: () => void;
  /** The most bytes the body may have (its first bytes included); past it, the stream is broken off with `tooLarge()`. */
  maxBytes: number;
  tooLarge: () => Error;
}

/** The head first, then the rest as it arrives, back-pressure passed to the socket; `breakOff` ends it with an error. */
export class AudioBodyStream extends Readable {
  readonly #source: Readable;
  readonly #hooks: AudioBodyHooks;
  #ended = false;
  #waiting = false;
  #received = 0;

  constructor(head: Head, source: Readable, hooks: AudioBodyHooks) {
    super();
    this.#source = source;
    this.#hooks = hooks;
    if (head.ended) {
      this.push(head.bytes);
      this.#finish();
      this.push(null);
      return;
    }
    listen(source, this.#listeners, true);
    this.#onData(head.bytes);
    // The source may have ended (all of it fitted in the head) or failed before this stream took over.
    const early = source.errored;
    if (source.readableEnded) this.#onEnd();
    else if (early !== null) queueMicrotask(() => this.#onError(early));
    else if (source.destroyed) queueMicrotask(this.#onClose);
  }

  get #listeners(): Record<string, Listener> {
    return { data: this.#onData, end: this.#onEnd, error: this.#onError, close: this.#onClose };
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.destroyed) return;
    this.#received += chunk.length;
    // Cut (the source destroyed, its request aborted) before the chunk is kept: past the bound, nothing more is held.
    if (this.#received > this.#hooks.maxBytes) {
      this.breakOff(this.#hooks.tooLarge());
      return;
    }
    if (this.push(chunk)) return;
    this.#source.pause();
    this.#setWaiting(true);
  };

  readonly #onEnd = (): void => {
    this.#finish();
    this.push(null);
  };

  readonly #onError = (error: unknown): void => {
    this.breakOff(this.#hooks.mapError(error));
  };

  readonly #onClose = (): void => {
    if (!this.#ended) this.breakOff(this.#hooks.mapError(new PrematureCloseError()));
  };

  breakOff(error: Error): void {
    if (this.destroyed || this.readableEnded) return;
    this.destroy(error);
  }

  override _read(): void {
    this.#setWaiting(false);
    this.#source.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    listen(this.#source, this.#listeners, false);
    // Destroying the undici body before its end also aborts the request and frees the connection.
    discard(this.#source);
    this.#finish();
    callback(error);
  }

  #setWaiting(waiting: boolean): void {
    if (this.#ended || waiting === this.#waiting) return;
    this.#waiting = waiting;
    this.#hooks.waiting(waiting);
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#hooks.done();
  }
}

/** A `voice_id` from a JSON body cut short: whole once its closing quote arrived. */
export function voiceIdFromPartialJson(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(bytes.subarray(0, ERROR_BODY_CAP));
  return /"(?:voice_id|voiceId)"\s*:\s*"([\x21\x23-\x7e]{1,200})"/.exec(text)?.[1];
}

export function voiceIdFromJson(bytes: Uint8Array): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
  const fields = (o: unknown) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>) : {});
  const pick = (o: unknown): string | undefined =>
    [fields(o)['voice_id'], fields(o)['voiceId'], fields(o)['id']].find(
      (v): v is string => typeof v === 'string' && /^[\x21-\x7e]{1,200}$/.test(v),
    );
  return pick(value) ?? pick(fields(value)['voice']) ?? pick(fields(value)['data']);
}
