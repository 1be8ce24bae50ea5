// What a double received, newest last, kept to a bound (a flood in a benchmark must not grow it): enough for a test
// to say "the engine received nothing" or count the calls of one kind. No text and no Authorization header is kept.
import type { IncomingMessage } from 'node:http';
import type { FaultName } from './faults.ts';

export interface DoubleRequest {
  readonly method: string;
  /** The path without its query. */
  readonly path: string;
  /** VOICEVOX: the `speaker` query parameter (a style ID) when it is a whole number. */
  speaker?: number;
  /** Speech server: the `voice` of the body. */
  voice?: string;
  /** Speech server: the `model` of the body. */
  model?: string;
  /** Speech server: the `response_format` asked (absent when none was). */
  format?: string;
  /**
   * What there was to speak: characters (code points) of VOICEVOX's /audio_query `text` and of the speech server's
   * `input`; the moras of a /synthesis query (the double makes one a character).
   */
  inputLength?: number;
  /** The request's headers but Authorization (each value cut to 200 characters, at most 40 of them). */
  readonly headers: Readonly<Record<string, string>>;
  /** Whether an Authorization header came (its value is never kept). */
  readonly hadAuthorization: boolean;
  /** The fault the request met, if any. */
  fault?: FaultName;
  /** The status sent; absent while pending, and for a connection closed without an answer (`down`). */
  status?: number;
  /** The client closed the connection before the answer was sent whole (a request let go of while it rendered). */
  closed?: true;
  /** Body bytes sent (an `endless` or `huge` body as far as the client read it). */
  bodyBytes: number;
  /** Epoch milliseconds. */
  readonly at: number;
}

const MOST_HEADERS = 40;
const LONGEST_VALUE = 200;

export class RequestLog {
  readonly #records: DoubleRequest[] = [];
  readonly #most: number;
  #total = 0;

  constructor(most: number) {
    this.#most = most;
  }

  /** A new record for a request, kept (the oldest dropped past the bound). */
  add(req: IncomingMessage, path: string): DoubleRequest {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers).slice(0, MOST_HEADERS)) {
      if (name === 'authorization' || value === undefined) continue;
      headers[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, LONGEST_VALUE);
    }
    const record: DoubleRequest = {
      method: req.method ?? 'GET',
      path: path.slice(0, LONGEST_VALUE),
      headers,
      hadAuthorization: req.headers.authorization !== undefined,
      bodyBytes: 0,
      at: Date.now(),
    };
    this.#records.push(record);
    if (this.#records.length > this.#most) this.#records.splice(0, this.#records.length - this.#most);
    this.#total += 1;
    return record;
  }

  /** The records kept, oldest first. */
  get all(): readonly DoubleRequest[] {
    return this.#records;
  }

  /** Requests received since the start or the last clear(), kept or not. */
  get total(): number {
    return this.#total;
  }

  clear(): void {
    this.#records.length = 0;
    this.#total = 0;
  }
}
