import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { Accounting, type AccountingOptions } from '../../../src/core/quota/accounting.ts';
import { MONEY_RULES } from '../../../src/core/quota/money.ts';
import type { PartNeed } from '../../../src/core/quota/paid-call.ts';
import type { Charge } from '../../../src/core/quota/paid-call.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import type { Store } from '../../../src/core/store/types.ts';
import type { Waiting } from '../../../src/core/quota/paid-call.ts';

/** A part the Voice API is paid for: `characters` of `text`. */
export const paid = (characters: number, text = `t${characters}`): PartNeed => ({
  text,
  key: text,
  endpoint: 'tts',
  characters,
  free: false,
});

/**
 * The books on `store` under a 300,000-character plan, logging nothing; `options` give the budgets, and may override
 * the rest.
 */
export function booksOn(
  store: Store,
  options: Pick<AccountingOptions, 'budgets'> & Partial<AccountingOptions>,
): Accounting {
  return new Accounting({ store, rules: MONEY_RULES, planCharacterLimit: 300_000, logger: silentLogger, ...options });
}

/**
 * A paid part of `charge` about to leave (paidCall's steps before the call): its month's probe, set when it is the
 * one request finding out whether the month is back (given back once answered), then its spend written ahead.
 */
export async function onItsWay(books: Accounting, charge: Charge, characters: number) {
  const probe = await books.monthProbe(charge, characters);
  return { probe, entry: await books.writeAhead(charge, { endpoint: 'tts', characters, cached: false }) };
}

/** The message key a member reads for the Refusal `promise` is rejected with; anything else fails the test. */
export async function refusalKey(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Refusal)) throw new Error(`expected a Refusal, got ${String(error)}`);
  // The words the member reads: the books say why, the front-end says it.
  return describeFailure(error).message.key;
}

/** A paid call's waiting in these tests: always wanted, nothing to let go of. */
export const waiting: Waiting = { wanted: () => true, calling: () => undefined, close: () => undefined };
