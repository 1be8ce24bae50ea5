// Acceptance and settlement (Money): may this order spend, and on what terms, in turn: the queue bounds (capacity.ts,
// free to refuse); the quote ceiling and cache-only; the free-request rate; what it spends (spendingChecks, each a step
// of the books, accounting.ts); who pays a part counted free then (payerOf); where a free voice stands in
// (standInCause; which voice: src/core/sourcing/stand-in.ts). Once delivered, settled: what it paid said with its
// outcome (PaidPartWayError, LostAfterPayingError, SharedCallError).
import { engineOf, isFreeVoice } from '../voice-catalogue/voices.ts';
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
} from '../api/errors.ts';
import { Refusal } from '../refusal.ts';
import type { SpeechRequest, StandIn } from '../settings/speech-request.ts';
import type { SpendEndpoint } from '../store/quota-store.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import { BUDGET_NAMES, type BudgetName, type OperatorBudgets, type QueueBounds } from '../config.ts';
import type { ServerBudgets } from '../config.ts';
import type { BudgetRule, QuotaState } from '../store/quota-store.ts';
import { monthOf, nextDayStart, nextMonthStart } from '../calendar.ts';
import { FreeRequestRate, QueueBook, type Admission, type VoiceAdmission } from './capacity.ts';
import { RenderStoppedError, SpeechInputError } from '../order-errors.ts';
import { AudioStalledError } from '../voice/audio-stalled.ts';
import { countCharacters, estimatePlanSeconds } from '../characters.ts';
import type { QuoteAllowance, SpendContext } from './ledger.ts';
import type { Accounting, Charge, MoneyRules, PartNeed, SpendingBooks } from './accounting.ts';
import type { ServiceMonth } from './month.ts';
import type { Logger } from '../log.ts';

/** One line of an order: its request and its text split into parts. */
interface PricedLine {
  readonly request: SpeechRequest;
  readonly texts: readonly string[];
  readonly pauseBefore: number;
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

/** An order's money once accepted: its lines as they will be spoken, and what they are held and paid on. */
export interface MoneyTerms<Line extends PricedLine> {
  lines: readonly Line[];
  /** Why the paid voice was refused when the free voice speaks instead. */
  fallback?: Refusal | undefined;
  charge: Charge;
  /** Its place in the queue bounds' figures, given back when it is settled. */
  admission: Admission;
  /** What it may still pay for parts counted free at acceptance (paid-call.ts' payer). */
  late?: QuoteAllowance | undefined;
}

interface MoneyOptions {
  accounting: Accounting;
  queue?: QueueBounds | undefined;
  /** Requests costing no characters one member may make per minute in a server; 0 or absent: no limit. */
  freePerMinute?: number | undefined;
  now?: (() => Date) | undefined;
  /** Counts `lines` a free voice spoke (for /usage), once per cause and speaker an order; absent: not counted. */
  countFreeLines?: ((guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker, lines: number) => void) | undefined;
}

export class Money {
  readonly #accounting: Accounting;
  readonly #queue: QueueBook;
  readonly #freeRate: FreeRequestRate;
  readonly #countFreeLines: MoneyOptions['countFreeLines'];
  /** The last price lookup: each ends after the one before, so orders are checked in the order asked. */
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
   * The order's place in the queue bounds, checked first: a full queue costs nothing to refuse. `queued`: the clips and
   * seconds it adds to its seat's queue. Counted until it is settled or given back.
   */
  admit(order: OrderToPay<PricedLine>, queued: VoiceAdmission | undefined): Admission {
    const { requester } = order;
    const ready = order.lines.some((line) => line.request.kind === 'ready');
    return this.#queue.admit({
      guildId: requester.guildId,
      userId: requester.userId,
      ...(queued === undefined ? {} : { queued }),
      enforce: QueueBook.enforcementFor({ queueBounded: requester.policy.queueBounded, paid: order.followUp || ready }),
    });
  }

  /**
   * Who pays for each part of `order`, admitted at `admission`: the budgets and the month by what its parts cost now
   * (`needs`: nothing when cached or in flight). Throws the refusal; nothing is held then.
   */
  async accept<Line extends PricedLine>(
    order: OrderToPay<Line>,
    admission: Admission,
    needs: Promise<readonly PartNeed[]>,
  ): Promise<MoneyTerms<Line>> {
    const inOrder = this.#lookups.then(() => needs);
    this.#lookups = inOrder.catch(() => undefined);
    // A clone's follow-up line: its characters were checked with the clone; recorded, not checked again.
    if (order.followUp) return { lines: order.lines, charge: this.#accounting.unchecked(contextOf(order)), admission };
    const parts = await inOrder;
    const paid = parts.reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0);
    // A cache-only replay may cost nothing, a confirmed scene no more than its quote: refused before anything is held.
    const late = quoteAllowance(order, paid);
    if (parts.every((need) => need.free)) this.#admitFree(order);
    // Then what it spends, by acceptance's checks in their order (spendingChecks), each a step the books take.
    const charge = await this.#accounting.authorize(contextOf(order), parts, order.requester.policy);
    return { lines: order.lines, admission, charge, ...(late === undefined ? {} : { late }) };
  }

  /**
   * `order` refused at acceptance (`refusal`): where a free voice may answer for it (standInCause), the free voice's
   * version of its lines (`freeLines`, undefined where none may speak) spoken instead, at no charge, queued at its own
   * seconds (eSpeak NG's may be ten times the paid estimate): a full queue refuses it as it refuses the free voice asked
   * directly. Refused by the free-request rate, or none may speak: the refusal stands, told of the money, the cause.
   */
  async acceptInstead<Line extends PricedLine>(
    order: OrderToPay<Line>,
    admission: Admission,
    refusal: unknown,
    freeLines: () => Line[] | undefined,
  ): Promise<MoneyTerms<Line>> {
    const fallback = standInCause(refusal);
    if (!(fallback instanceof Refusal)) throw refusal;
    const lines = freeLines();
    if (lines === undefined) throw refusal;
    admission.leave();
    const { queued } = admission;
    const own = this.admit({ ...order, lines }, queued && { ...queued, seconds: estimatePlanSeconds(lines) });
    try {
      this.#admitFree(order);
    } catch {
      own.leave();
      throw refusal;
    }
    return { lines, fallback, admission: own, charge: this.#accounting.unchecked(contextOf(order)) };
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
    // What it spent is said: an order that ended before its end, or a file Discord will not take.
    const told: Outcome = {
      ...result,
      ...(partWay === undefined ? {} : { partWay }),
      ...(written > 0 ? { spent: { paid, delivered: charge.delivered, unconfirmed: written - paid } } : {}),
      ...(standIn === undefined ? {} : { standIn: paid > 0 ? { ...standIn, paidBefore: paid } : standIn }),
      ...(lineCutAt === undefined || result.kind === 'failed' ? {} : { lineCutAt }),
    };
    if (told.kind !== 'failed') this.#countFree(order);
    return told;
  }

  /** What was accepted is over, or its order never took it (a bug past `accept`): charge closed, place given back. */
  giveBack({ charge, admission }: Pick<MoneyTerms<PricedLine>, 'charge' | 'admission'>): void {
    try {
      charge.close();
    } finally {
      admission.leave();
    }
  }

  // What spends nothing passes no budget, yet may cost a render and a cache entry: rationed per member instead.
  #admitFree({ requester }: OrderToPay<PricedLine>): void {
    if (requester.policy.queueBounded) this.#freeRate.take(requester.guildId, requester.userId);
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
      // An engine's stand-in (eSpeak NG for an engine's voice): a free voice chosen all the same, never counted in place.
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

// At acceptance: the month, the bot-wide reserve, a budget (not the member's cooldown, nor the free-request rate).
const FOR_MONEY: ReadonlySet<string> = new Set(
  'budget-member-day budget-guild-month budget-bot-month quota-used-up quota-too-few-left'.split(' '),
);

const SERVICE_FAILED = [ServerError, TimeoutError, ConnectionError, QuotaExceededError, RateLimitedError];

/** Why a free voice may stand in (FREE_VOICE's fallback) for `error`: at acceptance (no `text`), a refusal for money; as
 * a part of `text` fails, the month used up (the service's own 429 not charged, which the payment told by its figure,
 * monthAnswer; the books' mark met before it was sent), too few left (a 429's figure or the books' last), or the
 * service failing before anything was charged. Never what may have been charged: the member is told so in its words. */
export function standInCause(error: unknown, text?: string): StandIn['cause'] | undefined {
  if (text === undefined) return error instanceof Refusal && FOR_MONEY.has(error.reason.code) ? error : undefined;
  if (error instanceof Refusal) {
    const { reason } = error;
    if (reason.code === 'quota-too-few-left') return reason.left > 0 ? error : 'month-used-up';
    return reason.code === 'quota-used-up' && reason.beforeSending === true ? 'month-used-up' : undefined;
  }
  if (!SERVICE_FAILED.some((type) => error instanceof type && error.charge === 'not-charged')) return undefined;
  return error instanceof QuotaExceededError ? 'month-used-up' : 'service-failed';
}

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

/** The budget rule: the first of `limits`, in their order, that `needed` characters more than it `used` would pass. */
export const budgetPassed: BudgetRule = (limits, used, needed) =>
  (Object.keys(limits) as Array<keyof typeof limits>)
    .map((budget) => ({ budget, limit: limits[budget] ?? 0, used: used[budget] ?? 0, needed }))
    .find(({ limit, used }) => used + needed > limit);

// The cooldown's refusal while its seconds have not passed since the member's last spend, a request of theirs that
// may still spend counting as one; auto-read does not wait it out (its policy), its spends still count as theirs.
function cooldownRefusal(limits: OperatorBudgets, policy: { memberCooldown: boolean }, now: Date, last: Date[]) {
  const limit = policy.memberCooldown ? limits.memberCooldownSeconds : 0;
  const waitMs = Math.max(...last.map((at) => at.getTime() + limit * 1000)) - now.getTime();
  if (limit <= 0 || waitMs <= 0) return undefined;
  return new Refusal({ code: 'budget-cooldown', waitSeconds: Math.ceil(waitMs / 1000), limit });
}

/** A budget the request would pass: refused until the day's or the month's end. */
function budgetRefusal({ budget, limit, used, needed }: NonNullable<ReturnType<BudgetRule>>, now: Date): Refusal {
  const figures = { limit, used, needed };
  if (budget === 'memberDailyChars')
    return new Refusal({ code: 'budget-member-day', ...figures, resetAt: nextDayStart(now) });
  const code = budget === 'guildMonthlyChars' ? 'budget-guild-month' : 'budget-bot-month';
  return new Refusal({ code, ...figures, resetAt: nextMonthStart(now) });
}

/**
 * The month's one rule (src/core/quota/month.ts keeps the mark and the figures): while the month is marked used up, or
 * the service's last figure leaves too few, one request at a time goes out to find out (its 429 bills nothing), taking
 * the probe as it leaves, never an order waiting in a queue; the others are refused naming the mark or the figure. At
 * acceptance (no `leaving`) the probe is only tried and given back.
 */
async function probeFor(month: ServiceMonth, log: Logger, characters: number, leaving?: Charge) {
  const refusal = await monthRefusal(month, characters, leaving !== undefined);
  if (refusal === undefined) return undefined;
  // Said since its order was accepted (its own earlier part's answer, or another's): the service's word is fresher
  // than the order, so asking again would only hear it again: told as the service said it. Only an order accepted
  // after it goes out to find out.
  const { reason } = refusal;
  const since = leaving?.createdAt;
  if (since !== undefined && reason.code === 'quota-used-up' && reason.markedAt > since) throw refusal;
  if (since !== undefined && reason.code === 'quota-too-few-left' && reason.saidAt && reason.saidAt > since) {
    const { saidAt: _, ...said } = reason;
    throw new Refusal(said, { level: 'warn' });
  }
  const probe = await month.takeProbe();
  if (probe === undefined) {
    if (since) log.info({ code: reason.code, needed: characters }, 'not sent: another request is finding out');
    // Worded as another request finding out (the used-up month's; the figure's says itself).
    throw reason.code === 'quota-used-up' ? new Refusal({ ...reason, asking: true }) : refusal;
  }
  // At acceptance the probe is only tried: an accepted order holds none until a part of it leaves.
  if (since === undefined) return void (await month.releaseProbe(probe));
  if (reason.code === 'quota-too-few-left')
    log.info(
      { code: 'quota-too-few-left', left: reason.left, needed: characters },
      "the service's last figure leaves too few characters: this request goes out to find out whether more were bought",
    );
  else
    log.info(
      { resetAt: reason.code === 'quota-used-up' ? reason.resetAt.toISOString() : undefined },
      'monthly quota marked used up: this request goes out to find out whether it is back',
    );
  return probe;
}

/** The month's mark, if it still stands: a mark made under another key or plan (the operator changed what the 429 was
 * about), or past its reset date, is cleared on the way. Never the configured plan's figure: only the service's word. */
async function standingMark(month: ServiceMonth): Promise<QuotaState['exhausted']> {
  const mark = (await month.state()).exhausted;
  const { fingerprint, plan } = month.account ?? {};
  const keyChanged = fingerprint !== undefined && mark?.account !== undefined && mark.account !== fingerprint;
  const why = keyChanged
    ? 'the API key changed since the month was marked used up'
    : plan !== undefined && mark?.plan !== undefined && mark.plan !== plan
      ? 'the plan changed since the month was marked used up'
      : mark && mark.resetAt <= month.now() && 'the reset date has passed';
  if (!why) return mark;
  await month.clear(why);
  return undefined;
}

/** Whether the month refuses a request of `needed` (probeFor finds out): its mark standing, or the service's last figure
 * leaving too few; none, it goes. `sending`: about to leave. */
async function monthRefusal(month: ServiceMonth, needed: number, sending: boolean): Promise<Refusal | undefined> {
  const mark = await standingMark(month);
  if (mark !== undefined) {
    const { markedAt, resetAt } = mark;
    return new Refusal({ code: 'quota-used-up', markedAt, resetAt, ...(sending ? { beforeSending: true } : {}) });
  }
  return tooFewRefusal((await month.state()).service, needed, month.now(), month.since);
}

/**
 * The refusal of a request of `needed` by the service's last word, when that word leaves fewer than `needed` but some:
 * a hint that it will be refused, so only one at a time goes out to find out (probeFor): characters bought or
 * a new month are seen at the next answer. The word lapses at its reset date, and one kept from before `since` (this
 * start) is not taken without a new answer. Nothing left at all is the used-up month's.
 */
function tooFewRefusal(service: QuotaState['service'], needed: number, now: Date, since: Date): Refusal | undefined {
  const left = service?.remaining;
  if (service === undefined || left === undefined || left <= 0 || needed <= left) return undefined;
  if (service.month !== monthOf(now) || service.updatedAt < since) return undefined;
  if (service.resetAt !== undefined && service.resetAt <= now) return undefined;
  return tooFewLeft({ left, saidAt: service.updatedAt, resetAt: service.resetAt }, needed, now);
}

/** Acceptance's checks of a request's `needed` paid characters, in their order, the first refusal stopping it (each a
 * step of the books, in the guild's order by the store's deadline, a hold given back if a later check refuses). */
async function spendingChecks(books: SpendingBooks, needed: number, policy: { memberCooldown: boolean }) {
  // What costs nothing is never refused; a spend the store refused and still unwritten would under-count every budget.
  if (needed === 0) return;
  if (!(await books.written())) throw new Refusal({ code: 'spends-unrecorded' }, { level: 'warn' });
  const { limits, botMonthly, last } = await books.facts();
  const cooldown = cooldownRefusal(limits, policy, books.now, last);
  if (cooldown) books.refuse(cooldown);
  // In the order budgetPassed compares them; the bot's month counts every guild's holds however long any queue is.
  const { memberDailyChars, guildMonthlyChars } = limits;
  const all = { memberDailyChars, guildMonthlyChars, botMonthlyChars: botMonthly };
  const held = Object.fromEntries(Object.entries(all).filter(([, limit]) => limit > 0));
  const passed = Object.keys(held).length === 0 ? undefined : await books.hold(held, budgetPassed);
  if (passed) books.refuse(budgetRefusal(passed, books.now));
  await probeFor(books.month, books.log, needed);
}

/** What may spend, as the books hold each request to it (Accounting's `rules`), the store holding on these limits. */
export const MONEY_RULES: MoneyRules = {
  limits: effectiveBudgets,
  passed: budgetPassed,
  checks: spendingChecks,
  probeFor,
  standingMark,
  monthRefusal: (month, needed) => monthRefusal(month, needed, true),
};

/** Who pays for `part` as its request leaves (paidCall awaits it): its order's charge where it reserved it at acceptance;
 * one counted free then, a charge of its own passing the budgets and the month now (no cooldown, within `late`). */
export async function payerOf(
  books: Accounting,
  order: { readonly charge: Charge; readonly late?: QuoteAllowance | undefined } | undefined,
  endpoint: SpendEndpoint,
  part: Pick<PartNeed, 'key' | 'text'>,
): Promise<Charge | undefined> {
  if (order === undefined || order.charge.reserves(part.key)) return order?.charge;
  const characters = countCharacters(part.text);
  order.late?.take(characters);
  const need = { ...part, endpoint, characters, free: false };
  return (await books.authorize(order.charge.context, [need], { memberCooldown: false })).paysFor(order.charge);
}

/** The refusal of `needed` characters the service's figure (`tooFew`) leaves too few for: acceptance's (tooFewRefusal)
 * and a 429's (paid-call.ts monthAnswer). */
export function tooFewLeft(
  tooFew: { left: number; resetAt?: Date | undefined; saidAt?: Date | undefined },
  needed: number,
  at: Date,
  cause?: unknown,
): Refusal {
  const { left, saidAt, resetAt = nextMonthStart(at) } = tooFew;
  const said = saidAt === undefined ? {} : { saidAt };
  const reason = { code: 'quota-too-few-left', left, needed, resetAt, ...said } as const;
  return new Refusal(reason, { level: 'warn', ...(cause === undefined ? {} : { cause }) });
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
  if (!engineOf(voice)) return 'espeak';
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
export class LostAfterPayingError extends Error {
  /** Charged for the request's parts: the part broken off, and any fetched ahead. */
  readonly paid: number;
  override readonly cause: VoiceApiError | AudioStalledError;

  constructor(paid: number, cause: VoiceApiError | AudioStalledError) {
    super(`${paid} characters were paid for, then the audio broke off: ${cause.message}`, { cause });
    this.name = 'LostAfterPayingError';
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
export function lostAfterCharge(error: unknown): error is VoiceApiError {
  if (error instanceof OversizedResponseError) return false;
  if (error instanceof UndeliveredError) return error.missing === 'audio';
  return (
    error instanceof VoiceApiError &&
    error.charge === 'charged' &&
    (error instanceof ConnectionError || error instanceof TimeoutError)
  );
}

/** Refused after `paid`: PaidPartWayError; charged and broken off: LostAfterPayingError; anything else as it is. */
export function afterPaying(error: unknown, paid: number, unconfirmed = 0): unknown {
  if (error instanceof RenderStoppedError) return new RenderStoppedError(Math.max(0, paid), Math.max(0, unconfirmed));
  if (paid > 0 && (lostAfterCharge(error) || error instanceof AudioStalledError))
    return new LostAfterPayingError(paid, error);
  // Nothing of its own sent: what a failed call may have charged was the order's that paid it (a break says so itself).
  const charged =
    error instanceof VoiceApiError &&
    !(error instanceof AbortedError) &&
    (error.charge ?? 'not-charged') !== 'not-charged';
  if (paid <= 0 && unconfirmed <= 0 && charged && !lostAfterCharge(error)) return new SharedCallError(error);
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
