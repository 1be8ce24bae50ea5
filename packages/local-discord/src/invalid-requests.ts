// Discord's invalid request limit: an IP that makes 10,000 requests answered 401, 403 or 429 (bar a 429 of the
// `shared` scope) within 10 minutes is kept out for a while (Cloudflare's ban). It is per IP, so every bot token on
// one host spends the same allowance; here, every client of the local Discord.

const WINDOW_MS = 10 * 60_000;
export const INVALID_REQUEST_LIMIT = 10_000;

export class InvalidRequests {
  readonly #limit: number;
  /** When each invalid request was answered (performance.now()), oldest first: at most `limit` are kept. */
  readonly #times: number[] = [];
  #count = 0;

  constructor(limit: number = INVALID_REQUEST_LIMIT) {
    this.#limit = limit;
  }

  /** Invalid requests answered since the start. */
  get count(): number {
    return this.#count;
  }

  /** Notes an answer's status; counts it when it is one that Discord counts against the IP. */
  note(status: number, scope: string | undefined, now = performance.now()): void {
    if (status !== 401 && status !== 403 && !(status === 429 && scope !== 'shared')) return;
    this.#count++;
    this.#times.push(now);
    if (this.#times.length > this.#limit) this.#times.shift();
  }

  /** Whether the IP is kept out now: `limit` invalid requests within the last 10 minutes. */
  banned(now = performance.now()): boolean {
    const oldest = this.#times[0];
    return this.#times.length >= this.#limit && oldest !== undefined && now - oldest < WINDOW_MS;
  }
}
