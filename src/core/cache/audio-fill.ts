// A part's audio filled once and heard by everyone who asked for it: the service's response kept as it arrives
// (AudioFill) and replayed live, from its first item, to every reader (Replay).
import { Readable } from 'node:stream';
import type { AudioResponse } from '../api/client.ts';
import type { UsageInfo } from '../api/errors.ts';
import { UnsupportedAudioError } from '../audio/errors.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import { OPUS_ENCODER_SETTINGS, type OpusSettings } from '../audio/codecs/opus-settings.ts';
import { createOpusPacketStream } from '../audio/playback.ts';

/** One part's audio, whole: what the cache keeps. */
export interface CachedAudio {
  format: AudioFormat;
  /** The bytes as the service sent them, in the pieces they came in (never joined on the main thread). */
  audio: readonly Buffer[];
  /** The same audio as 20 ms Opus packets, so a hit in voice skips decoding; absent where the player cannot encode. */
  packets?: Buffer[];
  /** A free line cut at this cap (seconds), or a copy: heard with a note a hit could not carry, so never cached. */
  cutAt?: number;
}

/** The audio of one part as callers use it: an AudioResponse (body: the service's bytes) plus its Opus packets. */
export interface PartAudio extends AudioResponse {
  /** The audio as Opus packets, from the first, as an object-mode stream for the player. */
  packets(signal?: AbortSignal): Readable;
  /** The cap its line was cut at, if it was (CachedAudio's `cutAt`): passed on to every copy made of it. */
  cutAt?: number;
}

const noop = () => undefined;

/** Packets encoded ahead of the furthest listener: enough to ride out a slow tick, little enough to stay paced. */
const ENCODE_LEAD_PACKETS = 10;

/** Items arriving once, replayed live from the first to every reader; an error ends each with that same error. */
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

  /** `onRead` is told whenever a reader moves past the furthest item read so far, or a reader goes away. */
  constructor(options: { onRead?: () => void } = {}) {
    this.#onRead = options.onRead;
  }

  /** How many items the most advanced reader has taken: lets a producer keep only a little ahead of it. */
  get furthestRead(): number {
    return this.#furthestRead;
  }

  /** Readers still open. */
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

/**
 * One response from the service, consumed once and shared: every caller reads its bytes from the start, live, the body
 * read as fast as it comes. Opus packets are encoded only for listeners, a little ahead of the furthest one (encoding
 * at the service's pace for 50 replies at once blocked the event loop for a second). A part nobody heard to the end is
 * cached as bytes only. `complete` settles when the bytes are whole (and the packets, if encoded to the end).
 */
export class AudioFill {
  readonly format: AudioFormat;
  readonly requestId: string | undefined;
  readonly usage: UsageInfo | undefined;
  readonly cutAt: number | undefined;
  /** The whole part, once the body has ended (and the packets, if encoded to the end); rejects if the body failed. */
  readonly complete: Promise<CachedAudio>;
  readonly #bytes = new Replay<Buffer>();
  /** The packets of the encoder under way (a new one, from the first, once every listener left: see #pace). */
  #packets = this.#newPackets();
  readonly #encoding: Readonly<OpusSettings>;
  #encoder: Readable | undefined;
  /** Set when encoding stopped before the end (every listener left; a later one starts it anew): no packets cached. */
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

  /** Packets encoded so far (for tests and diagnostics). */
  get packetsEncoded(): number {
    return this.#packets.items.length;
  }

  /** The encoder is paused waiting for a listener (tests and diagnostics). */
  get encoderWaiting(): boolean {
    return this.#encoder !== undefined && !this.#encoder.destroyed && this.#encoder.isPaused() && !this.#packets.ended;
  }

  #newPackets(): Replay<Buffer> {
    return new Replay<Buffer>({ onRead: () => this.#pace() });
  }

  /** Starts the shared encoder on the first listener; it reads the kept bytes from the first. */
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

  /** Keeps the encoder a few packets ahead of the furthest listener; stops it when no listener is left. */
  #pace(): void {
    const encoder = this.#encoder;
    if (!encoder || encoder.destroyed || this.#packets.ended) return;
    if (this.#packets.readers === 0) {
      this.#abandoned = true;
      // A later listener gets a fresh encoder from the first packet, never a replay that would leave it waiting.
      this.#encoder = undefined;
      this.#packets = this.#newPackets();
      encoder.destroy();
      this.#settleEncoding();
      return;
    }
    const ahead = this.#packets.items.length - this.#packets.furthestRead;
    // Paused at twice the lead, resumed at the lead: one threshold paused and resumed on every packet.
    if (ahead >= ENCODE_LEAD_PACKETS * 2) encoder.pause();
    else if (ahead <= ENCODE_LEAD_PACKETS && encoder.isPaused()) encoder.resume();
  }

  /** What one caller reads: the service's bytes from the first, and the packets on demand. */
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
