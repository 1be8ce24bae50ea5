// A line's WAVs joined and cut at a cap (the free voice's 120 s, espeak-run.ts): the cut keeps whole sample frames
// from the start, the header's sizes exact, and a cap past the audio changes nothing.
import { describe, expect, it } from 'vitest';
import { encodeWav16, joinWavFiles } from '../../../../src/core/audio/codecs/wav-file.ts';
import { parseWavHeader } from '../../../../src/core/audio/codecs/wav.ts';

const wav = (samples: number[]) => encodeWav16([Float32Array.from(samples)], 22_050);
const dataOf = (bytes: Uint8Array) => {
  const parsed = parseWavHeader(bytes);
  if (!('header' in parsed)) throw new Error('no header');
  return bytes.subarray(parsed.header.dataOffset, parsed.header.dataOffset + (parsed.header.dataBytes ?? 0));
};

describe('joinWavFiles with a cap', () => {
  const first = wav([0.1, 0.2, 0.3]);
  const second = wav([0.4, 0.5, 0.6]);

  it('keeps the first samples up to the cap, cut at a whole frame, across the parts', () => {
    // 9 bytes: four whole 16-bit frames and half of a fifth, which is dropped.
    const cut = joinWavFiles([first, second], 9);
    expect(cut).toBeDefined();
    const whole = dataOf(joinWavFiles([first, second])!);
    expect(dataOf(cut!)).toEqual(whole.subarray(0, 8));
  });

  it('changes nothing under a cap longer than the audio', () => {
    expect(joinWavFiles([first, second], 1_000)).toEqual(joinWavFiles([first, second]));
  });
});
