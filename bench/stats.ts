// Small statistics for benchmark samples.

/** The p-th percentile (0..100) by linear interpolation between closest ranks; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (rank - lo);
}

export function mean(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : samples.reduce((s, x) => s + x, 0) / samples.length;
}

export function max(samples: readonly number[]): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const x of samples) if (x > m) m = x;
  return samples.length === 0 ? Number.NaN : m;
}

/** Differences between consecutive values. */
export function gaps(times: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < times.length; i++) out.push((times[i] ?? 0) - (times[i - 1] ?? 0));
  return out;
}

export const ms = (x: number, digits = 1): string => (Number.isFinite(x) ? `${x.toFixed(digits)} ms` : 'n/a');
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${x.toFixed(digits)} %` : 'n/a');

/**
 * How far each packet is behind where a steady 20 ms stream from the first packet would have it. Gaps alone
 * miss a stall that is caught up by a burst (one long gap, then many short ones); this shows it as lateness.
 */
export function behindSchedule(times: readonly number[], periodMs = 20): number[] {
  const first = times[0] ?? 0;
  return times.map((t, i) => t - first - i * periodMs);
}

/**
 * The idle host's longest gap over `ticks` ticks: the median, over the idle row's runs of that many consecutive ticks
 * (half overlapping), of each run's longest; the whole row's longest when it has no more ticks than that. The longest
 * of 2,000 ticks is longer than the longest of 400 on the same host by chance alone (a busy host's rare 50-60 ms
 * wait), so a 40 s row held against an 8 s idle row read as the job's doing (figure 17).
 */
export function sameLengthLongest(idle: readonly number[], ticks: number): number {
  if (ticks >= idle.length) return max(idle);
  const longest: number[] = [];
  const step = Math.max(1, Math.floor(ticks / 2));
  for (let start = 0; start + ticks <= idle.length; start += step) longest.push(max(idle.slice(start, start + ticks)));
  return percentile(longest, 50);
}
