// One fault at a time, set by a test (`double.faults.set(...)`) or over HTTP (POST /__double/fault), for every request
// or the next `times`, optionally only on one path. The names are the same for both doubles.

/**
 * - `down`: every connection is closed at once, no answer;
 * - `slow:<ms>`: the usual answer, after that delay (or sooner, at the double's `hurry()`);
 * - `paced:<percent>`: the usual audio, sent as it would be played at that percent of real time (100: real time, 50:
 *   half as fast), 100 ms of audio a piece;
 * - `html-error`: 502 with a reverse proxy's HTML page;
 * - `status:<code>`: that status (400..599) in the API's own error shape;
 * - `not-audio`: 200 with a JSON body where audio was asked;
 * - `wrong-format`: 200 audio of another format under the asked one's Content-Type (MP3 bytes labelled WAV, or WAV
 *   labelled MP3);
 * - `wrong-rate`: 200 audio in the asked format at another sample rate (16 kHz where 24 kHz was asked);
 * - `endless`: 200 with an audio Content-Type, a WAV header, then silence trickling forever;
 * - `huge`: 200 with a valid WAV declaring 200 MB, streamed as fast as the client reads;
 * - `truncated`: 200, the usual WAV (its header declaring all its samples) ending half-way, with no Content-Length;
 * - `empty`: 200 with the audio Content-Type and no audio: a whole WAV header declaring no samples (no bytes for MP3 or
 *   PCM);
 * - `none`: no fault.
 * The audio faults (not-audio, wrong-format, wrong-rate, endless, huge, empty) meet only requests for audio; the others meet
 * every request but the double's own (/__double/...).
 */
export type FaultName =
  | 'down'
  | `slow:${number}`
  | `paced:${number}`
  | 'html-error'
  | `status:${number}`
  | 'not-audio'
  | 'wrong-format'
  | 'wrong-rate'
  | 'endless'
  | 'huge'
  | 'truncated'
  | 'empty'
  | 'none';

export const FAULT_NAMES: readonly string[] = [
  'down',
  'slow:<ms>',
  'paced:<percent>',
  'html-error',
  'status:<code>',
  'not-audio',
  'wrong-format',
  'wrong-rate',
  'endless',
  'huge',
  'truncated',
  'empty',
  'none',
];

export type Fault =
  | { kind: 'down' }
  | { kind: 'slow'; ms: number }
  | { kind: 'paced'; percent: number }
  | { kind: 'html-error' }
  | { kind: 'status'; status: number }
  | { kind: 'not-audio' }
  | { kind: 'wrong-format' }
  | { kind: 'wrong-rate' }
  | { kind: 'endless' }
  | { kind: 'huge' }
  | { kind: 'truncated' }
  | { kind: 'empty' };

const AUDIO_FAULTS: ReadonlySet<Fault['kind']> = new Set([
  'paced',
  'not-audio',
  'wrong-format',
  'wrong-rate',
  'endless',
  'huge',
  'truncated',
  'empty',
]);
/** Longest `slow:` delay: a bound, as every wait has one. */
export const MOST_SLOW_MS = 600_000;

export interface FaultSetting {
  fault: FaultName | string;
  /** Requests it meets before it clears itself; default every request until another is set. */
  times?: number;
  /** Only requests to this path (`/synthesis`, `/v1/audio/speech`); default every path. */
  path?: string;
}

export interface CurrentFault {
  readonly fault: FaultName;
  /** Requests it will still meet; null for every one. */
  readonly left: number | null;
  readonly path: string | null;
}

/** The fault a name gives; throws RangeError for a name out of FAULT_NAMES. */
export function parseFault(name: string): Fault | undefined {
  const [head, arg, ...rest] = name.split(':');
  const number = arg === undefined || rest.length > 0 || !/^\d+$/.test(arg) ? undefined : Number(arg);
  switch (head) {
    case 'none':
      if (arg === undefined) return undefined;
      break;
    case 'down':
    case 'html-error':
    case 'not-audio':
    case 'wrong-format':
    case 'wrong-rate':
    case 'endless':
    case 'huge':
    case 'truncated':
    case 'empty':
      if (arg === undefined) return { kind: head };
      break;
    case 'slow':
      if (number !== undefined && number <= MOST_SLOW_MS) return { kind: 'slow', ms: number };
      throw new RangeError(`slow:<ms> takes a whole number of milliseconds from 0 to ${MOST_SLOW_MS}`);
    case 'paced':
      if (number !== undefined && number >= 1 && number <= 10_000) return { kind: 'paced', percent: number };
      throw new RangeError('paced:<percent> takes a whole percent of real time from 1 to 10000');
    case 'status':
      if (number !== undefined && number >= 400 && number <= 599) return { kind: 'status', status: number };
      throw new RangeError('status:<code> takes an error status from 400 to 599');
  }
  throw new RangeError(`unknown fault ${JSON.stringify(name.slice(0, 50))}; one of ${FAULT_NAMES.join(', ')}`);
}

export function isAudioFault(fault: Fault): boolean {
  return AUDIO_FAULTS.has(fault.kind);
}

/** The double's one fault: what a request meets, counted down when `times` was given. */
export class FaultSwitch {
  #fault: Fault | undefined;
  #name: FaultName = 'none';
  #left = Infinity;
  #path: string | undefined;

  /** Sets the fault (a name alone for every request), replacing the one before; 'none' clears it. */
  set(setting: FaultSetting | FaultName | string): CurrentFault {
    const { fault: name, times, path } = typeof setting === 'string' ? { fault: setting } : setting;
    if (typeof name !== 'string') throw new RangeError('fault must be a string');
    if (times !== undefined && times !== null && !(Number.isInteger(times) && times >= 1)) {
      throw new RangeError('times must be a whole number from 1');
    }
    if (
      path !== undefined &&
      path !== null &&
      (typeof path !== 'string' || !path.startsWith('/') || path.length > 200)
    ) {
      throw new RangeError('path must be a path starting with /');
    }
    const fault = parseFault(name);
    this.#fault = fault;
    this.#name = fault === undefined ? 'none' : (name as FaultName);
    this.#left = times ?? Infinity;
    this.#path = path ?? undefined;
    return this.current;
  }

  clear(): void {
    this.set('none');
  }

  get current(): CurrentFault {
    return {
      fault: this.#name,
      left: this.#fault === undefined ? 0 : Number.isFinite(this.#left) ? this.#left : null,
      path: this.#path ?? null,
    };
  }

  /** The fault a request to `path` meets (counting it), with its name; audio faults meet audio requests only. */
  take(path: string, audio: boolean): { fault: Fault; name: FaultName } | undefined {
    const fault = this.#fault;
    const name = this.#name;
    if (fault === undefined) return undefined;
    if (this.#path !== undefined && this.#path !== path) return undefined;
    if (isAudioFault(fault) && !audio) return undefined;
    this.#left -= 1;
    if (this.#left <= 0) this.clear();
    return { fault, name };
  }
}
