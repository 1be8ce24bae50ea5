// How much a sound varies as speech does: speech moves from syllable to pause to hiss within a second, a test tone
// does not. Two spreads over 20 ms frames: of the frames' loudness (syllables and pauses) and of their zero-crossing
// rate (voiced sounds against hiss). A steady tone has both near 0; speech has both well above.

export interface SpeechLikeness {
  /** Standard deviation over mean of the frames' RMS. */
  loudnessSpread: number;
  /** Standard deviation over mean of the frames' zero-crossing rate. */
  crossingSpread: number;
}

const spread = (values: readonly number[]): number => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  if (mean === 0) return 0;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance) / mean;
};

export function speechLikeness(samples: Float32Array, sampleRate: number): SpeechLikeness {
  const frame = Math.round(sampleRate * 0.02);
  const loudness: number[] = [];
  const crossings: number[] = [];
  for (let start = 0; start + frame <= samples.length; start += frame) {
    let energy = 0;
    let crossed = 0;
    for (let i = start; i < start + frame; i++) {
      const sample = samples[i]!;
      energy += sample * sample;
      if (i > start && Math.sign(sample) !== Math.sign(samples[i - 1]!)) crossed += 1;
    }
    const rms = Math.sqrt(energy / frame);
    // Silence is left out of the crossings: it has none to speak of, and speech's pauses are counted in loudness.
    loudness.push(rms);
    if (rms > 0.01) crossings.push(crossed);
  }
  return { loudnessSpread: spread(loudness), crossingSpread: crossings.length === 0 ? 0 : spread(crossings) };
}
