// Where every answer to a part is written down: a part the service accepted as a spend written ahead, before its
// body is read, then settled as delivered or undelivered; a part served from the cache or from another request's
// fetch as a saving. Each once.
import type { Acceptance } from '../api/client.ts';
import type { Logger } from '../log.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { Charge } from '../quota/charge.ts';
import type { LedgerEntry } from '../quota/spend-ledger.ts';
import type { SpendEndpoint } from '../store/types.ts';
import { countCharacters } from './split-text.ts';

/** A paid part written ahead: settle it once its body is over. */
export interface AcceptedSpend {
  readonly charge: Charge;
  readonly entry: LedgerEntry;
  readonly endpoint: SpendEndpoint;
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
   * The service accepted a paid request (its 2xx status; it has charged it): written ahead, before its body is
   * read, and resolved once it is on the books. The caller releases the part's reservation as for any part that
   * will spend nothing more, and settles what this returns once the body is over.
   */
  async accepted(
    charge: Charge | undefined,
    text: string,
    endpoint: SpendEndpoint,
    acceptance: Acceptance,
  ): Promise<AcceptedSpend | undefined> {
    if (!charge || !this.#accounting) return undefined;
    const spend = {
      endpoint,
      characters: countCharacters(text),
      cached: false,
      usage: acceptance.usage,
      requestId: acceptance.requestId,
    };
    const written = charge.accepted(spend).then(
      (entry) => ({ charge, entry, endpoint }),
      (error: unknown) => {
        this.#log.error({ err: error, ...charge.context }, 'could not record a spend');
        return undefined;
      },
    );
    return this.#track(written);
  }

  /**
   * A part written ahead is over: its audio (or voice ID) arrived, or it never will (`error`: the body broke before
   * its audio could be used, or went past what its text can take). Spent either way; settled once.
   */
  settle(accepted: AcceptedSpend | undefined, outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void> {
    if (accepted === undefined) return Promise.resolve();
    const { charge, entry, endpoint } = accepted;
    if (outcome === 'undelivered')
      this.#log.warn(
        {
          code: 'api-undelivered',
          ...charge.context,
          endpoint,
          characters: entry.spend.characters,
          requestId: entry.spend.requestId,
          error: error instanceof Error ? error.name : undefined,
        },
        'charged by the Voice API but not delivered: recorded as spent',
      );
    return this.#track(charge.settle(entry, outcome));
  }

  /** Resolves once every spend being written has reached the store (or failed, logged). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#writing]);
  }

  #track<T>(task: Promise<T>): Promise<T> {
    this.#writing.add(task);
    void task.finally(() => this.#writing.delete(task));
    return task;
  }
}
