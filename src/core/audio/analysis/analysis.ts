// Signal measurements on mono float samples.

/** RMS level in dB relative to a full-scale square wave (a full-scale sine reads -3.01). -Infinity for silence. */
export function rmsDbfs(samples: Float32Array): number {
  if (samples.length === 0) return -Infinity;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] ?? 0;
    sum += s * s;
  }
  return sum === 0 ? -Infinity : 10 * Math.log10(sum / samples.length);
}

const MIN_PITCH_HZ = 50;
const MAX_PITCH_HZ = 2000;
const MAX_FRAMES = 32;
const YIN_THRESHOLD = 0.15;
const MIN_CLARITY = 0.35; // a frame whose best dip is above this is not periodic (noise, silence)

/** The dominant fundamental in Hz (50..2000) by YIN over up to 32 loud frames (median), or undefined. */
export function dominantPitchHz(samples: Float32Array, sampleRate: number): number | undefined {
  const minLag = Math.max(2, Math.floor(sampleRate / MAX_PITCH_HZ));
  const maxLag = Math.ceil(sampleRate / MIN_PITCH_HZ);
  const window = maxLag; // at least one period of the lowest pitch
  const frameLength = window + maxLag + 1;
  if (samples.length < frameLength) return undefined;

  const starts = loudFrameStarts(samples, frameLength);
  const diff = new Float64Array(maxLag + 2);
  const estimates: number[] = [];
  for (const start of starts) {
    const lag = yinLag(samples, start, window, minLag, maxLag, diff);
    if (lag !== undefined) estimates.push(sampleRate / lag);
  }
  if (estimates.length === 0) return undefined;
  estimates.sort((a, b) => a - b);
  return estimates[Math.floor(estimates.length / 2)];
}

/** Start offsets of up to MAX_FRAMES frames, spread evenly over those within 20 dB of the loudest. */
function loudFrameStarts(samples: Float32Array, frameLength: number): number[] {
  const count = Math.floor(samples.length / frameLength);
  const energy = new Float64Array(count);
  let loudest = 0;
  for (let f = 0; f < count; f++) {
    let sum = 0;
    for (let i = f * frameLength, end = i + frameLength; i < end; i++) {
      const s = samples[i] ?? 0;
      sum += s * s;
    }
    energy[f] = sum;
    loudest = Math.max(loudest, sum);
  }
  if (loudest === 0) return [];
  const loud: number[] = [];
  for (let f = 0; f < count; f++) if ((energy[f] ?? 0) >= loudest / 100) loud.push(f * frameLength);
  const step = Math.max(1, loud.length / MAX_FRAMES);
  const picked: number[] = [];
  for (let k = 0; k < loud.length && picked.length < MAX_FRAMES; k += step) picked.push(loud[Math.floor(k)] ?? 0);
  return picked;
}

function yinLag(
  x: Float32Array,
  start: number,
  window: number,
  minLag: number,
  maxLag: number,
  d: Float64Array,
): number | undefined {
  // d[tau] = sum (x[j] - x[j+tau])^2, then normalised by its running mean so d'[tau] dips towards 0 at periods.
  let running = 0;
  d[0] = 1;
  for (let tau = 1; tau <= maxLag + 1; tau++) {
    let sum = 0;
    for (let j = start, end = start + window; j < end; j++) {
      const delta = (x[j] ?? 0) - (x[j + tau] ?? 0);
      sum += delta * delta;
    }
    running += sum;
    d[tau] = running === 0 ? 1 : (sum * tau) / running;
  }
  let best = -1;
  for (let tau = minLag; tau <= maxLag; tau++) {
    const v = d[tau] ?? 1;
    if (v < YIN_THRESHOLD) {
      // Walk down to the bottom of this first dip.
      while (tau + 1 <= maxLag && (d[tau + 1] ?? 1) < (d[tau] ?? 1)) tau++;
      best = tau;
      break;
    }
    if (best < 0 || v < (d[best] ?? 1)) best = tau;
  }
  if (best < 0 || (d[best] ?? 1) > MIN_CLARITY) return undefined;
  const a = d[best - 1] ?? 1;
  const b = d[best] ?? 1;
  const c = d[best + 1] ?? 1;
  const curvature = a - 2 * b + c;
  return curvature > 0 ? best + (a - c) / (2 * curvature) : best;
}
