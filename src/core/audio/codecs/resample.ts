// Streaming sample-rate conversion to 48 kHz, mono or interleaved stereo, by cubic (Catmull-Rom) interpolation:
// better than linear for 22-24 kHz TTS. The position is an exact fraction (no drift) and the last three samples carry
// to the next chunk (seamless joins). No anti-alias filter: inputs above 48 kHz alias (rare for speech).

/** Interleaved output (one sample per frame when mono); the view is reused by the next call. */
export type InterleavedStereo = Float32Array;

const HISTORY = 3;

export class StereoResampler {
  readonly inRate: number;
  readonly outRate: number;
  readonly #step: number; // input advance per output sample, in 1/#den units
  readonly #den: number;
  #frac = 0; // fractional read position, in 1/#den units
  #pos = HISTORY; // integer read position in the working buffer (history + chunk)
  #workL: Float32Array = new Float32Array(HISTORY + 4096);
  #workR: Float32Array = new Float32Array(HISTORY + 4096);
  #out: Float32Array = new Float32Array(8192);
  #stereo = false;
  readonly #outChannels: 1 | 2;

  /** `outChannels` 1: mono out (the left input; mix beforehand). 2: stereo out, a mono input copied to both sides. */
  constructor(inRate: number, outRate = 48000, outChannels: 1 | 2 = 2) {
    this.#outChannels = outChannels;
    if (!(inRate > 0) || !(outRate > 0)) throw new RangeError(`bad sample rates ${inRate} -> ${outRate}`);
    const g = gcd(inRate, outRate);
    this.inRate = inRate;
    this.outRate = outRate;
    this.#step = inRate / g;
    this.#den = outRate / g;
  }

  /** Resamples `length` samples (right undefined: mono); returns interleaved output. */
  process(left: Float32Array, right: Float32Array | undefined, length: number): InterleavedStereo {
    const total = HISTORY + length;
    if (this.#workL.length < total) {
      this.#workL = grow(this.#workL, total);
      this.#workR = grow(this.#workR, total);
    }
    const wl = this.#workL;
    const wr = this.#workR;
    wl.set(left.subarray(0, length), HISTORY);
    const maxOut = Math.ceil(((length + 1) * this.#den) / this.#step) + 1;
    if (this.#out.length < maxOut * 2) this.#out = new Float32Array(maxOut * 2);
    if (this.#outChannels === 1) return this.#processMono(wl, total, length, this.#out);
    if (right) wr.set(right.subarray(0, length), HISTORY);
    this.#stereo = right !== undefined;
    const out = this.#out;
    const step = this.#step;
    const den = this.#den;
    const wholeStep = Math.floor(step / den);
    const fracStep = step - wholeStep * den;
    let pos = this.#pos;
    let frac = this.#frac;
    let n = 0;
    // An output at pos+t needs samples pos-1 .. pos+2; the last one available is at index total-1.
    while (pos + 2 < total) {
      const t = frac / den;
      const l = cubic(wl[pos - 1] ?? 0, wl[pos] ?? 0, wl[pos + 1] ?? 0, wl[pos + 2] ?? 0, t);
      out[n++] = l;
      out[n++] = right ? cubic(wr[pos - 1] ?? 0, wr[pos] ?? 0, wr[pos + 1] ?? 0, wr[pos + 2] ?? 0, t) : l;
      pos += wholeStep;
      frac += fracStep;
      if (frac >= den) {
        frac -= den;
        pos++;
      }
    }
    // Keep the last HISTORY samples as the start of the next working buffer.
    wl.copyWithin(0, length, total);
    if (right) wr.copyWithin(0, length, total);
    this.#pos = pos - length;
    this.#frac = frac;
    return out.subarray(0, n);
  }

  #processMono(wl: Float32Array, total: number, length: number, out: Float32Array): Float32Array {
    const den = this.#den;
    const wholeStep = Math.floor(this.#step / den);
    const fracStep = this.#step - wholeStep * den;
    let pos = this.#pos;
    let frac = this.#frac;
    let n = 0;
    while (pos + 2 < total) {
      out[n++] = cubic(wl[pos - 1] ?? 0, wl[pos] ?? 0, wl[pos + 1] ?? 0, wl[pos + 2] ?? 0, frac / den);
      pos += wholeStep;
      frac += fracStep;
      if (frac >= den) {
        frac -= den;
        pos++;
      }
    }
    wl.copyWithin(0, length, total);
    this.#pos = pos - length;
    this.#frac = frac;
    return out.subarray(0, n);
  }

  /** The outputs still owed for the input so far (those that needed look-ahead past the last sample). */
  flush(): InterleavedStereo {
    // Two zero samples of look-ahead produce exactly the outputs before the end of the input; see process().
    const zeros = new Float32Array(2);
    return this.process(zeros, this.#stereo ? zeros : undefined, 2);
  }
}

function cubic(xm1: number, x0: number, x1: number, x2: number, t: number): number {
  return x0 + 0.5 * t * (x1 - xm1 + t * (2 * xm1 - 5 * x0 + 4 * x1 - x2 + t * (3 * (x0 - x1) + x2 - xm1)));
}

function grow(buffer: Float32Array, atLeast: number): Float32Array {
  const next = new Float32Array(Math.max(atLeast, buffer.length * 2));
  next.set(buffer.subarray(0, HISTORY));
  return next;
}

export function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
