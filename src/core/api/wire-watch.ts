// Whether any byte of one attempt's request reached its socket. The question "may this still be sent?" is asked
// before the request is handed to undici, but the connection is opened after that: a request let go of while its
// connection opens (a /stop, its order ended) is dropped by undici before it writes anything. Such an attempt
// cannot have been charged, whatever error undici ends it with; only one whose bytes began to leave may have been.
import { DecoratorHandler, type Dispatcher } from 'undici';

export class WireWatch {
  #left = false;

  /** Whether undici handed any of the request's body to the socket (the headers go with or before it). */
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
