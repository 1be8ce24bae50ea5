// Money's one owner: who pays for each part of an order, or why not. Everything that speaks asks here and nothing
// else decides: the queue bounds, the free-request rate, the quote ceiling and cache-only, the free voice standing in
// for a refusal or a failing service, a part paid late (Money, first); the budgets, their hold and the checks a paid
// request passes as it is written ahead (Accounting, below); the used-up month and its probe, and the service's own
// figures (last); each paid request, written ahead on the books before it leaves and answered there once
// (Accounting.pay), and the books themselves (Charge, SpendLedger). Once the order is delivered, its charge is settled
// and what it paid said with its outcome.
import { isEngineVoice, isFreeVoice } from '../voice-catalogue/voices.ts';
import { randomUUID } from 'node:crypto';
import {
  AbortedError,
  ConnectionError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  VoiceApiError,
  type UsageInfo,
} from '../api/errors.ts';
import { accountRefusalProven } from '../api/response.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Refusal, type RefusalReason } from '../refusal.ts';
import type { ServiceRequest, SpeechRequest, StandIn } from '../settings/speech-request.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import type {
  BudgetHoldLimits,
  NewSpend,
  QuotaMarkAccount,
  QuotaState,
  SpendAcceptance,
  SpendEndpoint,
  SpendOutcome,
  SpendsLeft,
} from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import { monthOf, nextDayStart, nextMonthStart } from './calendar.ts';
import type {
  Acceptance,
  AudioResponse,
  CallControl,
  CallOptions,
  CloneVoiceResponse,
  EmotionTtsRequest,
  TtsRequest,
  VoiceApiClient,
} from '../api/client.ts';
import { afterPaying } from './paid-part-way.ts';
import { SpeechInputError } from '../order-errors.ts';
import { countCharacters, estimateCeiling, estimateRequestSeconds } from '../characters.ts';
import { MAX_FREE_LINE_SECONDS } from '../audio/workers/job-thread.ts';
import type { LengthCapped } from '../audio/errors.ts';
import {
  BUDGET_NAMES,
  type BudgetName,
  type OperatorBudgets,
  type QueueBounds,
  type ServerBudgets,
} from '../config.ts';

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
  readonly scene: boolean;
  readonly followUp: boolean;
  readonly cachedOnly: boolean;
  readonly quoted: number | undefined;
}

/** What the part source knows of prices: what each part needs now, and the free voice that would say a request. */
interface PartPrices {
  needs(request: SpeechRequest, texts: readonly string[]): Promise<PartNeed[]>;
  standIn(request: ServiceRequest): ServiceRequest | undefined;
}

/** An order's money once accepted: its lines as they will be spoken, and what they are held and paid on. */
export interface Accepted<Line extends PricedLine> {
  lines: readonly Line[];
  /** Why the paid voice was refused when the free voice speaks instead. */
  fallback?: Refusal | undefined;
  charge: Charge;
  /** Its place in the queue bounds' figures, given back when it is settled. */
  admission: Admission;
  /** What it may still pay for parts counted free at acceptance (Accounting.pay). */
  late?: QuoteAllowance | undefined;
}

interface MoneyOptions {
  accounting: Accounting;
  prices: PartPrices;
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
  readonly #accounting: Accounting;
  readonly #prices: PartPrices;
  readonly #queue: QueueBook;
  readonly #freeRate: FreeRequestRate;
  readonly #countFreeLines: MoneyOptions['countFreeLines'];
  /** The last price lookup: each settles after the one before, so orders are checked in the order asked. */
  #lookups: Promise<unknown> = Promise.resolve();

  constructor(options: MoneyOptions) {
    this.#accounting = options.accounting;
    this.#prices = options.prices;
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
   * budgets and the month; refused there for money, a plain request is spoken by the free voice at no charge. Throws
   * the refusal otherwise; nothing is held then. `voice`: the clips and seconds it adds to its seat's queue.
   */
  async accept<Line extends PricedLine>(
    order: OrderToPay<Line>,
    voice: VoiceAdmission | undefined,
  ): Promise<Accepted<Line>> {
    const { requester } = order;
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
        return { lines: order.lines, admission, ...(await this.#authorize(order, order.lines)) };
      } catch (refusal) {
        const spoken = this.#standInFor(order, refusal);
        if (spoken === undefined) throw refusal;
        // Refused that too (the free-request rate): the member hears of the money, the cause.
        const paid = await this.#authorize(order, spoken).catch(() => Promise.reject(refusal));
        return { lines: spoken, fallback: refusal as Refusal, admission, ...paid };
      }
    } catch (error) {
      admission.release();
      throw error;
    }
  }

  /** A /clone's characters, checked and held like any request's (a clone is never cached). */
  authorizeClone(requester: OrderToPay<PricedLine>['requester'], text: string): Promise<Charge> {
    const need: PartNeed = { text, endpoint: 'voice-clone', characters: countCharacters(text), free: false };
    return this.#accounting.authorize(contextOf({ requester }), [need], requester.policy);
  }

  /**
   * Settled once delivered: its charge closed, its place in the queue bounds given back, and its outcome told with
   * what it paid (a refusal after paid parts is paid part-way); the free voice's lines counted.
   */
  settle<Outcome extends SettledOutcome>(order: DeliveredOrder, delivered: Outcome): Outcome {
    const { charge } = order;
    this.giveBack(order);
    const result: Outcome =
      delivered.kind === 'failed'
        ? { ...delivered, error: afterPaying(delivered.error, charge.paid, charge.written - charge.paid) }
        : delivered;
    const { freeVoice, lineCutAt, restFailed } = order;
    const paidBefore = charge.paid;
    const partWay =
      restFailed === undefined || result.kind === 'failed' ? undefined : afterPaying(restFailed, paidBefore);
    const told: Outcome = {
      ...result,
      ...(partWay === undefined ? {} : { partWay }),
      // An order that ended before its end (or failed, a right taken away): what it spent is said with it.
      ...(['stopped', 'skipped', 'cut-off', 'failed'].includes(result.kind) && charge.written > 0
        ? { spentSome: true as const }
        : {}),
      ...(freeVoice === undefined ? {} : { freeVoice: paidBefore > 0 ? { ...freeVoice, paidBefore } : freeVoice }),
      ...(lineCutAt === undefined || result.kind === 'failed' ? {} : { lineCutAt }),
    };
    if (told.kind !== 'failed') this.#countFree(order, told.freeVoice);
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

  /** The parts' needs checked in turn and held: what is cached or in flight costs nothing. */
  async #authorize<Line extends PricedLine>(
    order: OrderToPay<Line>,
    lines: readonly Line[],
  ): Promise<{ charge: Charge; late?: QuoteAllowance }> {
    const { requester } = order;
    const needs = (await this.#inOrder(Promise.all(lines.map((l) => this.#prices.needs(l.request, l.texts))))).flat();
    const paid = needs.reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0);
    // A cache-only replay may cost nothing, a confirmed scene no more than its quote: refused before anything is held.
    const late = quoteAllowance(order, paid);
    // What spends nothing passes no budget, yet may cost a render and a cache entry: rationed per member instead.
    if (requester.policy.queueBounded && needs.every((need) => need.free))
      this.#freeRate.take(requester.guildId, requester.userId);
    const charge = await this.#accounting.authorize(contextOf(order), needs, requester.policy);
    return late === undefined ? { charge } : { charge, late };
  }

  /**
   * The free voice's version of a plain request refused for money, where FREE_VOICE lets it and it can say every part
   * within one of its lines; undefined otherwise (the refusal stands). A scene is never spoken for: its member
   * confirmed its voices and its quote.
   */
  #standInFor<Line extends PricedLine>(order: OrderToPay<Line>, refusal: unknown): Line[] | undefined {
    const [only] = order.lines;
    if (!this.#accounting.standsIn || order.scene || only === undefined || !(refusal instanceof Refusal))
      return undefined;
    if (!FOR_MONEY.has(refusal.reason.code)) return undefined;
    const free = standInRequest(only.request, only.texts, this.#prices);
    return free === undefined ? undefined : [{ ...only, request: free }];
  }

  #inOrder<T>(lookup: Promise<T>): Promise<T> {
    const turn = this.#lookups.then(() => lookup);
    this.#lookups = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Each line a free voice was chosen for, or the one line said in place of the paid voice: one count per cause and
   * speaker, since each count is a store write (a 60-line scene's, one a line, held the main thread up).
   */
  #countFree(order: DeliveredOrder, freeVoice: SettledOutcome['freeVoice']): void {
    const count = (cause: FreeVoiceCause, voice: string, lines = 1) =>
      this.#countFreeLines?.(order.charge.context.guildId, cause, freeSpeakerOf(voice), lines);
    // An engine's voice that eSpeak NG spoke for: a free voice chosen all the same, never one in place of a paid one.
    if (freeVoice?.cause === 'engine-failed') count('chosen', freeVoice.voice);
    else if (order.fallback !== undefined || freeVoice !== undefined)
      count('fallback', freeVoice?.voice ?? order.lines[0]?.request.voice ?? '');
    else {
      const chosen = new Map<FreeSpeaker, { voice: string; lines: number }>();
      for (const { request } of order.lines) {
        if (request.kind === 'ready' || !isFreeVoice(request.voice)) continue;
        const speaker = freeSpeakerOf(request.voice);
        const counted = chosen.get(speaker) ?? { voice: request.voice, lines: 0 };
        counted.lines += 1;
        chosen.set(speaker, counted);
      }
      for (const { voice, lines } of chosen.values()) count('chosen', voice, lines);
    }
  }
}

/** What settling reads of a delivered order. */
interface DeliveredOrder {
  readonly charge: Charge;
  readonly admission: Admission;
  readonly lines: readonly PricedLine[];
  readonly fallback: Refusal | undefined;
  readonly freeVoice: Pick<StandIn, 'voice' | 'cause'> | undefined;
  readonly lineCutAt: number | undefined;
  /** The failure after paid parts that left its file holding only those. */
  readonly restFailed: unknown;
}

/** The outcome's fields settling reads and adds. */
interface SettledOutcome {
  kind: string;
  error?: unknown;
  freeVoice?: StandIn;
  partWay?: unknown;
  spentSome?: true;
  lineCutAt?: number;
}

/**
 * The free voice's version of a paid request, where it can say each of `texts` within one of its lines (`prices`: the
 * part source's choice of free voice); undefined for a request already free or handed in whole, or none fitting. The
 * one test of the stand-in, at acceptance (a refusal for money) and at the fetch (a failing service) alike.
 */
export function standInRequest(
  request: SpeechRequest,
  texts: readonly string[],
  prices: Pick<PartPrices, 'standIn'>,
): ServiceRequest | undefined {
  if (request.kind === 'ready' || isFreeVoice(request.voice)) return undefined;
  const free = prices.standIn(request);
  return free !== undefined && texts.every((text) => fitsFreeLine(text, free.voice)) ? free : undefined;
}

const SERVICE_FAILED = [ServerError, TimeoutError, ConnectionError, QuotaExceededError, RateLimitedError];

/**
 * Why the free voice may stand in for a part the service failed: the month used up (the service's own 429, not
 * charged, the books' mark of it met before the part was sent), too few characters left for the part (the service's
 * figure, said with it: a 429 or the books' last figure leaving some), or the service failing to answer before
 * anything was charged. Undefined for a failure that may have been charged: the member is told so in its own words.
 */
function failingServiceCause(error: unknown, text: string): StandIn['cause'] | undefined {
  if (error instanceof Refusal) {
    const { reason } = error;
    if (reason.code === 'quota-too-few-left') return reason.left > 0 ? error : 'month-used-up';
    return reason.code === 'quota-used-up' && reason.beforeSending === true ? 'month-used-up' : undefined;
  }
  if (!SERVICE_FAILED.some((type) => error instanceof type)) return undefined;
  if ((error as VoiceApiError).charge !== 'not-charged') return undefined;
  if (!(error instanceof QuotaExceededError)) return 'service-failed';
  // A 429 not the service's own word on the month: a refusal on the way, told as busy, no voice standing in for it.
  if (!accountRefusalProven(error)) return undefined;
  const told = monthAnswer(error, countCharacters(text), new Date());
  return told instanceof Refusal ? told : told === error ? 'month-used-up' : 'service-failed';
}

/**
 * What the service's own 429 says to a call of `characters`, by the figure in that same answer: none left (or none
 * sent), the month used up (the error itself); some, too few for it (the refusal with the figure); enough, a refusal
 * for now, not for the month: told as busy, nothing charged (a RateLimitedError of the same answer).
 */
function monthAnswer(error: QuotaExceededError, characters: number, at: Date): VoiceApiError | Refusal {
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

/** Characters still payable under a quote, taken by each part paid late; refused past it. */
export interface QuoteAllowance {
  /** Takes `characters` from what is left, or throws the allowance's refusal (nothing is taken then). */
  take(characters: number): void;
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

// The seconds caps an order's estimate is refused at before anything is held, made or paid (the estimates and their
// margin: src/core/characters.ts).
/** A plan estimated over its cap (with the margin): refused before anything is held, made or paid. */
export class OverSecondsCapError extends Error {
  readonly capped: LengthCapped;
  readonly estimate: number;
  readonly cap: number;

  constructor(capped: LengthCapped, estimate: number, cap: number) {
    super(
      `${capped} estimated at ${estimate.toFixed(1)} s, over ${estimateCeiling(cap).toFixed(1)} s (a cap of ${cap} s)`,
    );
    this.name = 'OverSecondsCapError';
    this.capped = capped;
    this.estimate = estimate;
    this.cap = cap;
  }
}

export function checkEstimatedSeconds(estimate: number, cap: number, capped: LengthCapped): void {
  if (estimate > estimateCeiling(cap)) throw new OverSecondsCapError(capped, estimate, cap);
}

/** A free line (one eSpeak NG or engine job) checked before it is queued, so no line is made to lose most of it at the cut. */
export function checkFreeLineSeconds(text: string, voiceId: string): void {
  checkEstimatedSeconds(
    estimateRequestSeconds({ kind: 'tts', text, voice: voiceId }, text),
    MAX_FREE_LINE_SECONDS,
    'free-line',
  );
}

/** Whether a free voice says `text` within one of its lines (its estimate under the cap, with the margin). */
export function fitsFreeLine(text: string, voiceId: string): boolean {
  return estimateRequestSeconds({ kind: 'tts', text, voice: voiceId }, text) <= estimateCeiling(MAX_FREE_LINE_SECONDS);
}

// Each seat's voice queue and each member's requests under way in a server, bounded by their estimated seconds before
// anything is held, made or paid (config.queue).
/** One accepted request counted until its outcome; release() is idempotent. */
export interface Admission {
  release(): void;
}

interface AdmissionRequest {
  guildId: string;
  userId: string;
  /** A voice request: its clips and estimated seconds join its seat's voice queue (`seat`: the bot's index). */
  voice?: VoiceAdmission;
  /** Which bounds may refuse it; a request is always counted. */
  enforce: { guild: boolean; member: boolean };
}

/** What a voice request adds to the queue of its seat (0 the main bot, then the helpers). */
export interface VoiceAdmission {
  seat: number;
  clips: number;
  seconds: number;
}

interface GuildQueue {
  /** Per seat: the clips and seconds waiting; an entry goes once empty. */
  seats: Map<number, { clips: number; seconds: number }>;
  members: Map<string, number>;
  /** Requests under way in this guild: the entry goes at 0. */
  requests: number;
}

/** The figures behind the bounds: the voice queue per seat, the member's requests per guild; kept while under way. */
export class QueueBook {
  /** None for a request already paid or whose front-end bounds its own backlog (auto-read); both for the rest. */
  static enforcementFor(order: { queueBounded: boolean; paid: boolean }): AdmissionRequest['enforce'] {
    const bounded = !order.paid && order.queueBounded;
    return { guild: bounded, member: bounded };
  }

  readonly #bounds: QueueBounds;
  readonly #guilds = new Map<string, GuildQueue>();

  constructor(bounds: QueueBounds) {
    this.#bounds = bounds;
  }

  admit(request: AdmissionRequest): Admission {
    const { guildId, userId, voice } = request;
    const queue: GuildQueue = this.#guilds.get(guildId) ?? { seats: new Map(), members: new Map(), requests: 0 };
    const mine = queue.members.get(userId) ?? 0;
    const { guildClips, guildSeconds, memberRequests } = this.#bounds;
    if (request.enforce.member && memberRequests > 0 && mine >= memberRequests)
      throw new Refusal({ code: 'queue-member-full', limit: memberRequests, queued: mine });
    const seat = voice && (queue.seats.get(voice.seat) ?? { clips: 0, seconds: 0 });
    // A lone request always fits (its length is bounded by the command's own maximum): the bound is on waiting.
    if (voice && seat && request.enforce.guild && seat.clips > 0) {
      if (guildClips > 0 && seat.clips + voice.clips > guildClips)
        throw new Refusal({ code: 'queue-guild-full', bound: 'clips', limit: guildClips, queued: seat.clips });
      if (guildSeconds > 0 && seat.seconds + voice.seconds > guildSeconds) {
        const queued = Math.ceil(seat.seconds);
        throw new Refusal({ code: 'queue-guild-full', bound: 'seconds', limit: guildSeconds, queued });
      }
    }
    queue.members.set(userId, mine + 1);
    queue.requests += 1;
    if (voice && seat) {
      seat.clips += voice.clips;
      seat.seconds += voice.seconds;
      queue.seats.set(voice.seat, seat);
    }
    this.#guilds.set(guildId, queue);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (voice && seat) {
          seat.clips -= voice.clips;
          seat.seconds = Math.max(0, seat.seconds - voice.seconds);
          if (seat.clips <= 0 && queue.seats.get(voice.seat) === seat) queue.seats.delete(voice.seat);
        }
        const left = (queue.members.get(userId) ?? 1) - 1;
        if (left > 0) queue.members.set(userId, left);
        else queue.members.delete(userId);
        queue.requests -= 1;
        if (queue.requests === 0 && this.#guilds.get(guildId) === queue) this.#guilds.delete(guildId);
      },
    };
  }

  /** What waits in one seat's voice queue (`seat`: its bot's index). */
  voiceQueue(guildId: string, seat: number): { clips: number; seconds: number } {
    const queue = this.#guilds.get(guildId)?.seats.get(seat);
    return { clips: queue?.clips ?? 0, seconds: queue?.seconds ?? 0 };
  }
}

// The budgets, and the books' checks: whether a request may spend, held before anything is sent and written ahead
// of each paid request (the ledger itself: below).
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

type BudgetRefusal =
  /** botMonthlyChars: the whole bot's month (every server and user install), the operator's alone. */
  | {
      budget: 'guildMonthlyChars' | 'memberDailyChars' | 'botMonthlyChars';
      limit: number;
      used: number;
      needed: number;
      resetAt: Date;
    }
  | { budget: 'memberCooldownSeconds'; limit: number; waitSeconds: number };

/**
 * The cooldown's refusal while `cooldownSeconds` (0: none) have not passed since the member's last spend. The day's
 * and the month's characters are the store's to check (Accounting.#holdCharacters), counting every process's holds.
 */
function cooldownRefusal(cooldownSeconds: number, lastSpendAt: Date | undefined, now: Date): BudgetRefusal | undefined {
  if (cooldownSeconds <= 0 || lastSpendAt === undefined) return undefined;
  const waitMs = lastSpendAt.getTime() + cooldownSeconds * 1000 - now.getTime();
  if (waitMs <= 0) return undefined;
  return { budget: 'memberCooldownSeconds', limit: cooldownSeconds, waitSeconds: Math.ceil(waitMs / 1000) };
}

/** One part of a request as the budget sees it; `free`: cached or in flight. */
export interface PartNeed {
  text: string;
  endpoint: SpendEndpoint;
  characters: number;
  free: boolean;
}

/** How long a dead process's hold lasts; a live request renews its hold every third of this. */
export const BUDGET_HOLD_TTL_MS = 15 * 60_000;

/** How long a request may wait on the store (its guild's turn included) before it is refused. */
const STORE_DEADLINE_MS = 5000;

/** Errors by which PostgreSQL (or the pool) gave up waiting: the store is unavailable, not the request wrong. */
function storeTimedOut(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // 55P03 lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout), 25P03 idle in transaction.
  if (['55P03', '57014', '25P03'].includes(String((error as { code?: unknown }).code))) return true;
  return /timeout exceeded when trying to connect|Query read timeout|Connection terminated/i.test(error.message);
}

/** `work`'s answer, or `late()`'s after `ms`; `work` goes on, and what its late answer leaves is the caller's. */
function byDeadline<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    // Unref'd: a deadline alone never keeps the process up.
    timer = setTimeout(() => resolve(Promise.resolve().then(late)), ms).unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const storageUnavailable = (cause?: unknown) =>
  new Refusal({ code: 'storage-unavailable' }, { level: 'warn', ...(cause === undefined ? {} : { cause }) });

export interface AccountingOptions {
  store: Store;
  budgets: OperatorBudgets;
  /** The whole bot's month, every guild together (BUDGET_BOT_MONTHLY_CHARS); 0 or absent: no limit. */
  botMonthlyChars?: number;
  /** The plan's monthly characters (VOICE_API_PLAN), used until the service reports its own figures. */
  planCharacterLimit: number;
  logger: Logger;
  now?: (() => Date) | undefined;
  /** The API key's fingerprint and the plan: a start under another one clears a used-up month. */
  account?: CurrentAccount;
  /**
   * FREE_VOICE fallback: a plain request refused for money (Money.accept), or a part the service failed before
   * anything was charged (standInForFailure), is spoken by the free voice instead. Absent: false.
   */
  standsIn?: boolean;
  metrics?: Pick<Metrics, 'characters'> | undefined;
  storeDeadlineMs?: number;
  /** This process on the books, the same at every start, so a start settles what the last left (recover()). */
  owner?: string;
}

/** /usage's figures (Accounting.report). */
export type UsageReport = Awaited<ReturnType<Accounting['report']>>;

const REFUSAL_CODES = {
  memberDailyChars: 'budget-member-day',
  guildMonthlyChars: 'budget-guild-month',
  botMonthlyChars: 'budget-bot-month',
} as const;

function budgetRefusal(refusal: BudgetRefusal): Refusal {
  if (refusal.budget === 'memberCooldownSeconds')
    return new Refusal({ code: 'budget-cooldown', waitSeconds: refusal.waitSeconds, limit: refusal.limit });
  const { limit, used, needed, resetAt } = refusal;
  return new Refusal({ code: REFUSAL_CODES[refusal.budget], limit, used, needed, resetAt });
}

/** The bot's books: a request checked before anything is sent, every spend and saving recorded, /usage answered. */
export class Accounting {
  readonly #store: Store;
  readonly #operator: OperatorBudgets;
  readonly #botMonthly: number;
  readonly #planLimit: number;
  readonly #log: Logger;
  readonly #now: () => Date;
  /** This process's requests that may still spend (for the cooldown; the characters are held in the store). */
  readonly #charges = new Set<Charge>();
  readonly #month: UsedUpMonth;
  readonly #ledger: SpendLedger;
  /** Per guild, checks and hold releases run in order, each seeing those before; guilds never wait for each other. */
  readonly #turns = new Map<string, Promise<unknown>>();
  readonly #deadlineMs: number;
  readonly #owner: string;
  /** FREE_VOICE fallback (AccountingOptions.standsIn). */
  readonly standsIn: boolean;
  #renewal: ReturnType<typeof setInterval> | undefined;

  constructor(options: AccountingOptions) {
    this.#store = options.store;
    this.#operator = options.budgets;
    this.#botMonthly = options.botMonthlyChars ?? 0;
    this.#planLimit = options.planCharacterLimit;
    this.#log = options.logger;
    this.#now = options.now ?? (() => new Date());
    this.#month = new UsedUpMonth({ store: this.#store, logger: this.#log, now: this.#now, account: options.account });
    this.#ledger = new SpendLedger(this.#store, this.#log, options.metrics);
    this.#deadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
    this.#owner = options.owner ?? `instance:${randomUUID()}`;
    this.standsIn = options.standsIn ?? false;
  }

  /**
   * Settles what the last run of this owner left, before anything is held or spent: its spends written ahead stay
   * spent, undelivered (maybe charged: never fewer than charged); its holds, now of characters never sent, go.
   * Nothing counts twice: a part's characters left its hold in the transaction that wrote its spend.
   */
  async recover(): Promise<SpendsLeft & { holds: number }> {
    const spends = await this.#store.spends.settleLeftBy(this.#owner);
    const holds = await this.#store.budgets.releaseLeftBy(this.#owner);
    if (spends.accepted > 0 || spends.inFlight > 0 || holds > 0)
      this.#log.warn(
        { code: 'books-settled-after-crash', ...spends, holds },
        'settled what the previous run left on the books: spends accepted or still in flight as spent (undelivered), its holds released',
      );
    return { ...spends, holds };
  }

  /** Stops renewing holds (shutdown): what is still held then expires as after a crash. */
  close(): void {
    clearInterval(this.#renewal);
    this.#renewal = undefined;
  }

  #inTurn<T>(guildId: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#turns.get(guildId) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.#turns.set(guildId, tail);
    void tail.then(() => {
      if (this.#turns.get(guildId) === tail) this.#turns.delete(guildId);
    });
    return run;
  }

  #renewHolds(): void {
    const tokens = [...this.#charges].map((c) => c.hold).filter((t): t is string => t !== undefined);
    if (tokens.length === 0) {
      this.close();
      return;
    }
    const expiresAt = new Date(this.#now().getTime() + BUDGET_HOLD_TTL_MS);
    this.#store.budgets
      .renew(tokens, expiresAt)
      .catch((error: unknown) => this.#log.error({ err: error, holds: tokens.length }, 'could not renew budget holds'));
  }

  get operatorBudgets(): OperatorBudgets {
    return this.#operator;
  }

  async budgetsFor(guildId: string): Promise<OperatorBudgets> {
    return effectiveBudgets(this.#operator, await this.#store.budgets.get(guildId));
  }

  *requestingMembers(guildId?: string): Generator<string> {
    for (const { context } of this.#charges)
      if (guildId === undefined || context.guildId === guildId) yield context.userId;
    yield* this.#ledger.members(guildId);
  }

  /** Forgotten (no `userId`: a guild; no `guildId`: everywhere): what is under way is recorded without their ID. */
  anonymiseRequests(guildId: string | undefined, userId?: string): void {
    const scope = userId === undefined ? 'guild' : 'member';
    const theirs = (c: { guildId: string; userId: string }) =>
      (guildId === undefined || c.guildId === guildId) && (userId === undefined || c.userId === userId);
    for (const charge of this.#charges) if (theirs(charge.context)) charge.anonymise(scope);
    this.#ledger.anonymise(theirs, scope);
  }

  /**
   * Refuses (Refusal) a request the month or a budget cannot take, before any call; else holds its characters until
   * its parts are recorded. Free parts (cached, in flight) cost nothing: a request of only those is never refused.
   * Past the store deadline it is refused as "storage unavailable"; the check stays the guild's turn until the store
   * answers, and lets go of what it held then, so a late answer never leaves a hold behind.
   */
  authorize(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean } = { memberCooldown: true },
  ): Promise<Charge> {
    let late = false;
    const work = this.#inTurn(context.guildId, () => this.#authorize(context, parts, policy, () => late));
    return byDeadline(work, this.#deadlineMs, () => {
      late = true;
      this.#log.warn(
        { code: 'storage-unavailable', ...context, deadlineMs: this.#deadlineMs },
        'the store did not answer in time: request refused',
      );
      throw storageUnavailable();
    }).catch((error: unknown) => {
      throw storeTimedOut(error) ? storageUnavailable(error) : error;
    });
  }

  async #authorize(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean },
    late: () => boolean,
  ): Promise<Charge> {
    const paid = parts.filter((p) => !p.free);
    const needed = paid.reduce((sum, p) => sum + p.characters, 0);
    let hold: string | undefined;
    if (needed > 0) {
      const now = this.#now();
      // Spends the store could not take would make every budget under-count: nothing more is spent until they are in.
      if (this.#ledger.failing && !(await this.#ledger.flush()))
        throw new Refusal({ code: 'spends-unrecorded' }, { level: 'warn' });
      const { guildId, userId } = context;
      const [limits, lastSpend] = await Promise.all([
        this.budgetsFor(guildId),
        this.#store.spends.lastSpendAt(guildId, userId, now),
      ]);
      const mine = (c: Charge) => c.context.guildId === guildId && c.context.userId === userId;
      // A request of theirs that may still spend counts as their last spend. In this process only: a guild's
      // interactions all reach its one shard.
      const pending = [...this.#charges].filter((c) => mine(c) && c.reserved > 0).map((c) => c.createdAt);
      const last = [lastSpend, ...pending]
        .filter((d): d is Date => d !== undefined)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      // Auto-read does not wait out the cooldown (its policy); its spends still count as the member's last.
      const cooldown = cooldownRefusal(policy.memberCooldown ? limits.memberCooldownSeconds : 0, last, now);
      if (cooldown) this.#refuse(context, cooldown, needed);
      // The characters are checked and held by the store in one transaction, counting every process's holds.
      hold = await this.#holdCharacters(context, limits, needed, now);
      // Last, the used-up month: refused only while another request is on its way to find out (the turn is taken
      // by a request as it leaves, never at acceptance: an order waiting in a queue holds nobody back).
      try {
        await this.#month.admit(needed);
      } catch (error) {
        if (hold !== undefined) await this.#releaseNow(hold);
        throw error;
      }
      // Refused at the deadline meanwhile: nothing it held may outlive it (still in the guild's turn).
      if (late()) {
        if (hold !== undefined) await this.#releaseNow(hold);
        throw storageUnavailable();
      }
    }
    const charge = new Charge(this, context, paid, this.#now(), hold);
    this.#charges.add(charge);
    if (hold !== undefined && this.#renewal === undefined) {
      this.#renewal = setInterval(() => this.#renewHolds(), BUDGET_HOLD_TTL_MS / 3);
      this.#renewal.unref?.();
    }
    return charge;
  }

  async #releaseNow(token: string): Promise<void> {
    await this.#store.budgets
      .release(token)
      .catch((error: unknown) =>
        this.#log.error({ err: error }, 'could not release a budget hold; it expires by itself'),
      );
  }

  /** Holds `needed` characters against the character budgets in the store, or throws the refusal; none: no write. */
  async #holdCharacters(
    context: SpendContext,
    limits: OperatorBudgets,
    needed: number,
    now: Date,
  ): Promise<string | undefined> {
    const checked: BudgetHoldLimits = {
      ...(limits.guildMonthlyChars > 0 ? { guildMonthlyChars: limits.guildMonthlyChars } : {}),
      ...(limits.memberDailyChars > 0 ? { memberDailyChars: limits.memberDailyChars } : {}),
      // Every guild's holds and spends count here, so the bot's month holds however long any queue is.
      ...(this.#botMonthly > 0 ? { botMonthlyChars: this.#botMonthly } : {}),
    };
    if (Object.keys(checked).length === 0) return undefined;
    const held = await this.#store.budgets.hold({
      guildId: context.guildId,
      userId: context.userId,
      characters: needed,
      limits: checked,
      ttlMs: BUDGET_HOLD_TTL_MS,
      at: now,
      owner: this.#owner,
    });
    if (held.status === 'held') return held.token;
    const resetAt = held.budget === 'memberDailyChars' ? nextDayStart(now) : nextMonthStart(now);
    this.#refuse(context, { ...held, resetAt }, needed);
  }

  #refuse(context: SpendContext, refusal: BudgetRefusal, needed: number): never {
    this.#log.info({ ...context, budget: refusal.budget, needed }, 'request refused by a budget');
    throw budgetRefusal(refusal);
  }

  /** Queued with the checks, so a check after a request ended never counts its hold; a stuck one expires. */
  releaseHold(token: string, guildId: string): void {
    void this.#inTurn(guildId, () => this.#releaseNow(token));
  }

  /** A charge for spending that was not checked in advance (a clone's follow-up request): recorded all the same. */
  /**
   * Whether a paid request of `characters` would go out only as the one finding out whether characters are back (the
   * month marked used up, or the service's last figure leaving too few): such a request is sent in its order's turn,
   * never fetched ahead of it (OrderPipeline), so the turn is a due order's and its answer is of its moment.
   */
  findsOut(characters: number): Promise<boolean> {
    return this.#month.findsOut(characters);
  }

  unchecked(context: SpendContext): Charge {
    const charge = new Charge(this, context, [], this.#now());
    // Known while it lives, so a deletion on request meanwhile reaches it (it holds nothing, so no cooldown either).
    this.#charges.add(charge);
    return charge;
  }

  /** The charge is over: it no longer counts for its member's cooldown. */
  closed(charge: Charge): void {
    this.#charges.delete(charge);
  }

  /** Spends being written, so that settled() lets them reach the store before it closes. */
  readonly #writing = new Set<Promise<unknown>>();

  #track<T>(task: Promise<T>): Promise<T> {
    this.#writing.add(task);
    const done = () => this.#writing.delete(task);
    task.then(done, done);
    return task;
  }

  /**
   * The free voice's version of a part the service failed, and why, where FREE_VOICE lets it stand in: the month used
   * up, or the service failing before anything was charged; undefined for a failure that may have been charged (the
   * member is told so in its own words) or a part no free voice can say within one of its lines.
   */
  standInForFailure(
    error: unknown,
    request: SpeechRequest,
    text: string,
    prices: Pick<PartPrices, 'standIn'>,
  ): { request: ServiceRequest; cause: StandIn['cause'] } | undefined {
    const cause = this.standsIn ? failingServiceCause(error, text) : undefined;
    const free = cause === undefined ? undefined : standInRequest(request, [text], prices);
    return free === undefined || cause === undefined ? undefined : { request: free, cause };
  }

  /** Waits for the spends being written (shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#writing]);
  }

  /** One part's spend or saving under `charge` (Charge.record). Never throws. */
  async record(charge: Charge, spend: PartSpend): Promise<void> {
    await this.#track(this.#record(charge, spend)).catch((error: unknown) =>
      this.#log.error({ err: error, ...charge.context }, 'could not record a spend'),
    );
  }

  /** Never throws: a refused write is kept (SpendLedger), spending stopped; a paid spend ends a used-up month. */
  async #record(charge: Charge, spend: PartSpend): Promise<void> {
    await this.#ledger.write({
      ...this.#spendOf(charge, spend),
      cached: spend.cached,
      ...(spend.undelivered === true ? { undelivered: true } : {}),
      requestId: spend.requestId,
      service: spend.usage,
    });
    if (!spend.cached) await this.#clearingMonth(this.#month.accepted());
  }

  /** A part's spend under its charge's context (without its member, if forgotten meanwhile). */
  #spendOf({ context, forgotten }: Charge, { endpoint, characters }: PartSpend) {
    return { at: this.#now(), ...context, ...(forgotten === undefined ? {} : { forgotten }), endpoint, characters };
  }

  /**
   * One paid request, in the order it happens: who pays (its order's charge; a part counted free at acceptance, cached
   * or in flight then and gone since, passes the budgets and the month now on a charge of its own, without the
   * cooldown and within what its quote has left); still wanted; written ahead on the books, so that no instant after it
   * leaves (a crash included) finds it off them, or not sent; the client's call; and its answer on the books: accepted
   * at the service's 2xx before its body is read, taken back on a definite "not charged", left spent when no answer
   * came (it may have been charged). Retries are the client's, one call written once. What the service said of the
   * month is kept whatever became of the call. `settle` says how its body ended (a cut past its bound: undelivered).
   */
  async pay<R extends PaidRequest>(
    order: PayingOrder | undefined,
    request: R,
    text: string,
    sending: Sending,
  ): Promise<Paid<R>> {
    const { endpoint } = request;
    const characters = countCharacters(text);
    // No order (tools, tests): on no charge, only still wanted and the month heard.
    const payer =
      order === undefined || order.charge.reserves(text)
        ? order?.charge
        : await this.#latePayer(order, endpoint, text, characters);
    let entry: LedgerEntry | undefined;
    let accepted = false;
    const settle = async (outcome: 'delivered' | 'undelivered', error?: unknown) => {
      try {
        // Only an accepted call is settled here; one ended unaccepted was by the client's `unaccepted`.
        if (accepted && payer !== undefined && entry !== undefined)
          await this.#settleSpend(payer, entry, outcome, error);
      } finally {
        if (payer !== order?.charge) payer?.close();
      }
    };
    try {
      if (!sending.wanted()) throw unwanted();
      if (payer !== undefined) entry = await this.writeAhead(payer, { endpoint, characters, cached: false });
      // Let go of while it was written down: taken back, and never sent.
      if (!sending.wanted()) {
        if (payer !== undefined && entry !== undefined) await this.takeBack(payer, entry);
        throw unwanted();
      }
      const written = entry;
      const options: CallOptions = {
        signal: sending.signal,
        control: sending.control,
        ...(payer === undefined || written === undefined
          ? {}
          : {
              accepted: async (acceptance: Acceptance) => {
                accepted = true;
                await this.confirm(payer, written, acceptance);
              },
              unaccepted: (charged: 'not-charged' | 'unknown') =>
                charged === 'not-charged' ? this.takeBack(payer, written) : this.#unconfirmed(payer, written, sending),
            }),
      };
      let answer: Answer<R>;
      try {
        answer = await send(sending.client, request, options);
      } catch (error) {
        throw await this.#heard(error, characters);
      }
      // Its characters are on the books: the part holds nothing more.
      payer?.release(text);
      return { answer, settle };
    } catch (error) {
      await settle('undelivered', error);
      throw error;
    } finally {
      // Answered (what it told of the month is kept by now), or never sent: the next request may find out.
      if (entry?.turn !== undefined && payer !== undefined) this.releaseHold(entry.turn, payer.context.guildId);
    }
  }

  /** A part counted free at acceptance, to be paid now: its quote's rest taken, then checked as a request of its own. */
  async #latePayer(order: PayingOrder, endpoint: SpendEndpoint, text: string, characters: number): Promise<Charge> {
    const { charge } = order;
    order.late?.take(characters);
    const late = await this.authorize(charge.context, [{ text, endpoint, characters, free: false }], {
      memberCooldown: false,
    });
    if (charge.forgotten !== undefined) late.anonymise(charge.forgotten);
    late.paysFor(charge);
    return late;
  }

  /** Written ahead before it is sent (#sending), its characters counted as spent; a throw means it is not sent. */
  async writeAhead(charge: Charge, spend: PartSpend): Promise<LedgerEntry> {
    const entry = await this.#track(this.#sending(charge, spend));
    charge.count(entry.spend.characters);
    return entry;
  }

  /** The service accepted (and charged) a request written ahead: confirmed. Never throws. */
  confirm(charge: Charge, entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    charge.count(0, entry.spend.characters);
    return this.#track(this.#inTime('accept', entry, this.#accept(entry, answer)));
  }

  /** A definite "not charged": the spend written ahead is taken back. Never throws. */
  takeBack(charge: Charge, entry: LedgerEntry): Promise<void> {
    charge.count(-entry.spend.characters);
    return this.#track(this.#inTime('release', entry, this.#ledger.release(entry)));
  }

  /** Sent and no answer came (reset, timeout, closed as nobody waited): spent, since it may have been charged. */
  #unconfirmed(charge: Charge, entry: LedgerEntry, sending: Sending): Promise<void> {
    const letGo = !sending.wanted();
    const { endpoint, characters } = entry.spend;
    this.#log.warn(
      {
        code: 'api-unconfirmed',
        ...charge.context,
        endpoint,
        characters,
        ...(letGo ? { closed: 'nobody-waits' } : {}),
      },
      letGo
        ? 'sent to the Voice API and closed before its answer, as nobody waited for it any more: counted as spent, since it may have been charged'
        : 'sent to the Voice API and no answer came: counted as spent, since it may have been charged',
    );
    return this.#track(this.#inTime('settle', entry, this.#ledger.settle(entry, 'undelivered')));
  }

  /** An accepted request's audio (or voice ID) arrived, or never will: settled once. Never throws. */
  #settleSpend(charge: Charge, entry: LedgerEntry, outcome: SpendOutcome, error: unknown): Promise<void> {
    if (outcome === 'undelivered') {
      const { endpoint, characters } = entry.spend;
      this.#log.warn(
        {
          code: 'api-undelivered',
          ...charge.context,
          endpoint,
          characters,
          requestId:
            entry.answer === undefined || entry.answer === 'released' ? undefined : entry.answer.accepted.requestId,
          error: error instanceof Error ? error.name : undefined,
        },
        'charged by the Voice API but not delivered: recorded as spent',
      );
    }
    return this.#track(this.#inTime('settle', entry, this.#ledger.settle(entry, outcome)));
  }

  /**
   * What a failed paid call says of the month (the used-up month, below): its figures kept; the service's own 429
   * leaving characters, but fewer than this call needs, is what the caller is told (returned); one leaving none marks
   * the month used up; any other figures may show a used-up month over. Returns what the caller is told.
   */
  async #heard(error: unknown, characters: number): Promise<unknown> {
    const figures = serviceFiguresOf(error);
    if (figures !== undefined) await this.noteServiceFigures(figures);
    // The service itself refusing for the month: its own 429 (the retry rule proved the answer the service's: its
    // headers and its JSON error body).
    const proven = error instanceof QuotaExceededError && accountRefusalProven(error);
    const told = proven ? monthAnswer(error, characters, this.#now()) : error;
    if (told instanceof Refusal) return told;
    if (proven && told === error)
      await this.quotaExceeded(error).catch((e: unknown) =>
        this.#log.error({ err: e }, 'could not record the used-up quota'),
      );
    else await this.observeUsage(figures);
    return told;
  }

  /**
   * Writes ahead a paid request about to be sent: spent from now on (unconfirmed until the service answers), its
   * characters moved out of `hold` in the same transaction; settled later (SpendLedger) or by the next start's
   * recover(). A store that refuses the write is a refusal: the request is not sent. While the month is marked used
   * up, or the service's last figure leaves too few for the part, it goes out only as the one request finding out
   * (the turn, taken here and kept on its entry until its answer: Accounting.pay); with another on its way, it is
   * refused, not sent.
   */
  async #sending(charge: Charge, spend: PartSpend): Promise<LedgerEntry> {
    const { context, hold } = charge;
    let turn: string | undefined;
    const written = (async () => {
      turn = await this.#month.fits(spend.characters, charge.createdAt);
      const owned = { owner: this.#owner, hold, unconfirmed: true };
      const entry = await this.#ledger.writeAhead({ ...this.#spendOf(charge, spend), cached: false, ...owned });
      entry.turn = turn;
      return entry;
    })();
    // Not written ahead (refused, or the store failed or was late): its turn, if it took one, goes at once.
    const letGo = () => {
      if (turn !== undefined) this.releaseHold(turn, context.guildId);
    };
    try {
      const entry = await byDeadline(written, this.#deadlineMs, () => undefined);
      if (entry !== undefined) return entry;
    } catch (error) {
      letGo();
      if (error instanceof Refusal) throw error;
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: context.guildId, characters: spend.characters },
        'could not write down a paid request before sending it: not sent',
      );
      throw storeTimedOut(error)
        ? storageUnavailable(error)
        : new Refusal({ code: 'spends-unrecorded' }, { level: 'warn', cause: error });
    }
    this.#log.warn(
      { code: 'storage-unavailable', ...context, characters: spend.characters, deadlineMs: this.#deadlineMs },
      'the store did not write down a paid request in time: not sent',
    );
    // Never sent: a row the store writes after all is taken back (until then it counts as spent, never fewer).
    void written.then((entry) => {
      letGo();
      return this.#ledger.release(entry);
    }, letGo);
    throw storageUnavailable();
  }

  /** A write changing no count waits no longer than the checks: past that its spend counts as written ahead. */
  #inTime(step: 'accept' | 'settle' | 'release', entry: LedgerEntry, write: Promise<void>): Promise<void> {
    return byDeadline(write, this.#deadlineMs, () => {
      const { guildId, characters } = entry.spend;
      this.#log.warn(
        { code: 'books-write-late', step, guildId, characters, deadlineMs: this.#deadlineMs },
        'the store did not answer in time: the request goes on, its spend stays counted as written ahead',
      );
    });
  }

  /** The service accepted a request written ahead (its 2xx): confirmed; its acceptance ends a used-up month. */
  async #accept(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    const { usage, requestId } = answer;
    await this.#ledger.accept(entry, { requestId, service: usage, at: this.#now() });
    await this.#clearingMonth(this.#month.accepted());
  }

  #clearingMonth(work: Promise<unknown>): Promise<unknown> {
    return work.catch((error: unknown) => this.#log.error({ err: error }, 'could not clear the used-up month'));
  }

  /** Any answer of the service that carried its usage figures (errors too): they may show the quota is back. */
  async observeUsage(usage: UsageInfo | undefined): Promise<void> {
    await this.#clearingMonth(this.#month.observe(usage));
  }

  /** The figures of a refusal proven the service's own, kept as a 2xx's: /usage tells the month as it counts it. */
  async noteServiceFigures(usage: UsageInfo): Promise<void> {
    await this.#store.quota
      .noteService(usage, this.#now())
      .catch((error: unknown) => this.#log.error({ err: error }, "could not keep the service's usage figures"));
  }

  /** A 429 "quota exceeded": the month is marked (see UsedUpMonth); returns when the service says it resets. */
  quotaExceeded(error: QuotaExceededError): Promise<Date> {
    return this.#month.exceeded(error);
  }

  async report(guildId: string, userId: string) {
    const now = this.#now();
    const month = monthOf(now);
    const mark = await this.#month.current();
    const [guild, bot, member, state, limits] = await Promise.all([
      this.#store.spends.monthTotals(month, guildId),
      this.#store.spends.monthTotals(month),
      // What the daily budget counts (a deletion's carry-over included), not the rows that still name the member.
      this.#store.spends.memberDaySpent(guildId, userId, now),
      this.#store.quota.get(),
      this.budgetsFor(guildId),
    ]);
    const service = state.service?.month === month ? state.service : undefined;
    const counted = serviceCount(service, this.#planLimit);
    const exhausted = mark?.resetAt;
    // The service's count stands beside the used-up mark only when it agrees (nothing left).
    const told = counted !== undefined && (mark === undefined || counted.remaining === 0) ? counted : undefined;
    const limit = told?.limit ?? service?.limit ?? this.#planLimit;
    const used = told?.used ?? (mark === undefined ? bot.spent : limit);
    return {
      month,
      at: now,
      // The service's reset date when it sent one, else the 1st of next month, UTC.
      resetAt: exhausted ?? service?.resetAt ?? nextMonthStart(now),
      // Set while the month is marked used up (a 429): requests that would spend are refused until then.
      ...(exhausted === undefined ? {} : { exhaustedUntil: exhausted }),
      guild: { spent: guild.spent, saved: guild.saved, budget: limits.guildMonthlyChars },
      // The whole bot's own monthly budget (0: none) against what SayBot spent this month (`bot.spent`).
      botBudget: this.#botMonthly,
      bot: {
        // The service's count this month (use outside SayBot included), else SayBot's; all of it while used up.
        used,
        fromService: told !== undefined,
        ...(told === undefined ? {} : { countedAt: told.at }),
        spent: bot.spent,
        saved: bot.saved,
        limit,
        remaining: exhausted ? 0 : (told?.remaining ?? Math.max(0, limit - used)),
      },
      member: {
        spentToday: member,
        budget: limits.memberDailyChars,
        resetAt: nextDayStart(now),
        cooldownSeconds: limits.memberCooldownSeconds,
      },
    };
  }
}

/** A paid request as the client sends it. */
export type PaidRequest =
  | { endpoint: 'tts'; body: TtsRequest }
  | { endpoint: 'emotion-tts'; body: EmotionTtsRequest }
  | { endpoint: 'voice-clone'; body: Parameters<VoiceApiClient['cloneVoice']>[0] };

type Answer<R extends PaidRequest> = R extends { endpoint: 'voice-clone' } ? CloneVoiceResponse : AudioResponse;

/** What a paid request is paid on: its order's charge, and what parts counted free at acceptance may still cost. */
interface PayingOrder {
  readonly charge: Charge;
  readonly late?: QuoteAllowance | undefined;
}

/** How a paid request is sent, and whether anyone still waits for it. */
interface Sending {
  client: Pick<VoiceApiClient, 'tts' | 'emotionTts' | 'cloneVoice'>;
  signal?: AbortSignal | undefined;
  /** Asked before it is written ahead and after: nobody waiting, it is not sent (a closed call is told it let go). */
  wanted(): boolean;
  control?: ((call: CallControl) => void) | undefined;
}

/** A paid request's answer, and how its body ended, settled once (a late payer closed then). */
export interface Paid<R extends PaidRequest> {
  answer: Answer<R>;
  settle(outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void>;
}

/** The client's call for a paid request. */
function send<R extends PaidRequest>(client: Sending['client'], request: R, options: CallOptions): Promise<Answer<R>> {
  const call =
    request.endpoint === 'voice-clone'
      ? client.cloneVoice(request.body, options)
      : request.endpoint === 'emotion-tts'
        ? client.emotionTts(request.body, options)
        : client.tts(request.body, options);
  return call as Promise<Answer<R>>;
}

/** A part's request nobody waits for any more before it leaves: nothing sent, nothing paid. */
export function unwanted(): AbortedError {
  return new AbortedError('nobody waits for this part any more: its request was not sent');
}

type AcceptedAnswer = Pick<Acceptance, 'requestId' | 'usage'>;

// The books: a request's permission to spend (Charge, made by Accounting), each paid request written ahead and
// answered once (Accounting.pay), and the ledger of spends in the store (SpendLedger).
interface SpendContext {
  guildId: string;
  userId: string;
  command: string;
}

interface PartSpend {
  endpoint: SpendEndpoint;
  characters: number;
  /** Served from the cache or a flight another request made: nothing spent. */
  cached: boolean;
  /** Charged by the service but never received (UndeliveredError): spent, and marked so. */
  undelivered?: boolean;
  usage?: UsageInfo | undefined;
  requestId?: string | undefined;
}

/** Its characters held from its budget check until recorded: two requests cannot both pass a budget for one. */
export class Charge {
  readonly context: SpendContext;
  /** When its budgets were checked: while it may still spend, a cooldown counts from here. */
  readonly createdAt: Date;
  /** The books that made it: what it holds is given back there. */
  readonly #books: Accounting;
  /** Characters still reserved, per part text (a text may occur twice in one request). */
  readonly #reserved = new Map<string, number[]>();
  /** The store's hold on its characters (seen by every process), until nothing more is reserved. */
  #hold: string | undefined;
  #forgotten: 'member' | 'guild' | undefined;
  #paid = 0;
  #written = 0;
  /** The order's charge a part paid late on this one belongs to: what it pays counts there too. */
  #order: Charge | undefined;

  constructor(
    books: Accounting,
    context: SpendContext,
    reserved: ReadonlyArray<{ text: string; characters: number }>,
    createdAt: Date,
    hold?: string | undefined,
  ) {
    this.#books = books;
    this.context = context;
    this.createdAt = createdAt;
    this.#hold = hold;
    for (const { text, characters } of reserved)
      this.#reserved.set(text, [...(this.#reserved.get(text) ?? []), characters]);
  }

  /** Whether a part of this text was paid for at acceptance (not counted free). */
  reserves(text: string): boolean {
    return this.#reserved.has(text);
  }

  get hold(): string | undefined {
    return this.#hold;
  }

  get reserved(): number {
    let total = 0;
    for (const list of this.#reserved.values()) for (const n of list) total += n;
    return total;
  }

  get forgotten(): 'member' | 'guild' | undefined {
    return this.#forgotten;
  }

  /** Its member (or its whole guild) was forgotten: its spends from now on are recorded without their ID. */
  anonymise(scope: 'member' | 'guild'): void {
    if (this.#forgotten !== 'guild') this.#forgotten = scope;
  }

  /** A part's spend or saving written down (Accounting.record), its characters no longer reserved. Never throws. */
  async record(text: string, spend: PartSpend): Promise<void> {
    try {
      await this.#books.record(this, spend);
    } finally {
      this.release(text);
    }
  }

  /** A part served without a call (the cache, or another request's fetch): its characters saved. Never throws. */
  saved(text: string, endpoint: SpendEndpoint): Promise<void> {
    return this.record(text, { endpoint, characters: countCharacters(text), cached: true });
  }

  /** Characters the service accepted (charged) so far: a later failure is not "nothing done" (paid-part-way.ts). */
  get paid(): number {
    return this.#paid;
  }

  /** Characters counted as spent: `paid`, and those sent with no answer (maybe charged: a stop words them so). */
  get written(): number {
    return this.#written;
  }

  /**
   * Accounting's count of its paid requests: characters written ahead (less those taken back), and accepted; a late
   * part's count is its order's too, so the order's outcome and every stop or revocation word know it was paid.
   */
  count(written: number, paid = 0): void {
    this.#written += written;
    this.#paid += paid;
    this.#order?.count(written, paid);
  }

  /** This charge pays a part of `order`'s counted free at acceptance (Accounting.pay's late payer). */
  paysFor(order: Charge): void {
    this.#order = order;
  }

  /** The part will spend nothing more (it failed, or was recorded). */
  release(text: string): void {
    const list = this.#reserved.get(text);
    list?.shift();
    if (list?.length === 0) this.#reserved.delete(text);
    if (this.#reserved.size === 0) this.#releaseHold();
  }

  close(): void {
    this.#reserved.clear();
    this.#books.closed(this);
    this.#releaseHold();
  }

  // One hold covers the request: a part written ahead leaves it in its spend's own transaction; a part that turned out
  // free stays held until the last part is over (conservative), saving a store write per part.
  #releaseHold(): void {
    if (this.#hold === undefined) return;
    this.#books.releaseHold(this.#hold, this.context.guildId);
    this.#hold = undefined;
  }
}

/** One spend: a saving, or a paid request written ahead (`owner`), then answered and settled once onto its row. */
interface LedgerEntry {
  readonly spend: NewSpend;
  /** The turn to find out whether the month is back, when this request is the one on its way (UsedUpMonth.fits). */
  turn?: string | undefined;
  id?: number;
  /** Accepted (its 2xx), or `released` (a definite "not charged": taken back). None: no answer yet, or never. */
  answer?: { accepted: SpendAcceptance } | 'released';
  answeredInStore?: boolean;
  outcome?: SpendOutcome;
  settledInStore?: boolean;
}

/** Settlements the store refused, kept to retry; past this the oldest is given up (its row stays spent). */
const MAX_UNSETTLED = 10_000;

/**
 * Writes spends to the store. A paid request is written ahead or not sent. A saving the store refuses is kept in
 * memory, in order, and while any is (`failing`) Accounting refuses spending. A refused answer or settlement changes
 * no count; a refused release leaves the spend counted (never fewer). Each is retried with the next write or flush,
 * and a restart settles what is still open (settleLeftBy).
 */
export class SpendLedger {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #unwritten: LedgerEntry[] = [];
  readonly #unsettled: LedgerEntry[] = [];
  readonly #metrics: Pick<Metrics, 'characters'> | undefined;
  #flushing: Promise<boolean> | undefined;
  /** Savings were left untallied in this outage (told once). */
  #droppedSavings = false;

  constructor(store: Store, logger: Logger, metrics?: Pick<Metrics, 'characters'>) {
    this.#store = store;
    this.#log = logger;
    this.#metrics = metrics;
  }

  get failing(): boolean {
    return this.#unwritten.length > 0;
  }

  *members(guildId?: string): Generator<string> {
    for (const { spend } of this.#unwritten) if (guildId === undefined || spend.guildId === guildId) yield spend.userId;
  }

  anonymise(match: (spend: NewSpend) => boolean, scope: 'member' | 'guild'): void {
    for (const { spend } of this.#unwritten) if (match(spend) && spend.forgotten !== 'guild') spend.forgotten = scope;
  }

  /** Writes one spend; resolves once it reached the store, or was kept to write later (operator told). */
  async write(spend: NewSpend): Promise<LedgerEntry> {
    const entry: LedgerEntry = { spend };
    // Counted as billed (or saved) whether or not the store takes it now: the service's bill does not wait.
    this.#metrics?.characters(spend.cached ? 'saved' : 'spent', spend.characters);
    if (this.failing) {
      this.#keep(entry);
      await this.flush();
      return entry;
    }
    try {
      return await this.writeAhead(spend);
    } catch (error) {
      this.#keep(entry);
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: spend.guildId, characters: spend.characters },
        'could not record a spend in the store: it is kept in memory, and requests that would spend characters are refused until the store accepts writes again',
      );
    }
    return entry;
  }

  /**
   * Kept to write once the store takes writes again. Past MAX_UNSETTLED a saving (a cache hit's tally, no money) is
   * not kept; a paid spend always is (spending is refused while any is kept, so only those under way add to them).
   */
  #keep(entry: LedgerEntry): void {
    if (entry.spend.cached && this.#unwritten.length >= MAX_UNSETTLED) {
      if (!this.#droppedSavings)
        this.#log.warn(
          { code: 'savings-not-recorded' },
          'the store still refuses writes: cache hits are no longer tallied',
        );
      this.#droppedSavings = true;
      return;
    }
    this.#unwritten.push(entry);
  }

  /** A paid request's spend before its first byte leaves, unconfirmed. Throws when refused: then it is not sent. */
  async writeAhead(spend: NewSpend): Promise<LedgerEntry> {
    const entry: LedgerEntry = { spend, id: await this.#store.spends.record(spend) };
    if (this.#unsettled.length > 0) void this.#settleAgain();
    return entry;
  }

  /** The service's 2xx: confirmed. Never throws; a refused write is retried with the next flush. */
  async accept(entry: LedgerEntry, acceptance: SpendAcceptance): Promise<void> {
    if (entry.answer !== undefined) return;
    entry.answer = { accepted: acceptance };
    this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /** A definite "not charged": taken back. Never throws; refused, it stays spent until the next flush. */
  async release(entry: LedgerEntry): Promise<void> {
    if (entry.answer !== undefined || entry.outcome !== undefined) return;
    entry.answer = 'released';
    await this.#catchUp(entry);
  }

  /** Settles a spend written ahead, once (one with no answer stays spent, unconfirmed). Never throws. */
  async settle(entry: LedgerEntry, outcome: SpendOutcome): Promise<void> {
    if (entry.outcome !== undefined || entry.answer === 'released' || entry.spend.owner === undefined) return;
    entry.outcome = outcome;
    if (entry.answer === undefined && entry.spend.unconfirmed === true)
      this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /** Tries the unwritten spends (oldest first) and the unsettled ones again; true when no spend is left unwritten. */
  flush(): Promise<boolean> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #catchUp(entry: LedgerEntry): Promise<void> {
    const { id, answer } = entry;
    if (id === undefined) return;
    try {
      if (answer !== undefined && !entry.answeredInStore) {
        if (answer === 'released') await this.#store.spends.release(id, entry.spend);
        else await this.#store.spends.accept(id, answer.accepted);
        entry.answeredInStore = true;
      }
      if (entry.outcome !== undefined && !entry.settledInStore && answer !== 'released') {
        await this.#store.spends.settle(id, entry.outcome);
        entry.settledInStore = true;
      }
    } catch (error) {
      this.#log.warn({ err: error, spend: id }, 'could not settle a spend; it stays spent, and is tried again');
      if (!this.#unsettled.includes(entry)) this.#unsettled.push(entry);
      if (this.#unsettled.length > MAX_UNSETTLED) this.#unsettled.shift();
    }
  }

  async #flushAll(): Promise<boolean> {
    const before = this.#unwritten.length;
    while (this.#unwritten.length > 0) {
      const next = this.#unwritten[0] as LedgerEntry;
      try {
        next.id = await this.#store.spends.record(next.spend);
      } catch (error) {
        this.#log.debug({ err: error, unwritten: this.#unwritten.length }, 'the store still refuses writes');
        return false;
      }
      this.#unwritten.shift();
    }
    this.#droppedSavings = false;
    if (before > 0)
      this.#log.warn(
        { code: 'spends-recorded-again', written: before },
        'the store accepts writes again: every spend kept in memory is recorded',
      );
    await this.#settleAgain();
    return true;
  }

  async #settleAgain(): Promise<void> {
    for (const entry of this.#unsettled.splice(0)) await this.#catchUp(entry);
  }
}

// The used-up month: the service's own 429 "quota exceeded" marks it, and the mark must never outlive the operator
// fixing it. Every paid call runs under it (Accounting.pay): such a 429 marks the month used up before the caller
// hears of it, unless the service says characters are left (only this request is too long for them: that is what
// the caller is told); any other answer's usage figures may show that a used-up month is over. Only the service may
// say the month is used up: a 429 whose answer the retry rule (src/core/api/response.ts) does not prove the service's
// own, with its usage figures (a rate-limiting proxy's page, a gateway's JSON without the service's figures), is a
// refusal on the way, worded as what SayBot knows, and marks nothing, as a gateway's 401 or 403 does. The service's
// last figure of what is left (below) is a hint the same way: a request it leaves too few for goes out
// one at a time, through the same turn, so characters bought or a new month are seen at the next request.
/** The account SayBot runs under now: a change since the month was marked means the operator acted. */
interface CurrentAccount {
  /** A fingerprint of the API key (VoiceApiClient.keyFingerprint), never the key. */
  fingerprint: string;
  /** VOICE_API_PLAN. */
  plan: string;
}

/**
 * The turn to probe is a one-character hold in the store under a guild no Discord guild can have (snowflake 0),
 * limited to one: the store's check-and-hold is serialised across processes, so one request at a time goes out
 * from all shards together, and a turn whose process died ends by itself after PROBE_TURN_MS. Nothing counts
 * this guild's holds against a real budget but the bot-wide one, which counts the turn as one character while it
 * lasts (a bound one character on the safe side).
 */
const PROBE_TURN = { guildId: '0', userId: 'quota-probe' } as const;

/**
 * A turn whose request has not had its answer by then no longer blocks the next one: its process may have died with
 * it on its way (the turn is taken as a request leaves and given back once its answer is in).
 */
export const PROBE_TURN_MS = 30_000;

/**
 * The used-up month: a 429 "quota exceeded" marks it, and it must never outlive the operator fixing it.
 *
 * While marked, one request at a time goes out (a 429 bills nothing, so asking costs nothing): the turn is the
 * request's as it leaves (Accounting's write ahead) until its answer, never an order's waiting in a queue; meanwhile
 * the others are refused, naming the mark, at acceptance or as their part is about to leave. The mark is cleared
 * by: the first request the service accepts; any
 * answer that shows characters left or a higher monthly limit than when it was marked (a plan upgrade or a
 * top-up shows so); a start under another API key or plan; and the reset date passing. It never depends on the
 * configured plan alone: the service's own answers decide.
 */
class UsedUpMonth {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #account: CurrentAccount | undefined;
  #started: Promise<void> | undefined;
  /** This start: the service's figures kept from before it are not taken without a new answer. */
  readonly #since: Date;

  constructor(options: { store: Store; logger: Logger; now: () => Date; account?: CurrentAccount | undefined }) {
    this.#store = options.store;
    this.#log = options.logger;
    this.#now = options.now;
    this.#account = options.account;
    this.#since = options.now();
  }

  /** Clears, once per start, a mark made under another key or plan: the operator changed what the 429 was about. */
  #start(): Promise<void> {
    this.#started ??= (async () => {
      const mark = (await this.#store.quota.get()).exhausted;
      const account = this.#account;
      if (!mark || !account) return;
      const keyChanged = mark.account !== undefined && mark.account !== account.fingerprint;
      const planChanged = mark.plan !== undefined && mark.plan !== account.plan;
      if (keyChanged || planChanged)
        await this.#clear(
          keyChanged
            ? 'the API key changed since the month was marked used up'
            : 'the plan changed since the month was marked used up',
        );
    })().catch((error: unknown) => {
      this.#started = undefined; // tried again next time
      throw error;
    });
    return this.#started;
  }

  /** The mark, if the month is marked; a mark whose reset date has passed is cleared on the way. */
  async current(): Promise<QuotaState['exhausted']> {
    return this.#markOf(await this.#state());
  }

  /** The quota row, once this start's mark under another key or plan is cleared. */
  async #state(): Promise<QuotaState> {
    await this.#start();
    return this.#store.quota.get();
  }

  async #markOf(state: QuotaState): Promise<QuotaState['exhausted']> {
    const mark = state.exhausted;
    if (mark && mark.resetAt <= this.#now()) {
      await this.#clear('the reset date has passed');
      return undefined;
    }
    return mark;
  }

  /**
   * At acceptance, for a request that would spend `needed` characters: refused (Refusal, naming the mark or the figure)
   * only while the month is marked or the service's last figure leaves too few (knownTooFew) and another request is on
   * its way to find out; otherwise accepted, holding nothing: the turn is taken as a request leaves (fits).
   */
  async admit(needed: number): Promise<void> {
    const refusal = await this.#refusal(needed);
    if (refusal === undefined) return;
    const turn = await this.#takeTurn();
    if (turn === undefined) throw asking(refusal);
    await this.#store.budgets.release(turn);
  }

  /** Whether a request of `characters` would have to find out (fits would take the turn for it). */
  async findsOut(characters: number): Promise<boolean> {
    return (await this.#refusal(characters, true)) !== undefined;
  }

  /**
   * A part about to be sent: nothing when the month is not marked and the figure leaves enough; else the turn (its
   * token, released by Accounting.pay once the answer is in), so this request goes out to find out; or, with another
   * on its way, refused, nothing sent. One read of the quota row when nothing stands in the way.
   */
  async fits(characters: number, acceptedAt: Date): Promise<string | undefined> {
    const refusal = await this.#refusal(characters, true);
    if (refusal === undefined) return undefined;
    // Said since its order was accepted (its own earlier part's answer, or another's): the service's word is fresher
    // than the order, so asking again would only hear it again, and nobody else is asking: told as the service said it.
    // Only an order accepted after it goes out to find out.
    const { reason } = refusal;
    if (reason.code === 'quota-used-up' && reason.markedAt > acceptedAt) throw refusal;
    if (reason.code === 'quota-too-few-left' && reason.saidAt !== undefined && reason.saidAt > acceptedAt) {
      const { saidAt: _, ...said } = reason;
      throw new Refusal(said, { level: 'warn' });
    }
    const turn = await this.#takeTurn();
    if (turn === undefined) {
      this.#log.info({ code: reason.code, needed: characters }, 'not sent: another request is finding out');
      throw asking(refusal);
    }
    if (reason.code === 'quota-too-few-left')
      this.#log.info(
        { code: 'quota-too-few-left', left: reason.left, needed: characters },
        "the service's last figure leaves too few characters: this request goes out to find out whether more were bought",
      );
    else
      this.#log.info(
        { resetAt: reason.code === 'quota-used-up' ? reason.resetAt.toISOString() : undefined },
        'monthly quota marked used up: this request goes out to find out whether it is back',
      );
    return turn;
  }

  /**
   * What a request of `needed` characters is told while another finds out: the mark, or the service's last figure
   * with when it said so; undefined when neither stands in the way. `sending`: the part is about to leave.
   */
  async #refusal(needed: number, sending = false): Promise<Refusal | undefined> {
    const state = await this.#state();
    const mark = await this.#markOf(state);
    const at = this.#now();
    if (mark !== undefined)
      return new Refusal({
        code: 'quota-used-up',
        markedAt: mark.markedAt,
        resetAt: mark.resetAt,
        ...(sending ? { beforeSending: true as const } : {}),
      });
    const tooFew = knownTooFew(state.service, needed, at, this.#since);
    return tooFew && tooFewLeft(tooFew, needed, at);
  }

  /** The one turn to find out, shared by every process; undefined while another request holds it. */
  async #takeTurn(): Promise<string | undefined> {
    const turn = await this.#store.budgets.hold({
      ...PROBE_TURN,
      characters: 1,
      limits: { guildMonthlyChars: 1 },
      ttlMs: PROBE_TURN_MS,
      at: this.#now(),
    });
    return turn.status === 'held' ? turn.token : undefined;
  }

  /**
   * The service accepted a request: the month is not (or no longer) used up. A month not marked has nothing its
   * figures could end (observe only clears a mark), so one read of the mark is all it takes.
   */
  async accepted(): Promise<void> {
    if ((await this.#store.quota.get()).exhausted) await this.#clear('the service accepted a request');
  }

  /** Any answer carrying the service's figures: characters left, or a higher limit than when marked, end the mark. */
  async observe(usage: UsageInfo | undefined): Promise<void> {
    if (usage === undefined) return;
    const mark = (await this.#store.quota.get()).exhausted;
    if (!mark) return;
    if (usage.remaining !== undefined && usage.remaining > 0) {
      await this.#clear(`the service reports ${usage.remaining} characters left`);
    } else if (usage.limit !== undefined && mark.limit !== undefined && usage.limit > mark.limit) {
      await this.#clear(`the service reports a higher monthly limit (${usage.limit}, was ${mark.limit})`);
    }
  }

  /**
   * A 429 "quota exceeded": refuse what would spend until the service's reset date (else the 1st of next month,
   * UTC), or until one of the clearing events. Returns the reset date.
   */
  async exceeded(error: QuotaExceededError): Promise<Date> {
    const now = this.#now();
    const said = error.rateLimit?.resetAt;
    const resetAt = said !== undefined && said > now ? said : nextMonthStart(now);
    const state = await this.#store.quota.get();
    const limit = error.rateLimit?.limit ?? (state.service?.month === monthOf(now) ? state.service.limit : undefined);
    const by: QuotaMarkAccount = { account: this.#account?.fingerprint, plan: this.#account?.plan, limit };
    await this.#store.quota.markExhausted(resetAt, now, by);
    this.#log.error(
      { code: 'quota-used-up', resetAt: resetAt.toISOString(), limit },
      'monthly quota used up: one request at a time goes out to see whether it is back; upgrading the plan, buying characters or changing the key ends this at the next request',
    );
    return resetAt;
  }

  async #clear(why: string): Promise<void> {
    if (await this.#store.quota.clearExhausted())
      this.#log.warn({ code: 'quota-available-again', reason: why }, `monthly quota no longer marked used up: ${why}`);
  }
}

/** The refusal of `needed` characters the service's last figure (`tooFew`) leaves too few for. */
/** A refusal told while another request is on its way to find out whether the month is back. */
function asking(refusal: Refusal): Refusal {
  const { reason } = refusal;
  return reason.code === 'quota-used-up' ? new Refusal({ ...reason, asking: true }) : refusal;
}

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
/** The usage figures of a failed call, when the answer is provably the service's own (retry.ts); else undefined. */
function serviceFiguresOf(error: unknown): UsageInfo | undefined {
  if (!(error instanceof VoiceApiError) || error.status === undefined || error.rateLimit === undefined)
    return undefined;
  if (!error.fromService && error.charge !== 'not-charged') return undefined;
  const { retryAfterSeconds: _, ...usage } = error.rateLimit;
  return Object.keys(usage).length === 0 ? undefined : usage;
}

/**
 * What the kept figures of this month say of the whole bot's month, when the service sent any: used and left by its
 * own count (`planLimit` if it sent no limit), and when it said so.
 */
function serviceCount(service: QuotaState['service'], planLimit: number) {
  if (service === undefined) return undefined;
  const limit = service.limit ?? planLimit;
  const { used, remaining } = service;
  if (used === undefined && remaining === undefined) return undefined;
  return {
    used: used ?? Math.max(0, limit - (remaining ?? 0)),
    remaining: remaining ?? Math.max(0, limit - (used ?? 0)),
    limit,
    at: service.updatedAt,
  };
}

/**
 * What is left by the service's last word, when that word leaves fewer than `needed` but some: a hint that a request of
 * `needed` will be refused, so only one at a time goes out to find out (UsedUpMonth): characters bought or a new
 * month are seen at the next answer. The word lapses at its reset date, and one kept from before `since` (this start)
 * is not taken without a new answer. Nothing left at all is the used-up month's.
 */
function knownTooFew(
  service: QuotaState['service'],
  needed: number,
  now: Date,
  since: Date,
): { left: number; resetAt?: Date; saidAt: Date } | undefined {
  const left = service?.remaining;
  if (service === undefined || left === undefined || left <= 0 || needed <= left) return undefined;
  if (service.month !== monthOf(now) || service.updatedAt < since) return undefined;
  if (service.resetAt !== undefined && service.resetAt <= now) return undefined;
  return { left, saidAt: service.updatedAt, ...(service.resetAt === undefined ? {} : { resetAt: service.resetAt }) };
}
