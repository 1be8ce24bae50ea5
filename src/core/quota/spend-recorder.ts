// Where every answer to a part is written down: a paid part as a spend written ahead, before its first byte leaves,
// then confirmed by the service's acceptance (and settled as delivered or undelivered), taken back on a definite
// "not charged", or left spent when no answer came; a part served from the cache or from another request's fetch as
// a saving. Each once.
import type { Acceptance, CallOptions } from '../api/client.ts';
import type { Logger } from '../log.ts';
import type { Accounting } from './accounting.ts';
import type { Charge } from './charge.ts';
import type { LedgerEntry } from './spend-ledger.ts';
import type { SpendEndpoint } from '../store/types.ts';
import { AbortedError } from '../api/errors.ts';
import { countCharacters } from '../characters.ts';

/** The books' side of one paid call: the client's hooks, then how the call ended. */
export interface PaidCall {
  /** For the client (CallOptions): written before the first byte leaves, then accepted, or taken back. */
  readonly hooks: Pick<CallOptions, 'sending' | 'accepted' | 'unaccepted'>;
  /**
   * The call is over once its audio (or voice ID) arrived, or it never will (`error`: the body broke before its
   * audio could be used, or went past what its text can take). A call the service accepted is spent either way,
   * settled once; one it never accepted was settled by the `unaccepted` hook already.
   */
  settle(outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void>;
}

/** What a part's request ends with when nobody waits for it any more before it leaves: nothing sent, nothing paid. */
export function unwanted(): AbortedError {
  return new AbortedError('nobody waits for this part any more: its request was not sent');
}

export class SpendRecorder {
  readonly #accounting: Accounting | undefined;
  readonly #log: Logger;
  /** Spends being written, so that settled() lets them reach the store before it closes. */
  readonly #writing = new Set<Promise<unknown>>();

  constructor(accounting: Accounting | undefined, log: Logger) {
    this.#accounting = accounting;
    this.#log = log;
  }

  /** A part served without a call (the cache, or another request's fetch): its characters saved. */
  saved(charge: Charge | undefined, text: string, endpoint: SpendEndpoint): Promise<void> {
    if (!charge || !this.#accounting) {
      charge?.release(text);
      return Promise.resolve();
    }
    const spend = { endpoint, characters: countCharacters(text), cached: true };
    return this.#track(
      charge
        .record(text, spend)
        .catch((error: unknown) => this.#log.error({ err: error, ...charge.context }, 'could not record a spend')),
    );
  }

  /**
   * A paid call about to be made for `text` under `charge`: written ahead before its first byte leaves (a Refusal,
   * and nothing sent, when the books cannot take it), spent from then on; the service's acceptance confirms it, a
   * definite "not charged" takes it back, and a call with no answer stays spent, unconfirmed (it may have been
   * charged). Retried attempts are one call: written once. `wanted` is asked before it is written and again once it
   * is, the last instant before it is handed to the client: nobody waits for it any more, it is not sent (taken
   * back if written). One let go of after that while its connection opens leaves no byte either: the client answers
   * "not charged" (src/core/api/call.ts) and it is taken back. A call closed after it left because nobody
   * waited (the client's CallControl `letGo`) stays spent, as it may have been charged: never taken back, never sent
   * again.
   */
  paid(charge: Charge | undefined, text: string, endpoint: SpendEndpoint, wanted = () => true): PaidCall {
    const stillWanted = () => {
      if (!wanted()) throw unwanted();
    };
    if (!charge || !this.#accounting)
      return { hooks: { sending: () => Promise.resolve().then(stillWanted) }, settle: () => Promise.resolve() };
    const characters = countCharacters(text);
    let entry: LedgerEntry | undefined;
    let accepted: Acceptance | undefined;
    const context = { ...charge.context, endpoint, characters };
    const hooks: PaidCall['hooks'] = {
      sending: async () => {
        stillWanted();
        const written = await this.#track(charge.sending({ endpoint, characters, cached: false }));
        if (!wanted()) {
          // Let go of while it was written down: taken back, and never sent.
          await this.#track(charge.released(written));
          throw unwanted();
        }
        entry = written;
      },
      accepted: async (acceptance: Acceptance) => {
        accepted = acceptance;
        const { requestId, usage } = acceptance;
        if (entry) await this.#track(charge.accepted(entry, { requestId, usage }));
      },
      unaccepted: async (charged) => {
        if (!entry) return;
        if (charged === 'not-charged') return this.#track(charge.released(entry));
        // Closed by SayBot because nobody waited any more (src/core/sourcing/part-flight.ts Waiters), or cut by the
        // network or a timer:
        // either way the service may have charged it before the connection closed.
        const letGo = !wanted();
        this.#log.warn(
          { code: 'api-unconfirmed', ...context, ...(letGo ? { closed: 'nobody-waits' } : {}) },
          letGo
            ? 'sent to the Voice API and closed before its answer, as nobody waited for it any more: counted as spent, since it may have been charged'
            : 'sent to the Voice API and no answer came: counted as spent, since it may have been charged',
        );
        return this.#track(charge.settle(entry, 'undelivered'));
      },
    };
    const settle = (outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void> => {
      if (!accepted || !entry) return Promise.resolve();
      if (outcome === 'undelivered')
        this.#log.warn(
          {
            code: 'api-undelivered',
            ...context,
            requestId: accepted.requestId,
            error: error instanceof Error ? error.name : undefined,
          },
          'charged by the Voice API but not delivered: recorded as spent',
        );
      return this.#track(charge.settle(entry, outcome));
    };
    return { hooks, settle };
  }

  /** Resolves once every spend being written has reached the store (or failed, logged). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#writing]);
  }

  #track<T>(task: Promise<T>): Promise<T> {
    this.#writing.add(task);
    // Its failure is the caller's (a write ahead the store refused is a refusal); here it only stops being tracked.
    const done = () => this.#writing.delete(task);
    task.then(done, done);
    return task;
  }
}
