// The sandbox's own pitch detector, for a clone's reference clip: normalised autocorrelation over the clip's loudest
// stretches, the peak refined by a parabola through its neighbours, the median of the stretches taken. Enough for
// the tones and voices a reference clip holds; written here so that it shares no bug with SayBot's.

const LOWEST_HZ = 50;
const HIGHEST_HZ = 2000;
/** Stretches measured at most: a 60 s clip costs no more than a short one. */
const MOST_STRETCHES = 24;
/** A stretch's correlation at its best lag below this holds no clear pitch. */
const CLEAR = 0.5;

/** The clip's dominant pitch in Hz, or undefined where it holds none (silence, noise). */
export function pitchHz(samples: Float32Array, sampleRate: number): number | undefined {
  const shortest = Math.max(2, Math.floor(sampleRate / HIGHEST_HZ));
  const longest = Math.ceil(sampleRate / LOWEST_HZ);
  const span = 2 * longest;
  const stretches = Math.floor(samples.length / (span + longest));
  if (stretches === 0) return undefined;
  const energies: Array<{ start: number; energy: number }> = [];
  for (let s = 0; s < stretches; s++) {
    const start = s * (span + longest);
    let energy = 0;
    for (let i = start; i < start + span; i++) energy += (samples[i] ?? 0) ** 2;
    energies.push({ start, energy });
  }
  const loudest = Math.max(...energies.map((e) => e.energy));
  if (loudest === 0) return undefined;
  const loud = energies.filter((e) => e.energy >= loudest / 10);
  const step = Math.max(1, loud.length / MOST_STRETCHES);
  const found: number[] = [];
  for (let k = 0; k < loud.length; k += step) {
    const lag = bestLag(samples, loud[Math.floor(k)]!.start, span, shortest, longest);
    if (lag !== undefined) found.push(sampleRate / lag);
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => a - b);
  return found[Math.floor(found.length / 2)];
}

function bestLag(x: Float32Array, start: number, span: number, shortest: number, longest: number): number | undefined {
  const r = new Float64Array(longest + 2);
  for (let lag = shortest - 1; lag <= longest + 1; lag++) {
    let cross = 0;
    let a = 0;
    let b = 0;
    for (let i = start; i < start + span; i++) {
      const p = x[i] ?? 0;
      const q = x[i + lag] ?? 0;
      cross += p * q;
      a += p * p;
      b += q * q;
    }
    r[lag] = a === 0 || b === 0 ? 0 : cross / Math.sqrt(a * b);
  }
  // The first peak that comes near the best one: the period itself, not a multiple of it.
  let best = 0;
  for (let lag = shortest; lag <= longest; lag++) best = Math.max(best, r[lag] ?? 0);
  if (best < CLEAR) return undefined;
  for (let lag = shortest; lag <= longest; lag++) {
    const here = r[lag] ?? 0;
    if (here >= 0.9 * best && here >= (r[lag - 1] ?? 0) && here >= (r[lag + 1] ?? 0)) {
      const before = r[lag - 1] ?? 0;
      const after = r[lag + 1] ?? 0;
      const bend = before - 2 * here + after;
      return bend === 0 ? lag : lag + (0.5 * (before - after)) / bend;
    }
  }
  return undefined;
}
