// The one place that creates mpg123 WASM decoders, so every one of them is freed and the count can be checked.
import { MPEGDecoder } from 'mpg123-decoder';
import type { MPEGDecodedAudio } from 'mpg123-decoder';

export type { MPEGDecodedAudio };

let live = 0;

/** Decoders created and not yet freed (tests use it to prove no WASM instance is leaked). */
export function liveMp3Decoders(): number {
  return live;
}

export interface Mp3Decoder {
  decode(bytes: Uint8Array): MPEGDecodedAudio;
  /** Idempotent. */
  free(): void;
}

/** A ready decoder; `gapless` drops the LAME/Info delay and padding while streaming. */
export async function openMp3Decoder(options: { gapless: boolean }): Promise<Mp3Decoder> {
  const decoder = new MPEGDecoder({ enableGapless: options.gapless });
  live++;
  let freed = false;
  const free = (): void => {
    if (freed) return;
    freed = true;
    live--;
    decoder.free();
  };
  try {
    await decoder.ready;
  } catch (error) {
    free();
    throw error;
  }
  return { decode: (bytes) => decoder.decode(bytes), free };
}
