// One call to the Voice API across its attempts: its total timeout (paused while its caller does not read), its
// caller's abort and let-go, and what cuts its audio once handed over (Call); and the undici handler that notes when a
// request's body left (Noting), which decides whether a call with no answer may have been charged.
import { setTimeout as delay } from 'node:timers/promises';
import { DecoratorHandler, type Dispatcher } from 'undici';
import { AbortedError, TimeoutError, type VoiceApiError } from './errors.ts';

/** Something that carries the audio to the caller and can be cut short (AudioBodyStream). */
interface Cuttable {
  cut(error: Error): void;
}

/** One call across its attempts: `end()` removes every timer and listener (at the stream's close once handed over). */
export class Call {
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal | undefined;
  #letGoSignal: AbortSignal | undefined;
  readonly #totalMs: number;
  readonly #onEnd: (call: Call) => void;
  #deadline: number;
  #pausedRemaining: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reason: VoiceApiError | undefined;
  #stream: Cuttable | undefined;
  #ended = false;
  /** The service's 2xx: whatever cuts the call from here cuts a charged one (response.ts, the retry rule). */
  accepted = false;
  /** The attempt under way has its status: it ends by that answer, never cut by a let-go. */
  answered = false;
  /** Nobody waits for the answer any more (CallOptions `letGo`): nothing is attempted again. */
  letGo = false;
  /** Audio is the caller's (handOver): the call stays open, abort still applying, until its stream closes. */
  handedOver = false;
  /** Some attempt may have reached the service without its answer reaching us: maybe charged. */
  unheard = false;

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

  /** CallOptions `letGo`: nobody waits any more; a call the service accepted goes on. */
  letGoOn(signal: AbortSignal | undefined): void {
    this.#letGoSignal = signal;
    if (signal?.aborted) this.#onLetGo();
    else signal?.addEventListener('abort', this.#onLetGo, { once: true });
  }

  readonly #onLetGo = (): void => {
    if (this.accepted) return;
    this.letGo = true;
    if (!this.answered)
      this.fail(
        new AbortedError('nobody waits for the answer any more: the call was closed before the service answered'),
      );
  };

  fail(reason: VoiceApiError): void {
    if (this.#reason !== undefined || this.#ended) return;
    this.#reason = this.accepted ? reason.chargedAs('charged') : reason;
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

  handOver(stream: Cuttable): void {
    this.#stream = stream;
    this.handedOver = true;
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
    this.#letGoSignal?.removeEventListener('abort', this.#onLetGo);
    this.#stream = undefined;
    this.#onEnd(this);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** An undici handler that notes the request's body leaving (`leaving`), and changes nothing else. */
export class Noting extends DecoratorHandler {
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
