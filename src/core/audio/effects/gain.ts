// Volume: a gain in dB then a look-ahead peak limiter, so a louder setting never clips. +6 dB at most (TTS already
// peaks near full scale), -20 dB at least (still heard under other voices). The limiter takes, per sample, the
// smallest gain keeping any sample within LOOKAHEAD_SECONDS under LIMIT, averaged over that span: the bound holds
// exactly and the gain ramps without clicks. Runs in the audio worker.

export const MIN_VOLUME_DB = -20;
export const MAX_VOLUME_DB = 6;

/** The loudest sample let out: -1 dBFS, so rounding to 16 bits and MP3 encoding stay clear of full scale. */
export const LIMIT = 10 ** (-1 / 20);
const LOOKAHEAD_SECONDS = 0.005;

/** `channels` with `gainDb` applied and limited to LIMIT in place (also audio already over it at 0 dB). */
export function applyGain(channels: Float32Array[], sampleRate: number, gainDb: number): Float32Array[] {
  if (!(gainDb >= MIN_VOLUME_DB && gainDb <= MAX_VOLUME_DB))
    throw new RangeError(`volume ${gainDb} dB is outside ${MIN_VOLUME_DB}..${MAX_VOLUME_DB}`);
  const length = channels[0]?.length ?? 0;
  if (length === 0) return channels;
  const gain = 10 ** (gainDb / 20);
  const span = Math.max(1, Math.round(LOOKAHEAD_SECONDS * sampleRate));

  // What each sample needs: 1, or less where the gained sample would pass the limit.
  const need = new Float32Array(length);
  let limited = false;
  for (let i = 0; i < length; i++) {
    let peak = 0;
    for (const channel of channels) peak = Math.max(peak, Math.abs(channel[i] as number));
    const loud = peak * gain;
    need[i] = loud > LIMIT ? LIMIT / loud : 1;
    if (loud > LIMIT) limited = true;
  }
  if (!limited) {
    for (const channel of channels) for (let i = 0; i < length; i++) channel[i] = (channel[i] as number) * gain;
    return channels;
  }
  const least = slidingMin(need, span);
  // Running sums for the average of `least` over [i - span, i + span].
  const sums = new Float64Array(length + 1);
  for (let i = 0; i < length; i++) sums[i + 1] = (sums[i] as number) + (least[i] as number);
  for (let i = 0; i < length; i++) {
    const from = Math.max(0, i - span);
    const to = Math.min(length, i + span + 1);
    // Rounding in the average may land a hair above `need`: never let it.
    const smooth = Math.min(((sums[to] as number) - (sums[from] as number)) / (to - from), need[i] as number);
    const g = gain * smooth;
    for (const channel of channels) channel[i] = (channel[i] as number) * g;
  }
  return channels;
}

/** For each i, the smallest value within [i - span, i + span] (a monotonic queue: linear time). */
function slidingMin(values: Float32Array, span: number): Float32Array {
  const out = new Float32Array(values.length);
  const queue = new Int32Array(values.length);
  let head = 0;
  let tail = 0;
  let next = 0;
  for (let i = 0; i < values.length; i++) {
    const right = Math.min(values.length - 1, i + span);
    for (; next <= right; next++) {
      while (tail > head && (values[queue[tail - 1] as number] as number) >= (values[next] as number)) tail--;
      queue[tail++] = next;
    }
    while ((queue[head] as number) < i - span) head++;
    out[i] = values[queue[head] as number] as number;
  }
  return out;
}
