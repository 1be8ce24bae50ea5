// Money's policy: who pays for each part of an order, or why not. Everything that speaks asks here and nothing else
// decides: the free-request rate, the quote ceiling and cache-only, a refusal for money answered by the free voice's
// version of the order the pipeline hands it, the budgets and the month as the books apply them
// (Accounting, src/core/quota/accounting.ts; their rules at the end: which limits are in force, the cooldown, what the
// service's answers say of the month), and, once the order is delivered, its charge settled and what it paid said with
// its outcome: a refusal (or the service failing) after earlier parts were charged told as PaidPartWayError, audio
// charged then cut (or stalled in voice) as CutAfterPayingError. What may wait is refused first, by capacity
// (src/core/quota/capacity.ts), which costs nothing.
import { isEngineVoice, isFreeVoice } from '../voice-catalogue/voices.ts';
import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  OversizedResponseError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UndeliveredError,
  VoiceApiError,
  type UsageInfo,
} from '../api/errors.ts';
import { Refusal, type RefusalReason } from '../refusal.ts';
import type { SpeechRequest, StandIn } from '../settings/speech-request.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import {
  BUDGET_NAMES,
  type BudgetName,
  type OperatorBudgets,
  type QueueBounds,
  type ServerBudgets,
} from '../config.ts';
import { RenderStoppedError, SpeechInputError } from '../order-errors.ts';
import { AudioStalledError } from '../voice/audio-stalled.ts';
import { countCharacters } from '../characters.ts';
import { QueueBook, type Admission, type VoiceAdmission } from './capacity.ts';
import type { QuoteAllowance, SpendContext } from './ledger.ts';
import type { Charge, PartNeed } from './paid-call.ts';
import type { QuotaState } from '../store/quota-store.ts';
import { monthOf, nextMonthStart } from '../calendar.ts';

/** One line of an order: its request and its text split into parts. */
interface PricedLine {
  readonly request: SpeechRequest;
  readonly texts: readonly string[];
}

/** What the money reads of an order at acceptance. */
interface OrderToPay<Line extends PricedLine> {
  readonly requester: {
    readonly guildId: string;
    readonly userId: string;
    readonly command: string;
    readonly policy: { readonly memberCooldown: boolean; readonly queueBounded: boolean };
  };
  readonly lines: readonly Line[];
  readonly followUp: boolean;
  readonly cachedOnly: boolean;
  readonly quoted: number | undefined;
}

/** What an order costs as the pipeline hands it over: plain values, Money asks nobody for them. */
export interface Priced<Line extends PricedLine> {
  /** Each part's need now (PartSource.needs: nothing when cached or in flight), looked up in the order asked. */
  readonly needs: Promise<readonly PartNeed[]>;
  /** The free voice's version of its lines where one may stand in for it (StandIns.forOrder), spoken for nothing. */
  readonly standIn?: Line[] | undefined;
}

/** An order's money once accepted: its lines as they will be spoken, and what they are held and paid on. */
export interface Accepted<Line extends PricedLine> {
  lines: readonly Line[];
  /** Why the paid voice was refused when the free voice speaks instead. */
  fallback?: Refusal | undefined;
  charge: Charge;
  /** Its place in the queue bounds' figures, given back when it is settled. */
  admission: Admission;
  /** What it may still pay for parts counted free at acceptance (paid-call.ts' payer). */
  late?: QuoteAllowance | undefined;
}

/** What Money asks of the books (Accounting, src/core/quota/accounting.ts): a request checked and held, or not. */
interface Books {
  authorize(context: SpendContext, parts: readonly PartNeed[], policy?: { memberCooldown: boolean }): Promise<Charge>;
  unchecked(context: SpendContext): Charge;
}

interface MoneyOptions {
  accounting: Books;
  queue?: QueueBounds | undefined;
  /** Requests costing no characters one member may make per minute in a server; 0 or absent: no limit. */
  freePerMinute?: number | undefined;
  now?: (() => Date) | undefined;
  /** Counts `lines` a free voice spoke (for /usage), once per cause and speaker an order; absent: not counted. */
  countFreeLines?: ((guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker, lines: number) => void) | undefined;
}

/** The refusals for money, which a free voice may answer for: the month, the bot-wide reserve, a budget. */
const FOR_MONEY: ReadonlySet<RefusalReason['code']> = new Set([
  'budget-member-day',
  'budget-guild-month',
  'budget-bot-month',
  'quota-used-up',
  'quota-too-few-left',
]);

export class Money {
  readonly #accounting: Books;
  readonly #queue: QueueBook;
  readonly #freeRate: FreeRequestRate;
  readonly #countFreeLines: MoneyOptions['countFreeLines'];
  /** The last price lookup: each settles after the one before, so orders are checked in the order asked. */
  #lookups: Promise<unknown> = Promise.resolve();

  constructor(options: MoneyOptions) {
    this.#accounting = options.accounting;
    this.#queue = new QueueBook(options.queue ?? { guildSeconds: 0, guildClips: 0, memberRequests: 0 });
    this.#freeRate = new FreeRequestRate(options.freePerMinute ?? 0, options.now ?? (() => new Date()));
    this.#countFreeLines = options.countFreeLines;
  }

  /** One piece of free work that is not speech (a /usage chart) against the member's free-request rate. */
  takeFreeWork(guildId: string, userId: string): void {
    this.#freeRate.take(guildId, userId);
  }

  /**
   * Who pays for each part of `order`, checked in this order: a full queue (costs nothing to refuse), then the
   * budgets and the month by what its parts cost (`priced`); refused there for money, its free voice's version, where
   * it has one, is spoken at no charge. Throws the refusal otherwise; nothing is held then. `voice`: the clips and
   * seconds it adds to its seat's queue.
   */
  async accept<Line extends PricedLine>(
    order: OrderToPay<Line>,
    voice: VoiceAdmission | undefined,
    priced: Priced<Line>,
  ): Promise<Accepted<Line>> {
    const { requester } = order;
    const needs = this.#inOrder(priced.needs);
    const ready = order.lines.some((line) => line.request.kind === 'ready');
    const admission = this.#queue.admit({
      guildId: requester.guildId,
      userId: requester.userId,
      ...(voice === undefined ? {} : { voice }),
      enforce: QueueBook.enforcementFor({ queueBounded: requester.policy.queueBounded, paid: order.followUp || ready }),
    });
    try {
      // A clone's follow-up line: its characters were checked with the clone; recorded, not checked again.
      if (order.followUp)
        return { lines: order.lines, charge: this.#accounting.unchecked(contextOf(order)), admission };
      try {
        return { lines: order.lines, admission, ...(await this.#authorize(order, await needs)) };
      } catch (refusal) {
        const { standIn } = priced;
        if (!(refusal instanceof Refusal && FOR_MONEY.has(refusal.reason.code)) || standIn === undefined) throw refusal;
        // Its free voice's lines cost nothing. Refused that too (the free-request rate): told of the money, the cause.
        const paid = await this.#authorize(order, []).catch(() => Promise.reject(refusal));
        return { lines: standIn, fallback: refusal, admission, ...paid };
      }
    } catch (error) {
      admission.release();
      throw error;
    }
  }

  /** A /clone's characters, checked and held like any request's (a clone is never cached). */
  authorizeClone(requester: OrderToPay<PricedLine>['requester'], text: string): Promise<Charge> {
    const need: PartNeed = { text, key: text, endpoint: 'voice-clone', characters: countCharacters(text), free: false };
    return this.#accounting.authorize(contextOf({ requester }), [need], requester.policy);
  }

  /** Settled once delivered: charge closed, place given back, outcome told with what it paid; free lines counted. */
  settle<Outcome extends SettledOutcome>(order: DeliveredOrder, delivered: Outcome): Outcome {
    const { charge } = order;
    this.giveBack(order);
    const { paid, written } = charge;
    const result: Outcome =
      delivered.kind === 'failed'
        ? { ...delivered, error: afterPaying(delivered.error, paid, written - paid) }
        : delivered;
    const { standIn, lineCutAt, restFailed } = order;
    const partWay =
      restFailed === undefined || result.kind === 'failed' ? undefined : afterPaying(restFailed, paid, written - paid);
    // An order that ended before its end (or failed, a right taken away, or holds only part): what it spent is said.
    const early = partWay !== undefined || ['stopped', 'skipped', 'cut-off', 'failed'].includes(result.kind);
    const told: Outcome = {
      ...result,
      ...(partWay === undefined ? {} : { partWay }),
      ...(early && written > 0 ? { spent: { paid, delivered: charge.delivered, unconfirmed: written - paid } } : {}),
      ...(standIn === undefined ? {} : { standIn: paid > 0 ? { ...standIn, paidBefore: paid } : standIn }),
      ...(lineCutAt === undefined || result.kind === 'failed' ? {} : { lineCutAt }),
    };
    if (told.kind !== 'failed') this.#countFree(order);
    return told;
  }

  /** What was accepted is over, or its order never took it (a bug past `accept`): charge closed, place given back. */
  giveBack({ charge, admission }: Pick<Accepted<PricedLine>, 'charge' | 'admission'>): void {
    try {
      charge.close();
    } finally {
      admission.release();
    }
  }

  /** The parts' needs checked and held: what is cached or in flight costs nothing. */
  async #authorize(
    order: OrderToPay<PricedLine>,
    needs: readonly PartNeed[],
  ): Promise<{ charge: Charge; late?: QuoteAllowance }> {
    const { requester } = order;
    const paid = needs.reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0);
    // A cache-only replay may cost nothing, a confirmed scene no more than its quote: refused before anything is held.
    const late = quoteAllowance(order, paid);
    // What spends nothing passes no budget, yet may cost a render and a cache entry: rationed per member instead.
    if (requester.policy.queueBounded && needs.every((need) => need.free))
      this.#freeRate.take(requester.guildId, requester.userId);
    const charge = await this.#accounting.authorize(contextOf(order), needs, requester.policy);
    return late === undefined ? { charge } : { charge, late };
  }

  #inOrder<T>(lookup: Promise<T>): Promise<T> {
    const turn = this.#lookups.then(() => lookup);
    this.#lookups = turn.catch(() => undefined);
    return turn;
  }

  // Each line a free voice spoke, chosen or in its place: one count per cause and speaker, as each is a store write (a
  // 60-line scene's, one a line, held the main thread up).
  #countFree(order: DeliveredOrder): void {
    const count = (cause: FreeVoiceCause, voice: string, lines = 1) =>
      this.#countFreeLines?.(order.charge.context.guildId, cause, freeSpeakerOf(voice), lines);
    // A stand-in at acceptance: counted as the voice that spoke it (eSpeak NG where FREE_VOICES' engine voice failed).
    if (order.fallback !== undefined)
      return count('fallback', order.standIn?.voice ?? order.lines[0]?.request.voice ?? '');
    const counted = new Map<string, { cause: FreeVoiceCause; voice: string; lines: number }>();
    for (const { request } of order.lines) {
      const stood = order.stoodIn.get(request);
      // An engine's backup (eSpeak NG for an engine's voice): a free voice chosen all the same, never a stand-in.
      const cause = stood === undefined || stood.cause === 'engine-failed' ? 'chosen' : 'fallback';
      const voice = stood?.voice ?? (request.kind === 'ready' ? '' : request.voice);
      if (stood === undefined && !isFreeVoice(voice)) continue;
      const key = `${cause} ${freeSpeakerOf(voice)}`;
      const line = counted.get(key) ?? { cause, voice, lines: 0 };
      counted.set(key, { ...line, lines: line.lines + 1 });
    }
    for (const { cause, voice, lines } of counted.values()) count(cause, voice, lines);
  }
}

/** What settling reads of a delivered order. */
interface DeliveredOrder {
  readonly charge: Charge;
  readonly admission: Admission;
  readonly lines: readonly PricedLine[];
  readonly fallback: Refusal | undefined;
  readonly standIn: Pick<StandIn, 'voice' | 'cause'> | undefined;
  readonly stoodIn: ReadonlyMap<SpeechRequest, Pick<StandIn, 'voice' | 'cause'>>;
  readonly lineCutAt: number | undefined;
  /** The failure after paid parts that left its file holding only those. */
  readonly restFailed: unknown;
}

/** The outcome's fields settling reads and adds. */
interface SettledOutcome {
  kind: string;
  error?: unknown;
  standIn?: StandIn;
  partWay?: unknown;
  spent?: { paid: number; delivered?: number; unconfirmed?: number };
  lineCutAt?: number;
}

function contextOf(order: { readonly requester: OrderToPay<PricedLine>['requester'] }): SpendContext {
  const { guildId, userId, command } = order.requester;
  return { guildId, userId, command };
}

/** Who speaks a free voice's line: the engine its ID names, else eSpeak NG. */
function freeSpeakerOf(voice: string): FreeSpeaker {
  if (!isEngineVoice(voice)) return 'espeak';
  return voice.startsWith('voicevox:') ? 'voicevox' : 'speech';
}

// A confirmation keeps its quote: an order confirmed at a price (a scene's "Play it (N characters)") never pays more.
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
function quoteAllowance(
  order: { readonly quoted?: number | undefined; readonly cachedOnly?: boolean | undefined },
  paid: number,
): QuoteAllowance | undefined {
  const notCached = () => new SpeechInputError({ code: 'not-cached' });
  if (order.cachedOnly === true) {
    if (paid > 0) throw notCached();
    return quoteLeft(0, notCached);
  }
  const { quoted } = order;
  if (quoted === undefined) return undefined;
  if (paid > quoted) throw new QuoteExceededError(quoted);
  return quoteLeft(quoted - paid, () => new QuoteExceededError(quoted));
}

function quoteLeft(left: number, refusal: () => Error): QuoteAllowance {
  return {
    take: (characters) => {
      if (characters > left) throw refusal();
      left -= characters;
    },
  };
}

// How often one member may ask for what costs no characters: a line in a free voice (eSpeak NG's or an engine's, one
// standing in for the paid voice too), a cache hit, another speed or volume, a replay, a file made into a voice
// message, a scene's preview, a /usage chart. None of it spends, so no budget sees it, yet each may cost a render and a
// cache entry every server shares. Per member per server in a sliding minute, in memory (a restart forgets it).
/** Members remembered at once; past it the oldest window is dropped (it can only make a member's count smaller). */
const MAX_MEMBERS = 10_000;
const WINDOW_MS = 60_000;

class FreeRequestRate {
  readonly #perMinute: number;
  readonly #now: () => Date;
  /** When each member's recent free requests were taken, oldest first; at most `perMinute` each. */
  readonly #taken = new Map<string, number[]>();

  /** `perMinute` 0: no limit. */
  constructor(perMinute: number, now: () => Date) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Counts one free request of the member, or refuses it (Refusal free-rate) when their minute is full. */
  take(guildId: string, userId: string): void {
    if (this.#perMinute === 0) return;
    const key = `${guildId}:${userId}`;
    const now = this.#now().getTime();
    const times = (this.#taken.get(key) ?? []).filter((at) => now - at < WINDOW_MS);
    if (times.length >= this.#perMinute) {
      this.#taken.set(key, times);
      const oldest = times[0] ?? now;
      throw new Refusal({
        code: 'free-rate',
        limit: this.#perMinute,
        waitSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
      });
    }
    times.push(now);
    // Re-inserted: the Map's order is then the order of last use, and the first key the longest unused.
    this.#taken.delete(key);
    this.#taken.set(key, times);
    if (this.#taken.size > MAX_MEMBERS) {
      const oldest = this.#taken.keys().next();
      if (oldest.done !== true) this.#taken.delete(oldest.value);
    }
  }
}

// Paid part-way: a refusal's own words ("nothing was spent") are true of the part refused, false of the request.
type RestRefusal = Refusal | QuotaExceededError | AuthenticationError | PermissionDeniedError | ServerError;

export class PaidPartWayError extends Error {
  readonly paid: number;
  /** The rest refused, or its voice deleted once its call was charged. */
  override readonly cause: RestRefusal | SpeechInputError;

  constructor(paid: number, cause: RestRefusal | SpeechInputError) {
    super(`${paid} characters were paid for before the rest was refused or failed: ${cause.message}`, { cause });
    this.name = 'PaidPartWayError';
    this.paid = paid;
    this.cause = cause;
  }
}

/** A request whose audio the service charged, then broke off before all of it arrived, and all that it paid. */
export class CutAfterPayingError extends Error {
  /** Charged for the request's parts: the part cut, and any fetched ahead. */
  readonly paid: number;
  override readonly cause: VoiceApiError | AudioStalledError;

  constructor(paid: number, cause: VoiceApiError | AudioStalledError) {
    super(`${paid} characters were paid for, then the audio broke off: ${cause.message}`, { cause });
    this.name = 'CutAfterPayingError';
    this.paid = paid;
    this.cause = cause;
  }
}

/** A call another order paid, which this order's part shared, failed after it may have been charged. */
export class SharedCallError extends Error {
  override readonly cause: VoiceApiError;
  constructor(cause: VoiceApiError) {
    super(`the call this order shared failed after it may have been charged: ${cause.message}`, { cause });
    this.name = 'SharedCallError';
    this.cause = cause;
  }
}

/** Audio charged (its 2xx) that broke off, or never came; not an answer too big to take (its own words). */
export function cutAfterCharge(error: unknown): error is VoiceApiError {
  if (error instanceof OversizedResponseError) return false;
  if (error instanceof UndeliveredError) return error.missing === 'audio';
  return (
    error instanceof VoiceApiError &&
    error.charge === 'charged' &&
    (error instanceof ConnectionError || error instanceof TimeoutError)
  );
}

/** Refused after `paid`: PaidPartWayError; charged and cut: CutAfterPayingError; anything else as it is. */
export function afterPaying(error: unknown, paid: number, unconfirmed = 0): unknown {
  if (error instanceof RenderStoppedError) return new RenderStoppedError(Math.max(0, paid), Math.max(0, unconfirmed));
  if (paid > 0 && (cutAfterCharge(error) || error instanceof AudioStalledError))
    return new CutAfterPayingError(paid, error);
  // Nothing of its own sent: what a failed call may have charged was the order's that paid it (a cut says so itself).
  const charged =
    error instanceof VoiceApiError &&
    !(error instanceof AbortedError) &&
    (error.charge ?? 'not-charged') !== 'not-charged';
  if (paid <= 0 && unconfirmed <= 0 && charged && !cutAfterCharge(error)) return new SharedCallError(error);
  // The service failing (its 5xx, not charged) says "nothing was charged" of the part, not of what was paid before.
  const failed = error instanceof ServerError && error.charge === 'not-charged';
  // Its voice deleted after its call was charged: not said, and what was spent is said (not "nothing spent").
  const deleted = error instanceof SpeechInputError && error.problem.code === 'voice-deleted';
  if (paid <= 0 || !(refusesRest(error) || failed || deleted)) return error;
  return new PaidPartWayError(paid, error);
}

/** A refusal of the rest, nothing of it charged: for money (a Refusal, a 429 quota) or of the key (401, 403). */
function refusesRest(error: unknown): error is RestRefusal {
  if (error instanceof Refusal) return true;
  const refusedByService =
    error instanceof QuotaExceededError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError;
  return refusedByService && error.charge === 'not-charged';
}

/** Parts paid before this failure are delivered: not after a let-go (AbortedError: a /stop, a right taken away). */
export function leavesPaidParts(error: unknown): boolean {
  return refusesRest(error) || (error instanceof VoiceApiError && !(error instanceof AbortedError));
}

// The budgets' rules, which the books apply (Accounting, src/core/quota/accounting.ts): which limits are in force, the
// cooldown, and each budget's refusal.
/** The limits that apply in a server: the lower of the operator's and the server's, where either is set. */
export function effectiveBudgets(operator: OperatorBudgets, server: ServerBudgets): OperatorBudgets {
  const out = { ...operator };
  for (const name of BUDGET_NAMES) {
    const own = server[name];
    if (own !== undefined && own > 0) out[name] = operator[name] > 0 ? Math.min(operator[name], own) : own;
  }
  return out;
}

/** A server lowers the operator's limits, never raises them (0 clears its own, leaving the operator's). */
export function serverValueAllowed(operator: OperatorBudgets, name: BudgetName, value: number): boolean {
  return value === 0 || operator[name] === 0 || value <= operator[name];
}

/** A budget's refusal before it is worded (budgetRefusal). */
export type BudgetRefusal =
  /** botMonthlyChars: the whole bot's month (every server and user install), the operator's alone. */
  | {
      budget: 'guildMonthlyChars' | 'memberDailyChars' | 'botMonthlyChars';
      limit: number;
      used: number;
      needed: number;
      resetAt: Date;
    }
  | { budget: 'memberCooldownSeconds'; limit: number; waitSeconds: number };

// The cooldown's refusal while `cooldownSeconds` (0: none) have not passed since the member's last spend. The day's and
// the month's characters are held by the store against the books' limits, counting every process's holds.
export function cooldownRefusal(
  cooldownSeconds: number,
  lastSpendAt: Date | undefined,
  now: Date,
): BudgetRefusal | undefined {
  if (cooldownSeconds <= 0 || lastSpendAt === undefined) return undefined;
  const waitMs = lastSpendAt.getTime() + cooldownSeconds * 1000 - now.getTime();
  if (waitMs <= 0) return undefined;
  return { budget: 'memberCooldownSeconds', limit: cooldownSeconds, waitSeconds: Math.ceil(waitMs / 1000) };
}

const REFUSAL_CODES = {
  memberDailyChars: 'budget-member-day',
  guildMonthlyChars: 'budget-guild-month',
  botMonthlyChars: 'budget-bot-month',
} as const;

export function budgetRefusal(refusal: BudgetRefusal): Refusal {
  if (refusal.budget === 'memberCooldownSeconds')
    return new Refusal({ code: 'budget-cooldown', waitSeconds: refusal.waitSeconds, limit: refusal.limit });
  const { limit, used, needed, resetAt } = refusal;
  return new Refusal({ code: REFUSAL_CODES[refusal.budget], limit, used, needed, resetAt });
}

// The month's rules, which the books apply: what the service's answers say of the month.
/** A refusal told while another request is on its way to find out whether the month is back. */
export function asking(refusal: Refusal): Refusal {
  const { reason } = refusal;
  return reason.code === 'quota-used-up' ? new Refusal({ ...reason, asking: true }) : refusal;
}

/** The refusal of `needed` characters the service's last figure (`tooFew`) leaves too few for. */
function tooFewLeft(
  tooFew: { left: number; resetAt?: Date | undefined; saidAt?: Date | undefined },
  needed: number,
  at: Date,
  cause?: unknown,
): Refusal {
  const resetAt = tooFew.resetAt ?? nextMonthStart(at);
  const options = { level: 'warn' as const, ...(cause === undefined ? {} : { cause }) };
  const { left, saidAt } = tooFew;
  return new Refusal(
    { code: 'quota-too-few-left', left, needed, resetAt, ...(saidAt === undefined ? {} : { saidAt }) },
    options,
  );
}

// The month as the service counts it: the usage figures its answers carry (X-RateLimit-*: a 2xx's and a refusal's
// alike), kept with the time they arrived (store.quota, src/core/store/areas/quota-state.ts). What they tell: the
// whole bot's used and left, said as "the service's count" only when they are the service's own; and that a request
// longer than what is left will likely be refused, so only one at a time goes out to find out (a hint, not a wall).
/** The usage figures of a failed call, when the answer is provably the service's own (src/core/api/response.ts' retry rule); else undefined. */
export function serviceFiguresOf(error: unknown): UsageInfo | undefined {
  if (!(error instanceof VoiceApiError) || error.status === undefined || error.rateLimit === undefined)
    return undefined;
  if (!error.fromService && error.charge !== 'not-charged') return undefined;
  const { retryAfterSeconds: _, ...usage } = error.rateLimit;
  return Object.keys(usage).length === 0 ? undefined : usage;
}

/**
 * The refusal of a request of `needed` by the service's last word, when that word leaves fewer than `needed` but some:
 * a hint that it will be refused, so only one at a time goes out to find out (Accounting's month): characters bought or
 * a new month are seen at the next answer. The word lapses at its reset date, and one kept from before `since` (this
 * start) is not taken without a new answer. Nothing left at all is the used-up month's.
 */
export function tooFewRefusal(
  service: QuotaState['service'],
  needed: number,
  now: Date,
  since: Date,
): Refusal | undefined {
  const left = service?.remaining;
  if (service === undefined || left === undefined || left <= 0 || needed <= left) return undefined;
  if (service.month !== monthOf(now) || service.updatedAt < since) return undefined;
  if (service.resetAt !== undefined && service.resetAt <= now) return undefined;
  return tooFewLeft({ left, saidAt: service.updatedAt, resetAt: service.resetAt }, needed, now);
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
  const details = {
    status,
    requestId,
    serviceMessage,
    rateLimit,
    fromService,
    cause: error,
    charge: 'not-charged' as const,
  };
  return new RateLimitedError(`The Voice API refused for now, ${left} characters left by its figure`, details);
}
