// A part's audio filled once (AudioFill) and replayed live, from its first item, to every reader (Replay), and the one
// way from its bytes to 20 ms 48 kHz Opus packets (createOpusPacketStream): transcoded in worker threads
// (src/core/audio/jobs/transcode/) or, decode 'main', on this thread.
import { availableParallelism } from 'node:os';
import { addAbortSignal, finished, Readable, type Duplex } from 'node:stream';
import type { AudioResponse } from '../api/client.ts';
import type { UsageInfo } from '../api/errors.ts';
import { UnsupportedAudioError } from '../audio/errors.ts';
import { DecodeTo48kStream } from '../audio/codecs/decode-stream.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import { Mp3StreamDecoder } from '../audio/codecs/mp3-stream.ts';
import { OggOpusPacketStream } from '../audio/codecs/ogg-opus-stream.ts';
import { createOpusEncoder } from '../audio/codecs/opus-encode.ts';
import { encoderSpec, type OpusSettings } from '../audio/codecs/opus-settings.ts';
import { WavStreamDecoder } from '../audio/codecs/wav.ts';
import { sharedTranscodePool } from '../audio/jobs/transcode/transcode-pool.ts';

/** One part's audio, whole: what the cache keeps. */
export interface CachedAudio {
  format: AudioFormat;
  /** The bytes as the service sent them, in the pieces they came in (never joined on the main thread). */
  audio: readonly Buffer[];
  /** The same as 20 ms Opus packets, so a hit goes straight to the player; absent for formats it cannot encode. */
  packets?: Buffer[];
  /** A free line cut at its cap (seconds), or a copy of one: heard with a note, so never cached. */
  cutAt?: number;
}

/** The audio of one part as callers use it: an AudioResponse (body: the service's bytes) plus its Opus packets. */
export interface PartAudio extends AudioResponse {
  packets(signal?: AbortSignal): Readable;
  cutAt?: number;
}

const noop = () => undefined;

/** Packets encoded ahead of the furthest listener: enough to ride out a slow tick, little enough to stay paced. */
const ENCODE_LEAD_PACKETS = 10;

/** Items arriving once, read live by any number of readers, each from the first; an error ends each with itself. */
class Replay<T extends Buffer> {
  readonly #items: T[] = [];
  #ended = false;
  #error: Error | undefined;
  #waiting = new Set<() => void>();
  /** The other set #wake swaps in, so that waking the readers makes no array per item. */
  #woken = new Set<() => void>();
  #waking = false;
  #furthestRead = 0;
  #readers = 0;
  readonly #onRead: (() => void) | undefined;

  /** `onRead`: a reader moved past the furthest item read, or went away. */
  constructor(options: { onRead?: () => void } = {}) {
    this.#onRead = options.onRead;
  }

  get furthestRead(): number {
    return this.#furthestRead;
  }

  get readers(): number {
    return this.#readers;
  }

  get items(): readonly T[] {
    return this.#items;
  }

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    // An empty chunk pushed to a byte stream reads as "nothing more for now" and would stall the reader.
    if (this.#ended || this.#error || item.length === 0) return;
    this.#items.push(item);
    this.#wake();
  }

  end(): void {
    if (this.#ended || this.#error) return;
    this.#ended = true;
    this.#wake();
  }

  /** The first failure wins; later ones (the same failure seen by another stage) are ignored. */
  fail(error: Error): void {
    if (this.#ended || this.#error) return;
    this.#error = error;
    this.#wake();
  }

  #wake(): void {
    if (this.#waiting.size === 0) return;
    if (this.#waking) {
      // Woken from inside a wake (a reader's consumer fed the producer): the sets are in use, copy.
      const waiting = [...this.#waiting];
      this.#waiting.clear();
      for (const resume of waiting) resume();
      return;
    }
    // A reader that catches up again waits in the fresh set, not in the one being walked.
    this.#waking = true;
    const waiting = this.#waiting;
    this.#waiting = this.#woken;
    this.#woken = waiting;
    try {
      for (const resume of waiting) resume();
    } finally {
      waiting.clear();
      this.#waking = false;
    }
  }

  /** A new reader from the first item. Destroying it leaves the replay and the other readers alone. */
  reader(options: { objectMode: boolean; signal?: AbortSignal | undefined }): Readable {
    let index = 0;
    this.#readers++;
    const advanced = (): void => {
      if (index <= this.#furthestRead) return;
      this.#furthestRead = index;
      this.#onRead?.();
    };
    const pump = (): void => {
      if (stream.destroyed) return;
      while (index < this.#items.length) {
        const item = this.#items[index++] as T;
        if (!stream.push(item)) return advanced();
      }
      advanced();
      if (this.#error) stream.destroy(this.#error);
      else if (this.#ended) stream.push(null);
      else this.#waiting.add(pump);
    };
    const stream = new Readable({
      objectMode: options.objectMode,
      read: pump,
      destroy: (error, callback) => {
        this.#waiting.delete(pump);
        this.#readers--;
        this.#onRead?.();
        callback(error);
      },
      signal: options.signal,
    });
    return stream;
  }
}

/** One response consumed once and shared: its bytes kept as they arrive (no back-pressure), every caller reading them
 * from the start, live. Opus packets are encoded only for listeners, a little ahead of the furthest one: encoding
 * faster than real time for many guilds would stall every voice (50 replies at once blocked the loop ~1 s). */
export class AudioFill {
  readonly format: AudioFormat;
  readonly requestId: string | undefined;
  readonly usage: UsageInfo | undefined;
  readonly cutAt: number | undefined;
  /** The whole part (packets too, if encoded to the end); rejects if the body failed. */
  readonly complete: Promise<CachedAudio>;
  readonly #bytes = new Replay<Buffer>();
  /** The packets of the encoder under way (a new one, from the first, once every listener left: see #pace). */
  #packets = this.#newPackets();
  readonly #encoding: Readonly<OpusSettings>;
  #encoder: Readable | undefined;
  /** Encoding stopped before the end (every listener left): no packets cached. */
  #abandoned = false;
  #settleEncoding: () => void = noop;
  readonly #encodingSettled = new Promise<void>((resolve) => {
    this.#settleEncoding = resolve;
  });

  constructor(
    response: AudioResponse & { cutAt?: number | undefined },
    encoding: Readonly<OpusSettings> = OPUS_ENCODER_SETTINGS,
  ) {
    const format = response.format;
    this.#encoding = encoding;
    this.format = format;
    this.requestId = response.requestId;
    this.usage = response.usage;
    this.cutAt = response.cutAt;
    const cut = this.cutAt === undefined ? {} : { cutAt: this.cutAt };

    const body = response.body;
    body.on('data', (chunk: Buffer) => this.#bytes.push(chunk));
    body.on('end', () => this.#bytes.end());
    body.on('error', (error: Error) => {
      // The body's own typed error reaches every reader, bytes and packets alike.
      this.#bytes.fail(error);
      this.#packets.fail(error);
    });

    this.complete = (async (): Promise<CachedAudio> => {
      const audio = (await Readable.from(this.#bytes.reader({ objectMode: true })).toArray()) as Buffer[];
      // No listener by the time the bytes are whole: nothing to wait for (a file, or every caller skipped).
      if (this.#encoder === undefined) return { format, audio, ...cut };
      await this.#encodingSettled;
      if (this.#abandoned || !this.#packets.ended) return { format, audio, ...cut };
      return { format, audio, packets: [...this.#packets.items], ...cut };
    })();
    // Nobody may be waiting for it (every caller skipped): failures are the callers' to report, not the process's.
    this.complete.catch(noop);
  }

  get packetsEncoded(): number {
    return this.#packets.items.length;
  }

  get encoderWaiting(): boolean {
    return this.#encoder !== undefined && !this.#encoder.destroyed && this.#encoder.isPaused() && !this.#packets.ended;
  }

  #newPackets(): Replay<Buffer> {
    return new Replay<Buffer>({ onRead: () => this.#pace() });
  }

  #startEncoder(): void {
    if (this.#encoder) return;
    const encoder = createOpusPacketStream(this.#bytes.reader({ objectMode: false }), this.format, {
      encoding: this.#encoding,
    });
    this.#encoder = encoder;
    const packets = this.#packets;
    encoder.on('data', (packet: Buffer) => {
      packets.push(packet);
      this.#pace();
    });
    encoder.on('end', () => {
      packets.end();
      this.#settleEncoding();
    });
    encoder.on('error', (error: Error) => {
      // A format the player cannot encode is still a good file: the bytes are cached without packets.
      packets.fail(error);
      if (error instanceof UnsupportedAudioError) this.#abandoned = true;
      this.#settleEncoding();
    });
  }

  #pace(): void {
    const encoder = this.#encoder;
    if (!encoder || encoder.destroyed || this.#packets.ended) return;
    if (this.#packets.readers === 0) {
      this.#abandoned = true;
      // A later listener gets an encoder of its own from the first packet: this one's packets are never replayed.
      this.#encoder = undefined;
      this.#packets = this.#newPackets();
      encoder.destroy();
      this.#settleEncoding();
      return;
    }
    const ahead = this.#packets.items.length - this.#packets.furthestRead;
    // Paused at twice the lead, resumed at the lead: one threshold would do both for every packet.
    if (ahead >= ENCODE_LEAD_PACKETS * 2) encoder.pause();
    else if (ahead <= ENCODE_LEAD_PACKETS && encoder.isPaused()) encoder.resume();
  }

  part(): PartAudio {
    return {
      format: this.format,
      body: this.#bytes.reader({ objectMode: false }),
      packets: (signal?: AbortSignal) => {
        const reader = this.#packets.reader({ objectMode: true, signal });
        this.#startEncoder();
        return reader;
      },
      requestId: this.requestId,
      usage: this.usage,
      ...(this.cutAt === undefined ? {} : { cutAt: this.cutAt }),
    };
  }
}

/** A cache hit as callers use it: the same shape as a live part, with nothing left to arrive. */
export function cachedPart(entry: CachedAudio, encoding: Readonly<OpusSettings> = OPUS_ENCODER_SETTINGS): PartAudio {
  return {
    format: entry.format,
    body: Readable.from(entry.audio, { objectMode: false }),
    packets: (signal?: AbortSignal) => {
      if (entry.packets === undefined)
        return createOpusPacketStream(Readable.from(entry.audio), entry.format, { signal, encoding });
      return Readable.from(entry.packets, signal === undefined ? { objectMode: true } : { objectMode: true, signal });
    },
  };
}

/** The one place that says where a part's Opus packets come from: the stored packets of a cache hit or a flight that
 * has them, else the body encoded as it arrives (which the flight then caches): in voice and in voice messages. */
export function partPackets(
  audio: AudioResponse & Partial<Pick<PartAudio, 'packets'>>,
  encoding: Readonly<OpusSettings>,
  signal?: AbortSignal,
): Readable {
  // Let go already: a stream made now would fail on the next tick before its reader listens, uncaught.
  if (signal?.aborted) {
    audio.body.destroy();
    throw signal.reason;
  }
  if (audio.packets) {
    audio.body.destroy();
    return audio.packets(signal);
  }
  return createOpusPacketStream(audio.body, audio.format, { signal, encoding });
}

/** What the player uses. 64 kb/s mono is above Xiph's range for fullband speech, so complexity 4 loses nothing audible
 * (bench/opus-floor.ts: pitch within 0.5 Hz, level within 0.05 dB). Below 5 libopus drops CELT's pitch pre-filter,
 * whose search was a third of a transcoding worker's CPU a frame: it sharpens harmonics when bits are short, and they
 * are not. CELT only: hybrid SILK+CELT cost two to three times as much per frame and drifted pitch by 2 Hz. */
export const OPUS_ENCODER_SETTINGS: Readonly<OpusSettings> = {
  channels: 'source',
  complexity: 4,
  bitrate: 64_000,
  celtOnly: true,
  thread: 'workers',
  // The main thread keeps one core for Discord, the HTTP bodies and the voice clock.
  workers: Math.max(1, availableParallelism() - 1),
  decode: 'workers',
};

interface OpusPacketStreamOptions {
  /** Aborting destroys the stream (and the source) with the signal's AbortError. */
  signal?: AbortSignal | undefined;
  /** How it is encoded (default OPUS_ENCODER_SETTINGS; the app's, src/app/start-saybot.ts). */
  encoding?: Readonly<OpusSettings> | undefined;
}

/** WAV and MP3 are transcoded, Ogg/Opus passed through; FLAC, M4A and other Ogg end with UnsupportedAudioError. Any
 * failure ends the stream with its error and destroys the source, as does destroying the returned stream. */
export function createOpusPacketStream(
  source: Readable,
  format: AudioFormat,
  options: OpusPacketStreamOptions = {},
): Readable {
  let stages: Duplex[];
  const settings = options.encoding ?? OPUS_ENCODER_SETTINGS;
  const encode = (decode: DecodeTo48kStream): Duplex[] => [decode, createOpusEncoder(decode, settings)];
  const choose = (source: 1 | 2): 1 | 2 => encoderSpec(settings, source).channels;
  if ((format === 'wav' || format === 'mp3') && settings.thread === 'workers' && settings.decode === 'workers') {
    const { complexity, bitrate, celtOnly, channels } = settings;
    const transcode = sharedTranscodePool(settings.workers).stream({
      format,
      encoder: { complexity, bitrate, celtOnly, channels },
    });
    const output = chain(source, [transcode]);
    if (options.signal) addAbortSignal(options.signal, output);
    return output;
  }
  switch (format) {
    case 'wav':
      stages = encode(new DecodeTo48kStream(new WavStreamDecoder(), choose));
      break;
    case 'mp3':
      stages = encode(new DecodeTo48kStream(new Mp3StreamDecoder(), choose));
      break;
    case 'ogg':
      stages = [new OggOpusPacketStream()];
      break;
    case 'flac':
      return failed(source, new UnsupportedAudioError('flac', 'FLAC'));
    case 'm4a':
      return failed(source, new UnsupportedAudioError('m4a', 'M4A/AAC'));
    default:
      return failed(source, new UnsupportedAudioError(undefined, String(format)));
  }
  const output = chain(source, stages);
  if (options.signal) addAbortSignal(options.signal, output);
  return output;
}

function failed(source: Readable, error: Error): Readable {
  source.destroy();
  const output = new Readable({ objectMode: true, read() {} });
  output.destroy(error);
  return output;
}

/** Connects source -> stages like stream.pipeline, removing its listeners after (pipeline's keep the chain alive). */
function chain(source: Readable, stages: readonly Duplex[]): Readable {
  const streams: Array<Readable | Duplex> = [source, ...stages];
  const output = streams[streams.length - 1] ?? source;
  let failed = false;
  const fail = (error: Error): void => {
    if (failed) return;
    failed = true;
    // Only the output reports the error (to whoever plays it); the others just stop and release what they hold.
    for (const stream of streams) {
      if (stream === output) stream.destroy(error);
      else stream.destroy();
    }
  };
  for (const stream of streams) {
    const cleanup = finished(stream, (error) => {
      cleanup();
      if (error) fail(error);
      // Without our error listener a stream that could still emit 'error' would crash the process.
      else if (!stream.destroyed) stream.destroy();
    });
  }
  for (let i = 0; i + 1 < streams.length; i++) streams[i]?.pipe(streams[i + 1] as Duplex);
  return output;
}
