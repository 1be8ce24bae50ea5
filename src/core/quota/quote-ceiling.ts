// A confirmation keeps its quote: an order confirmed at a price (a scene's "Play it (N characters)") never pays
// more. The pipeline refuses it before anything is held when its parts now cost more (evicted from the cache since
// the preview), and a part counted free at acceptance that must be paid after all is refused at its fetch once it
// would pass what is left of the quote. The front-end shows its preview again with the new price.

import { SpeechInputError } from '../order-errors.ts';

/** An order would pay more than the quote its member confirmed: nothing more is held or paid for it. */
export class QuoteExceededError extends Error {
  /** The characters the member confirmed. */
  readonly quoted: number;

  constructor(quoted: number) {
    super(`the order would pay more than the ${quoted} characters its member confirmed`);
    this.name = 'QuoteExceededError';
    this.quoted = quoted;
  }
}

/**
 * What an order may still pay for parts counted free at acceptance, given the `paid` characters its parts cost now:
 * a cache-only replay nothing (refused with `not-cached` if anything now costs), a confirmed scene what is left of its
 * quote (refused with QuoteExceededError if it now costs more); undefined for an order held to no ceiling. The one
 * place the ceiling is decided, for the pipeline at acceptance and for the part source at a late part's fetch.
 */
export function quoteAllowance(
  order: { readonly quoted?: number | undefined; readonly cachedOnly?: boolean | undefined },
  paid: number,
): QuoteAllowance | undefined {
  const notCached = () => new SpeechInputError({ code: 'not-cached' });
  if (order.cachedOnly === true) {
    if (paid > 0) throw notCached();
    return new QuoteAllowance(0, notCached);
  }
  const { quoted } = order;
  if (quoted === undefined) return undefined;
  if (paid > quoted) throw new QuoteExceededError(quoted);
  return new QuoteAllowance(quoted - paid, () => new QuoteExceededError(quoted));
}

/** Characters still payable under a quote, taken by each part paid late; refused past it. */
export class QuoteAllowance {
  #left: number;
  readonly #refusal: () => Error;

  constructor(left: number, refusal: () => Error) {
    this.#left = left;
    this.#refusal = refusal;
  }

  /** Takes `characters` from what is left, or throws the allowance's refusal (nothing is taken then). */
  take(characters: number): void {
    if (characters > this.#left) throw this.#refusal();
    this.#left -= characters;
  }
}
