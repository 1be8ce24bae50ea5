// What the Voice API last said about the key, for the owner: the last 401 (key refused), 429 (rate limited or the
// month used up) and 5xx (the service failing), each with when and for which endpoint. Written where the client reads
// a status (client.ts), so every call of every feature counts; three fixed slots, so it is bounded whatever the
// traffic, and it holds no secret: a status, a time, an endpoint name and the service's request ID.

/** One answer worth the owner's eye. */
export interface KeyAnswer {
  status: number;
  at: Date;
  /** The endpoint: 'tts', 'tts/emotion', 'voices/clone'. */
  operation: string;
  requestId?: string | undefined;
}

/** The last answer of each kind, and the last accepted one; absent: none since start. */
export interface KeyStateSnapshot {
  lastRefused?: KeyAnswer | undefined;
  lastLimited?: KeyAnswer | undefined;
  lastFailed?: KeyAnswer | undefined;
  lastAccepted?: KeyAnswer | undefined;
}

export class KeyState {
  #state: KeyStateSnapshot = {};
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * One HTTP answer's status (0, no answer, is the connection's, not the key's: not kept). `fromService`: the retry
   * rule proves it the service's own (retry.ts: its headers, and for a refusal its error body). A gateway's refusal
   * (an auth proxy's 401, a firewall's 403) or rate limit says nothing of the key or the month, so it is kept as a
   * failure on the way, never as the key refused.
   */
  record(status: number, operation: string, requestId: string | undefined, fromService: boolean): void {
    const answer = (): KeyAnswer => ({ status, at: new Date(this.#now()), operation, requestId });
    if (!fromService && status >= 400) this.#state = { ...this.#state, lastFailed: answer() };
    else if (status === 401) this.#state = { ...this.#state, lastRefused: answer() };
    else if (status === 429) this.#state = { ...this.#state, lastLimited: answer() };
    else if (status >= 500 && status <= 599) this.#state = { ...this.#state, lastFailed: answer() };
    else if (status >= 200 && status < 300) this.#state = { ...this.#state, lastAccepted: answer() };
  }

  get snapshot(): KeyStateSnapshot {
    return this.#state;
  }
}
