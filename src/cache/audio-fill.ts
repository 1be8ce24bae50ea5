import { PassThrough, Readable } from 'node:stream';
import type { AudioResponse } from '../api/client.ts';
import type { UsageInfo } from '../api/errors.ts';
import { UnsupportedAudioError } from '../audio/errors.ts';
import type { AudioFormat } from '../audio/format.ts';
import { createOpusPacketStream } from '../audio/playback.ts';
import { Replay } from './replay.ts';

/** One part's audio, whole: what the cache keeps. */
export interface CachedAudio {
  format: AudioFormat;
  /** The bytes as the service sent them: posted as the file, unchanged. */
  audio: Buffer;
  /**
   * The same audio as Discord's 20 ms Opus packets, so a cache hit in a voice channel goes straight to the
   * player: no decoding, resampling or encoding. Absent for formats the player cannot encode (FLAC, M4A).
   */
  packets?: Buffer[];
}

/** The audio of one part as callers use it: an AudioResponse (body: the service's bytes) plus its Opus packets. */
export interface PartAudio extends AudioResponse {
  /** The audio as Opus packets, from the first, as an object-mode stream for the player. */
  packets(signal?: AbortSignal): Readable;
}

const noop = () => undefined;

/**
 * One response from the service, consumed once and shared: its bytes and its Opus packets are kept as they
 * arrive, and every caller (the request that made it, the identical ones that joined it) reads them from the
 * start, live. The body is read as fast as it comes (no back-pressure), which the Voice API client does not
 * count against its timeouts anyway. `complete` settles when both are whole: that is what goes to the cache.
 */
export class AudioFill {
  readonly format: AudioFormat;
  readonly requestId: string | undefined;
  readonly usage: UsageInfo | undefined;
  /** The whole part, once the body has ended and the packets are encoded; rejects if either failed. */
  readonly complete: Promise<CachedAudio>;
  readonly #bytes = new Replay<Buffer>();
  readonly #packets = new Replay<Buffer>();

  constructor(response: AudioResponse) {
    const format = response.format;
    this.format = format;
    this.requestId = response.requestId;
    this.usage = response.usage;
    // The encoder reads its own copy of the body: the bytes are kept untouched for files.
    const toEncoder = new PassThrough();
    toEncoder.on('error', noop);
    const encoded = createOpusPacketStream(toEncoder, response.format);
    encoded.on('data', (packet: Buffer) => this.#packets.push(packet));
    encoded.on('end', () => this.#packets.end());
    encoded.on('error', (error: Error) => this.#packets.fail(error));

    const body = response.body;
    body.on('data', (chunk: Buffer) => {
      this.#bytes.push(chunk);
      if (!toEncoder.destroyed) toEncoder.write(chunk);
    });
    body.on('end', () => {
      this.#bytes.end();
      toEncoder.end();
    });
    body.on('error', (error: Error) => {
      // The body's own typed error reaches every reader, bytes and packets alike.
      this.#bytes.fail(error);
      this.#packets.fail(error);
      toEncoder.destroy();
    });

    this.complete = (async (): Promise<CachedAudio> => {
      const audio = Buffer.concat(await Readable.from(this.#bytes.reader({ objectMode: true })).toArray());
      try {
        await this.#packets.reader({ objectMode: true }).toArray();
      } catch (error) {
        // A format the player cannot encode is still a good file: keep the bytes, without packets.
        if (error instanceof UnsupportedAudioError) return { format, audio };
        throw error;
      }
      return { format, audio, packets: [...this.#packets.items] };
    })();
    // Nobody may be waiting for it (every caller skipped): failures are the callers' to report, not the process's.
    this.complete.catch(noop);
  }

  /** What one caller reads: the service's bytes from the first, and the packets on demand. */
  part(): PartAudio {
    return {
      format: this.format,
      body: this.#bytes.reader({ objectMode: false }),
      packets: (signal?: AbortSignal) => this.#packets.reader({ objectMode: true, ...(signal === undefined ? {} : { signal }) }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
      ...(this.usage === undefined ? {} : { usage: this.usage }),
    };
  }
}

/** A cache hit as callers use it: the same shape as a live part, with nothing left to arrive. */
export function cachedPart(entry: CachedAudio): PartAudio {
  return {
    format: entry.format,
    body: Readable.from([entry.audio], { objectMode: false }),
    packets: (signal?: AbortSignal) => {
      if (entry.packets === undefined) return createOpusPacketStream(Readable.from([entry.audio]), entry.format, signal === undefined ? {} : { signal });
      return Readable.from(entry.packets, signal === undefined ? { objectMode: true } : { objectMode: true, signal });
    },
  };
}
