// One client call across its attempts, and whether any byte of an attempt left (WireWatch): what decides whether
// it may have been charged.
import { setTimeout as delay } from 'node:timers/promises';
import { DecoratorHandler, type Dispatcher } from 'undici';
import { AbortedError, TimeoutError, type VoiceApiError } from './errors.ts';

/** Something that carries the audio to the caller and can be cut short (AudioBodyStream). */
export interface Cuttable {
  cut(error: Error): void;
}

/** One call across its attempts: `end()` removes every timer and listener (at the stream's close once handed over). */
export class Call {
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal | undefined;
  readonly #totalMs: number;
  readonly #onEnd: (call: Call) => void;
  #deadline: number;
  #pausedRemaining: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reason: VoiceApiError | undefined;
  #stream: Cuttable | undefined;
  #ended = false;
  /** Charged: whatever cuts the call from here cuts a charged one. */
  #accepted = false;
  /** The attempt under way has its status: it ends by that answer, never cut by a let-go. */
  #answered = false;
  #letGo = false;

  constructor(callerSignal: AbortSignal | undefined, totalMs: number, onEnd: (call: Call) => void) {
    this.#callerSignal = callerSignal;
    this.#totalMs = totalMs;
    this.#deadline = Date.now() + totalMs;
    this.#onEnd = onEnd;
    if (callerSignal?.aborted) {
      this.#onCallerAbort();
      return;
    }
    callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.#arm(totalMs);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      const total = this.#totalMs;
      this.fail(
        new TimeoutError(`The Voice API call did not finish within its total timeout of ${total} ms`, 'total', total),
      );
    }, ms);
  }

  readonly #onCallerAbort = (): void => {
    this.fail(new AbortedError('The Voice API call was aborted by the caller', { cause: this.#callerSignal?.reason }));
  };

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get reason(): VoiceApiError | undefined {
    return this.#reason;
  }

  remainingMs(): number {
    return this.#deadline - Date.now();
  }

  /** The service's 2xx: whatever cuts the call from here says it was charged (retry.ts). */
  accepted(): void {
    this.#accepted = true;
  }

  /** No answer is under way: an attempt begins (nothing of its answer has arrived), or the call waits to retry. */
  unanswered(): void {
    this.#answered = false;
  }

  answered(): void {
    this.#answered = true;
  }

  get letGo(): boolean {
    return this.#letGo;
  }

  /** CallControl `letGo` (client.ts): false only for a call the service accepted, which goes on. */
  letGoOf(): boolean {
    if (this.#accepted) return false;
    this.#letGo = true;
    if (!this.#answered)
      this.fail(
        new AbortedError('nobody waits for the answer any more: the call was closed before the service answered'),
      );
    return true;
  }

  fail(reason: VoiceApiError): void {
    if (this.#reason !== undefined || this.#ended) return;
    this.#reason = this.#accepted ? reason.chargedAs('charged') : reason;
    this.#clearTimer();
    this.#controller.abort(reason);
    this.#stream?.cut(reason);
  }

  check(): void {
    if (this.#reason !== undefined) throw this.#reason;
  }

  async sleep(ms: number): Promise<void> {
    try {
      await delay(ms, undefined, { signal: this.#controller.signal });
    } catch (error) {
      throw this.#reason ?? error;
    }
  }

  /** Audio is now the caller's: the call stays open (abort still applies) until the stream closes. */
  handOver(stream: Cuttable): void {
    this.#stream = stream;
  }

  /** The caller is not reading (back-pressure): that time does not count against the total timeout. */
  pauseClock(): void {
    if (this.#timer === undefined) return;
    this.#pausedRemaining = Math.max(0, this.#deadline - Date.now());
    this.#clearTimer();
  }

  resumeClock(): void {
    const remaining = this.#pausedRemaining;
    if (remaining === undefined || this.#ended || this.#reason !== undefined) return;
    this.#pausedRemaining = undefined;
    this.#deadline = Date.now() + remaining;
    this.#arm(remaining);
  }

  networkDone(): void {
    this.#clearTimer();
    this.#pausedRemaining = undefined;
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#clearTimer();
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#stream = undefined;
    this.#onEnd(this);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

// Whether any byte of an attempt reached its socket: one let go of while its connection opens is dropped by undici
// before it writes anything, and cannot have been charged, whatever error it ends with.
export class WireWatch {
  #left = false;

  get left(): boolean {
    return this.#left;
  }

  /** For `dispatcher.compose(...)`: notes the request's body leaving, and changes nothing else. */
  readonly interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
    dispatch(options, new Noting(handler, () => (this.#left = true)));
}

class Noting extends DecoratorHandler {
  readonly #inner: Dispatcher.DispatchHandlers;
  readonly #leaving: () => void;

  constructor(handler: Dispatcher.DispatchHandlers, leaving: () => void) {
    super(handler);
    this.#inner = handler;
    this.#leaving = leaving;
  }

  onBodySent(chunk: unknown): void {
    this.#leaving();
    (this.#inner.onBodySent as ((chunk: unknown) => void) | undefined)?.(chunk);
  }

  // DecoratorHandler does not pass this one on; undici calls it once the whole request is written.
  onRequestSent(): void {
    this.#leaving();
    (this.#inner as { onRequestSent?: () => void }).onRequestSent?.();
  }
}
