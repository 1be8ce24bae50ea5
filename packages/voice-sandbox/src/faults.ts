export type Endpoint = 'tts' | 'emotion-tts' | 'voice-clone';

export const ENDPOINT_PATHS: ReadonlyMap<string, Endpoint> = new Map([
  ['/v1/tts', 'tts'],
  ['/v1/emotion-tts', 'emotion-tts'],
  ['/v1/voice-clone', 'voice-clone'],
]);

/**
 * A failure the next matching request(s) meet instead of (or on top of) the normal response.
 * `response` replaces the response: any status, body and headers (an HTML 500, a 503 with Retry-After, a 200
 * whose body is JSON, an empty 502...); none of the service's headers (its usage figures, its X-Request-Id) is
 * added, as a gateway answering in its place would not have them; nothing is billed but for a 2xx, which comes only
 * once the service accepted the request (billed as every 2xx is). `service-error` is the service's own error answer, billing nothing. The
 * others act on the normal response: the request is authenticated,
 * validated and billed as usual once its 2xx status goes out (as the service bills at acceptance), and a clone
 * keeps its voice, whatever then happens to the body.
 */
export type Fault = {
  /** Only requests to this endpoint meet the fault; default: any of the three. */
  endpoint?: Endpoint;
  /** How many matching requests meet it; default 1. `Infinity` keeps it until clearFaults(). */
  times?: number;
} & (
  | {
      kind: 'response';
      status: number;
      body?: string | Uint8Array;
      contentType?: string;
      headers?: Readonly<Record<string, string>>;
    }
  /**
   * The service's own error answer (its JSON error shape, or what the `errorBody` variant says, with its usage
   * headers and its request ID): it refused or failed the request itself, before anything was made, and billed
   * nothing. A 500 or 503 the service answers itself, as opposed to `response`, a gateway's. `body` (with
   * `contentType`): its answer in another shape than its usual JSON (`{"detail": …}`, a page, an echo of the text).
   */
  | {
      kind: 'service-error';
      status: number;
      message?: string;
      body?: string;
      contentType?: string;
      headers?: Readonly<Record<string, string>>;
    }
  /**
   * The request is accepted and billed (a clone's voice made), then a gateway in front of the service answers in its
   * place: `status` (default 504) with an HTML page of its own (or `body`), no usage headers. The charge is the
   * service's; all the client sees is a proxy's error, as when the service answered the proxy too late. With
   * `serviceHeaders`, the proxy forwards the service's headers (its X-Request-Id, its usage figures after the charge)
   * onto its own answer; `headers` are added (a `Retry-After`).
   */
  | {
      kind: 'gateway-after-charge';
      status?: number;
      body?: string;
      contentType?: string;
      serviceHeaders?: boolean;
      headers?: Readonly<Record<string, string>>;
    }
  /** A successful voice clone without the X-Voice-Id header. */
  | { kind: 'clone-without-voice-id' }
  /** Headers (and everything after) come this much later than they would. */
  | { kind: 'slow-headers'; headersDelayMs: number }
  /** The connection is reset (socket.destroy()) once this many body bytes have been sent. */
  | { kind: 'reset-after'; bytes: number }
  /** Nothing more is sent once this many body bytes have been sent; the socket stays open. */
  | { kind: 'stall-after'; bytes: number }
  /**
   * The body pauses once this many bytes have been sent (the record's outcome says 'paused' meanwhile) and goes on
   * when the test calls resumePaused(): a point in a paid body a test can act at, by an event rather than a timer.
   * With `then: 'reset'`, resumePaused() resets the connection there instead: a cut at a byte the test chose, at an
   * instant it chose.
   */
  | { kind: 'pause-after'; bytes: number; then?: 'reset' }
  /**
   * The request is accepted and billed, then its 2xx status is held back (the record's outcome says 'held'
   * meanwhile) until the test calls resumePaused(): the instant between the service's charge and its answer
   * reaching the client, which a test acts at by an event rather than a timer. With `then: 'reset'`, resumePaused()
   * resets the connection there instead: charged, and no answer ever sent (a reset-after-charge at an instant the test
   * chose).
   */
  | { kind: 'hold-after-charge'; then?: 'reset' }
  /**
   * The request has reached the service and waits there, neither accepted nor billed yet (the record's outcome says
   * 'waiting' meanwhile), until the test calls resumePaused(): then it is billed and answered as usual. The instant a
   * request is in flight and not yet charged, which a test acts at by an event rather than a timer.
   */
  | { kind: 'hold-before-charge' }
  /**
   * The request is accepted and billed, then the connection is reset before its status goes out: the service has
   * charged, and all the client sees is a connection that broke after its request was sent, as with a proxy or a
   * network that drops the answer.
   */
  | { kind: 'reset-after-charge' }
  /** The socket is closed before any response. */
  | { kind: 'close-before-response' }
  /**
   * The audio never ends: after the whole body, silence (zero bytes) follows for as long as the client reads,
   * as fast as it reads, without Content-Length (a service fault, a proxy looping). Ends when the client goes.
   */
  | { kind: 'endless-body' }
);

export type FaultKind = Fault['kind'];

function check(fault: Fault): void {
  const times = fault.times ?? 1;
  if (!(times >= 1) || (Number.isFinite(times) && !Number.isInteger(times))) {
    throw new RangeError('fault.times must be a whole number >= 1 or Infinity');
  }
  if (fault.endpoint !== undefined && ![...ENDPOINT_PATHS.values()].includes(fault.endpoint)) {
    throw new RangeError(`unknown endpoint: ${String(fault.endpoint)}`);
  }
  const nonNegative = (value: number, name: string) => {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`fault.${name} must be a number >= 0`);
  };
  switch (fault.kind) {
    case 'response':
      if (!Number.isInteger(fault.status) || fault.status < 200 || fault.status > 599) {
        throw new RangeError('fault.status must be a status code 200..599');
      }
      break;
    case 'service-error':
      if (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599) {
        throw new RangeError('fault.status must be an error status 400..599');
      }
      break;
    case 'gateway-after-charge':
      if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599)) {
        throw new RangeError('fault.status must be an error status 400..599');
      }
      break;
    case 'slow-headers':
      nonNegative(fault.headersDelayMs, 'headersDelayMs');
      break;
    case 'reset-after':
    case 'stall-after':
    case 'pause-after':
      nonNegative(fault.bytes, 'bytes');
      break;
  }
}

/** Faults in the order they were injected; a request takes the first that matches its endpoint. */
export class FaultQueue {
  readonly #queue: { fault: Fault; left: number }[] = [];

  add(fault: Fault): void {
    check(fault);
    this.#queue.push({ fault, left: fault.times ?? 1 });
  }

  clear(): void {
    this.#queue.length = 0;
  }

  take(endpoint: Endpoint): Fault | undefined {
    const index = this.#queue.findIndex((q) => q.fault.endpoint === undefined || q.fault.endpoint === endpoint);
    const entry = this.#queue[index];
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left <= 0) this.#queue.splice(index, 1);
    return entry.fault;
  }
}
