// Time stretching without a change of pitch: WSOLA (waveform-similarity overlap-add, Verhelst & Roelands 1993).
//
// Output frames of FRAME_SECONDS are laid down every half frame under a Hann window (which sums to one at that
// overlap). Each frame is read from the input near where the speed puts it, shifted by up to SEARCH_SECONDS to
// the place whose waveform best continues the frame before it, so periods line up and the pitch stays the
// voice's own. Chosen over a phase vocoder because speech is what it stretches: WSOLA keeps the voice's
// transients and has no "phasiness", costs one cross-correlation per frame, and fits in this file, where the npm
// stretchers are either browser-bound (Web Audio worklets), unmaintained ports, or native builds.
//
// Pure and synchronous: it runs in the audio worker thread (src/core/audio/jobs/audio-thread/), never on the main
// thread.

/** The slowest and fastest speeds members may ask for: beyond them speech stops being pleasant to listen to. */
export const MIN_SPEED = 0.5;
export const MAX_SPEED = 2;

const FRAME_SECONDS = 0.03;
/** Half a period of an 80 Hz voice and more: enough shift to line up any speaking voice's periods. */
const SEARCH_SECONDS = 0.01;

/**
 * `channels` (planar, equal lengths) played `speed` times as fast at the same pitch: the result lasts
 * round(length / speed) samples. Speed 1 returns copies. All channels take the same frame positions (chosen on
 * their mix), so a stereo image stays where it was.
 */
export function timeStretch(channels: readonly Float32Array[], sampleRate: number, speed: number): Float32Array[] {
  if (!(speed >= MIN_SPEED && speed <= MAX_SPEED))
    throw new RangeError(`speed ${speed} is outside ${MIN_SPEED}..${MAX_SPEED}`);
  const input = channels[0]?.length ?? 0;
  if (speed === 1 || input === 0) return channels.map((c) => Float32Array.from(c));
  const outLength = Math.round(input / speed);
  const hop = Math.max(1, Math.round((FRAME_SECONDS * sampleRate) / 2));
  const frame = 2 * hop;
  const search = Math.max(1, Math.round(SEARCH_SECONDS * sampleRate));
  const window = hann(frame);
  const mix = mixdown(channels);
  const outs = channels.map(() => new Float32Array(outLength + frame));
  const lastStart = Math.max(0, input - frame);

  let previous = 0;
  for (let k = 0; k * hop < outLength; k++) {
    const nominal = Math.round(k * hop * speed);
    const start = k === 0 ? 0 : bestStart(mix, previous + hop, nominal, search, hop, lastStart);
    const at = k * hop;
    for (let c = 0; c < channels.length; c++) {
      const src = channels[c] as Float32Array;
      const dst = outs[c] as Float32Array;
      for (let i = 0; i < frame; i++) {
        const from = start + i;
        if (from >= input) break;
        // The first frame's rising half has no frame before it to sum with: it is taken whole.
        const w = k === 0 && i < hop ? 1 : (window[i] as number);
        dst[at + i] = (dst[at + i] as number) + w * (src[from] as number);
      }
    }
    previous = start;
  }
  return outs.map((o) => o.subarray(0, outLength).slice());
}

/**
 * Where, within `search` of `nominal`, the input best continues the previous frame (whose natural continuation
 * starts at `natural`): the largest normalised cross-correlation over the overlap. Searched on every other
 * sample and shift, then refined around the best: a quarter of the work, the same choice for speech.
 */
function bestStart(
  mix: Float32Array,
  natural: number,
  nominal: number,
  search: number,
  overlap: number,
  lastStart: number,
): number {
  const low = Math.max(0, nominal - search);
  const high = Math.min(lastStart, nominal + search);
  if (high <= low) return Math.min(Math.max(0, nominal), lastStart);
  let best = low;
  let bestScore = -Infinity;
  const score = (candidate: number, step: number): number => {
    let dot = 0;
    let energy = 1e-9;
    for (let i = 0; i < overlap; i += step) {
      const a = mix[natural + i] ?? 0;
      const b = mix[candidate + i] ?? 0;
      dot += a * b;
      energy += b * b;
    }
    return dot / Math.sqrt(energy);
  };
  for (let candidate = low; candidate <= high; candidate += 2) {
    const s = score(candidate, 2);
    if (s > bestScore) {
      bestScore = s;
      best = candidate;
    }
  }
  const coarse = best;
  bestScore = -Infinity;
  for (let candidate = Math.max(low, coarse - 1); candidate <= Math.min(high, coarse + 1); candidate++) {
    const s = score(candidate, 1);
    if (s > bestScore) {
      bestScore = s;
      best = candidate;
    }
  }
  return best;
}

/** A periodic Hann window: two of them half a window apart sum to exactly one. */
function hann(length: number): Float32Array {
  const w = new Float32Array(length);
  for (let i = 0; i < length; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length);
  return w;
}

function mixdown(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0] ?? new Float32Array(0);
  if (channels.length === 1) return first;
  const mix = new Float32Array(first.length);
  for (const channel of channels)
    for (let i = 0; i < mix.length; i++) mix[i] = (mix[i] as number) + (channel[i] ?? 0) / channels.length;
  return mix;
}
