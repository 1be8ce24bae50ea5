// One paid request, its steps awaited in turn in one function (paidCall): who pays (acceptance's answer, money.ts
// payerOf: the order's charge, or a part counted free then paying on a charge of its own), still
// wanted (its flight's Waiters), the month's rule, written ahead, sent (again only as `resend` says), what it cost
// (chargeOf, decided here alone): confirmed, taken back, or left spent; what a failure says of the month (heard);
// read and handed over; then, as its audio streams, delivered and finished. It writes on the books (src/core/quota/accounting.ts); the client makes one attempt
// per send and only returns what it saw (client.ts `Sent`).
import { finished } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AbortedError,
  ConnectionError,
  OversizedResponseError,
  QuotaExceededError,
  RateLimitedError,
  VoiceApiError,
  type ChargeAnswer,
  type UsageInfo,
} from '../api/errors.ts';
import type { PaidAnswer, PaidRequest, Sent, VoiceApiClient } from '../api/client.ts';
import { accountRefusalProven, retryDelayMs, type RetryPolicy } from '../api/response.ts';
import { monthOf, nextMonthStart } from '../calendar.ts';
import { Refusal } from '../refusal.ts';
import { countCharacters } from '../characters.ts';
import type { SpendOutcome } from '../store/quota-store.ts';
import type { LedgerEntry, QuoteAllowance } from './ledger.ts';
import type { Accounting, Charge, PartNeed } from './accounting.ts';
import { payerOf, tooFewLeft } from './money.ts';
import type { ServiceMonth } from './month.ts';

export type { Charge, PartNeed } from './accounting.ts';

/** What a paid call's payer is found by: its part's key (what a charge reserves) and its text. */
export type PaidPart = Pick<PartNeed, 'key' | 'text'>;

/** What a paid request is paid on: its order's charge, and what parts counted free at acceptance may still cost. */
export interface PayingOrder {
  readonly charge: Charge;
  /** What parts counted free at acceptance may still cost (a scene's quote's rest); absent: the budgets, unbounded. */
  readonly late?: QuoteAllowance | undefined;
}

/** Who waits for a paid call: its flight's Waiters (src/core/sourcing/flights.ts), asked by its steps. */
export type Waiting = { wanted(): boolean; calling(): void; close(): void; readonly letGo?: AbortSignal };

/** Its payer's order let go of it before it left (its hold given back): not sent on it; whoever waits asks anew. */
export class PayerLeftError extends AbortedError {}

/** A part's request nobody waits for any more before it leaves: nothing sent, nothing paid. */
export function unwanted(): AbortedError {
  return new AbortedError('nobody waits for this part any more: its request was not sent');
}

const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/** What a call cost, by what the client saw (Sent): its 2xx charged; an answer nothing only as provably the service's
 * own, its month's use not risen, never a 502 or 504 (which may speak for an upstream that had it); no answer nothing
 * only if it never reached the service. Else maybe charged. Its error marked so (the words, auto-read, the stand-in). */
export function chargeOf(sent: Sent<unknown>): ChargeAnswer {
  if (sent.kind === 'ok') return 'charged';
  const { answer, error } = sent;
  const proven = answer ? answer.proven && !answer.risen && !GATEWAY_STATUSES.has(answer.status) : !sent.reached;
  const charge = proven ? 'not-charged' : 'maybe-charged';
  if (error instanceof VoiceApiError) error.chargedAs(charge);
  return charge;
}

/** The resend rule: a call is sent again only when it provably never left (a ConnectionError that never `reached` the
 * service: refused, unreachable, not connected in time; not the client's closing), `maxRetries` times at most, each
 * after its backoff, within its first send's total timeout (`deadline`: a wait past it only delays the same outcome).
 * Sent twice, paid twice. */
export function resend(sent: Sent<unknown> | undefined, retry: number, policy: RetryPolicy) {
  if (sent?.kind !== 'not-ok' || sent.reached || sent.deadline === undefined || retry > policy.maxRetries) return;
  if (!(sent.error instanceof ConnectionError) || sent.error.code === 'CLIENT_CLOSED') return;
  const delayMs = retryDelayMs(retry, policy);
  return delayMs < sent.deadline - Date.now() ? { retry, delayMs, deadline: sent.deadline } : undefined;
}

// What a failed answer says of the month, the payment's as what it cost is: only the service's own 429 (the retry
// rule proved it: its headers and its JSON error body) leaving none marks the month used up; one leaving too few is
// told (toldOfMonth); any figures of the service's own are kept, and may show a used-up month over; a 2xx ends it (the books).

/** What a failed paid call says of the month, written down (its figures kept; the month marked, or its mark ended). */
async function heard(month: ServiceMonth, error: unknown, characters: number): Promise<void> {
  const figures = serviceFiguresOf(error);
  if (figures !== undefined) await month.keep(figures);
  const said = toldOfMonth(month, error, characters);
  if (said instanceof Refusal) return;
  if (said === error && error instanceof QuotaExceededError && accountRefusalProven(error)) await usedUp(month, error);
  else await figuresSaid(month, figures);
}

/** The service's own 429 for the month: marked used up until its reset date (else the 1st of next month, UTC). */
export async function usedUp(month: ServiceMonth, error: QuotaExceededError): Promise<void> {
  const now = month.now();
  const said = error.rateLimit?.resetAt;
  const { service } = await month.state();
  const limit = error.rateLimit?.limit ?? (service?.month === monthOf(now) ? service.limit : undefined);
  await month.markUsedUp(said !== undefined && said > now ? said : nextMonthStart(now), limit);
}

/** The service's figures (errors' too) end a used-up month when they show characters left or a higher limit. */
export async function figuresSaid(month: ServiceMonth, usage: UsageInfo | undefined): Promise<void> {
  const mark = usage && (await month.state()).exhausted;
  if (!usage || !mark) return;
  if (usage.remaining !== undefined && usage.remaining > 0)
    await month.clear(`the service reports ${usage.remaining} characters left`);
  else if (usage.limit !== undefined && mark.limit !== undefined && usage.limit > mark.limit)
    await month.clear(`the service reports a higher monthly limit (${usage.limit}, was ${mark.limit})`);
}

/** What the caller of a failed paid call is told: the service's own 429 as its figure says (monthAnswer); else as it is. */
function toldOfMonth(month: ServiceMonth, error: unknown, characters: number): unknown {
  const proven = error instanceof QuotaExceededError && accountRefusalProven(error);
  return proven ? monthAnswer(error, characters, month.now()) : error;
}

/** The usage figures of a failed call, when the answer is provably the service's own (response.ts' facts); else none. */
function serviceFiguresOf(error: unknown): UsageInfo | undefined {
  if (!(error instanceof VoiceApiError) || error.status === undefined || error.rateLimit === undefined)
    return undefined;
  if (!error.fromService && error.charge !== 'not-charged') return undefined;
  const { retryAfterSeconds: _, ...usage } = error.rateLimit;
  return Object.keys(usage).length === 0 ? undefined : usage;
}

/**
 * What the service's own 429 says to a call of `characters`, by the figure in that same answer: none left (or none
 * sent), the month used up (the error itself); some, too few for it (the refusal with the figure); enough, a refusal
 * for now, not for the month: told as busy, nothing charged (a RateLimitedError of the same answer).
 */
export function monthAnswer(error: QuotaExceededError, characters: number, at: Date): VoiceApiError | Refusal {
  const { remaining: left, resetAt } = error.rateLimit ?? {};
  if (left === undefined || left === 0) return error;
  if (left < characters) return tooFewLeft({ left, resetAt }, characters, at, error);
  const { status, requestId, serviceMessage, rateLimit, fromService } = error;
  const details = { status, requestId, serviceMessage, rateLimit, fromService, cause: error };
  return new RateLimitedError(`The Voice API refused for now, ${left} characters left by its figure`, {
    ...details,
    charge: 'not-charged',
  });
}

/** What a paid call goes through: the books it is written in, the client that sends it, what abandons it (shutdown). */
export interface PaidCalls {
  books: Accounting;
  client: Pick<VoiceApiClient, 'send' | 'retry'>;
  signal?: AbortSignal | undefined;
}

// One paid call's steps in turn: who pays; still wanted; the month's rule; written ahead (no instant after it
// leaves, a crash included, finds it off the books), or not sent; still wanted; sent, again while `resend` says (one
// call written once); what it cost (chargeOf): charged, confirmed before its body is read; not charged, taken back;
// maybe charged, left spent; read. Its answer is its caller's then, with `done`: delivered or cut, finished.
export async function paidCall<R extends PaidRequest>(
  { books, client, signal }: PaidCalls,
  request: R,
  part: PaidPart,
  order: PayingOrder | undefined,
  waiting: Waiting,
): Promise<{ answer: PaidAnswer<R>; done: Promise<void> }> {
  const { endpoint } = request;
  const characters = countCharacters(part.text);
  let payer: Charge | undefined;
  let probe: string | undefined;
  let entry: LedgerEntry | undefined;
  let ok = false;
  let answer: PaidAnswer<R>;
  try {
    payer = await payerOf(books, order, endpoint, part);
    if (!waiting.wanted()) throw unwanted();
    // The month's rule (money.ts' probeFor, by the books' deadline): let through; refused while another request finds
    // out whether characters are back; or the one that goes to find out, its probe its own until answered. Refused: unsent.
    if (payer !== undefined) probe = await books.monthProbe(payer, characters);
    // Written ahead: spent from now on, whatever instant the process dies; refused or not written, not sent.
    if (payer !== undefined) entry = await books.writeAhead(payer, { endpoint, characters, cached: false });
    // Its order let go of it (a stop), its hold maybe gone before the write: what was written counts on no budget.
    const left = payer !== undefined && payer === order?.charge && !payer.reserves(part.key);
    const wanted = !left && waiting.wanted();
    if (wanted) waiting.calling();
    let sent = wanted ? await client.send(request, { signal, letGo: waiting.letGo }) : undefined;
    // Sent again only as the resend rule says (it never left), after its backoff, which shutdown or a let-go cut short
    // (the send after it then ends at once, unsent).
    for (let retry = 1; ; retry += 1) {
      const again = resend(sent, retry, client.retry);
      if (again === undefined) break;
      const stop = AbortSignal.any([signal, waiting.letGo].filter((s) => s !== undefined));
      await delay(again.delayMs, undefined, { signal: stop }).catch(() => undefined);
      sent = await client.send(request, { signal, letGo: waiting.letGo, resend: again });
    }
    // What it cost: never sent (let go of while it was written down) nothing.
    const charge = sent === undefined ? 'not-charged' : chargeOf(sent);
    if (sent?.kind !== 'ok') {
      // Not charged: taken back; maybe charged: left spent.
      if (payer !== undefined && entry !== undefined)
        await (charge === 'not-charged'
          ? books.takeBack(payer, entry)
          : books.leaveSpent(payer, entry, !waiting.wanted()));
      if (left) throw new PayerLeftError('its order let go of it as it was written ahead: not sent on its books');
      if (sent === undefined) throw unwanted();
      // What its failure says of the month written down; then its caller told (a 429 by its own figure).
      await heard(books.month, sent.error, characters);
      throw toldOfMonth(books.month, sent.error, characters);
    }
    ok = true;
    waiting.close();
    if (payer !== undefined && entry !== undefined) await books.confirm(payer, entry, sent.answer);
    // What breaks it off past its 2xx was charged (chargeOf: the service took it), whoever meets it.
    answer = await sent
      .read((error) => error.chargedAs(charge))
      .catch(async (error: unknown) => {
        await heard(books.month, error, characters);
        throw toldOfMonth(books.month, error, characters);
      });
    // Its characters are on the books and its answer is here: the part holds nothing more.
    payer?.release(part.key);
  } catch (error) {
    if (ok && payer !== undefined && entry !== undefined) await books.finish(payer, entry, 'undelivered', error);
    if (payer !== order?.charge) payer?.close();
    throw error;
  } finally {
    // Answered, or never sent: the next request may find out whether the month is back.
    if (probe !== undefined && payer !== undefined) books.giveProbeBack(probe, payer.context.guildId);
  }
  return { answer, done: delivered(books, answer, payer, entry, payer !== order?.charge) };
}

// Delivered: an audio answer once its body is over (a bounded wait: the call's total timeout, and the audio its text
// can take), undelivered when it went past that bound and was cut, spent either way; a new voice exists whether or
// not its spoken line arrived (audioLost). Then finished (which never throws), and a late part's own charge closed.
async function delivered(
  books: Accounting,
  answer: PaidAnswer<PaidRequest>,
  payer: Charge | undefined,
  entry: LedgerEntry | undefined,
  late: boolean,
): Promise<void> {
  let outcome: SpendOutcome = 'delivered';
  let cut: unknown;
  if ('body' in answer)
    await finished(answer.body).catch((error: unknown) => {
      cut = error;
      if (error instanceof OversizedResponseError) outcome = 'undelivered';
    });
  if (payer !== undefined && entry !== undefined) await books.finish(payer, entry, outcome, cut);
  if (late) payer?.close();
}
