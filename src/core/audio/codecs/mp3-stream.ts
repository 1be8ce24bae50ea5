// Incremental MP3 decoding with mpg123 (WASM): each chunk is fed as it arrives, whatever its boundaries;
// mpg123 finds the frames, skips ID3 tags and drops the LAME delay/padding (gapless).
import type { PcmSink, StreamDecoder } from './decode-stream.ts';
import { ClipError } from '../errors.ts';
import { openMp3Decoder } from './mpg123.ts';
import type { Mp3Decoder } from './mpg123.ts';

export class Mp3StreamDecoder implements StreamDecoder {
  // Opened at once so the WASM instance is usually ready by the time the first bytes arrive.
  readonly #opening: Promise<Mp3Decoder>;
  #freed = false;
  #samples = 0;
  #firstError: string | undefined;

  constructor() {
    this.#opening = openMp3Decoder({ gapless: true });
    this.#opening.catch(() => undefined); // reported by the first write
  }

  async write(chunk: Uint8Array, sink: PcmSink): Promise<void> {
    const decoder = await this.#opening;
    if (this.#freed) return;
    const decoded = decoder.decode(chunk);
    this.#firstError ??= decoded.errors[0]?.message;
    if (decoded.samplesDecoded === 0) return;
    this.#samples += decoded.samplesDecoded;
    // mpg123 always gives two channels (mono duplicated); they go on as a pair.
    sink(decoded.channelData, decoded.samplesDecoded, decoded.sampleRate);
  }

  end(): void {
    if (this.#samples === 0) {
      throw new ClipError(
        'corrupt',
        `the MP3 stream decoded to no audio${this.#firstError ? ` (${this.#firstError})` : ''}`,
      );
    }
  }

  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    this.#opening.then(
      (decoder) => decoder.free(),
      () => undefined,
    );
  }
}
