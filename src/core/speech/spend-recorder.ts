// Where every answer to a part is written down: a fetched part as a spend, a part served from the cache or from
// another request's fetch as a saving, a charged request whose audio never came as an undelivered spend. Each once.
import { UndeliveredError, type UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { Charge } from '../quota/charge.ts';
import type { SpendEndpoint } from '../store/types.ts';
import { countCharacters } from './split-text.ts';

/** What the service said about a paid request, kept with its spend. */
export interface PaidReceipt {
  usage?: UsageInfo | undefined;
  requestId?: string | undefined;
}

export class SpendRecorder {
  readonly #accounting: Accounting | undefined;
  readonly #log: Logger;
  /** Spends being written, so that settled() lets them reach the store before it closes. */
  readonly #writing = new Set<Promise<void>>();

  constructor(accounting: Accounting | undefined, log: Logger) {
    this.#accounting = accounting;
    this.#log = log;
  }

  /** A part served without a call (the cache, or another request's fetch): its characters saved. */
  saved(charge: Charge | undefined, text: string, endpoint: SpendEndpoint): Promise<void> {
    return this.#record(charge, text, { endpoint, characters: countCharacters(text), cached: true });
  }

  /** A part (or a clone) the service charged for and delivered. */
  spent(charge: Charge | undefined, text: string, endpoint: SpendEndpoint, receipt: PaidReceipt): Promise<void> {
    return this.#record(charge, text, {
      endpoint,
      characters: countCharacters(text),
      cached: false,
      usage: receipt.usage,
      requestId: receipt.requestId,
    });
  }

  /**
   * A request the service charged (its 2xx) whose audio or voice ID never arrived: spent all the same, and marked.
   * Recorded without releasing the charge's reservation, which the caller releases as for any failure.
   */
  undelivered(error: unknown, charge: Charge | undefined, endpoint: SpendEndpoint, text: string): void {
    if (!(error instanceof UndeliveredError) || !charge || !this.#accounting) return;
    const spend = {
      endpoint,
      characters: countCharacters(text),
      cached: false,
      undelivered: true,
      usage: error.usage,
      requestId: error.requestId,
    };
    this.#log.warn(
      {
        code: 'api-undelivered',
        ...charge.context,
        endpoint,
        characters: spend.characters,
        requestId: error.requestId,
      },
      'charged by the Voice API but not delivered: recorded as spent',
    );
    void this.#track(
      this.#accounting
        .record(charge.context, spend)
        .catch((e: unknown) => this.#log.error({ err: e, ...charge.context }, 'could not record a spend')),
    );
  }

  /** Resolves once every spend being written has reached the store (or failed, logged). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#writing]);
  }

  #record(charge: Charge | undefined, text: string, spend: Parameters<Charge['record']>[1]): Promise<void> {
    if (!charge || !this.#accounting) {
      charge?.release(text);
      return Promise.resolve();
    }
    return this.#track(
      charge
        .record(text, spend)
        .catch((error: unknown) => this.#log.error({ err: error, ...charge.context }, 'could not record a spend')),
    );
  }

  #track(task: Promise<void>): Promise<void> {
    this.#writing.add(task);
    void task.finally(() => this.#writing.delete(task));
    return task;
  }
}
