// Money's one owner: who pays for each part of an order, or why not. Everything that speaks asks here and nothing
// else decides: the queue bounds, the free-request rate, the budgets and the month (Accounting), the quote ceiling and
// cache-only, the free voice standing in for a refusal or a failing service, a part paid late; and, once the order is
// delivered, its charge settled and what it paid said with its outcome.
import {
  ConnectionError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  type VoiceApiError,
} from '../api/errors.ts';
import { Refusal, type RefusalReason } from '../refusal.ts';
import type { ServiceRequest, SpeechRequest } from '../settings/speech-request.ts';
import { isEngineVoice, isFreeVoice } from '../free-voice/free-voices.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import type { SpendEndpoint } from '../store/quota-store.ts';
import type { Accounting, PartNeed } from './accounting.ts';
import type { Charge, SpendContext } from './charge.ts';
import { afterPaying } from './paid-part-way.ts';
import { SpeechInputError } from '../order-errors.ts';
import { enforcementFor, fitsFreeLine, QueueBook, type Admission, type QueueBounds } from './seconds-bounds.ts';
import { countCharacters } from '../characters.ts';

/** One line of an order: its request and its text split into parts. */
export interface PricedLine {
  readonly request: SpeechRequest;
  readonly texts: readonly string[];
}

/** What the money reads of an order at acceptance. */
export interface OrderToPay<Line extends PricedLine> {
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
export interface PartPrices {
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
  /** What it may still pay for parts counted free at acceptance (latePayer). */
  late?: QuoteAllowance | undefined;
}

export interface MoneyOptions {
  accounting: Accounting;
  prices: PartPrices;
  queue?: QueueBounds | undefined;
  /** Requests costing no characters one member may make per minute in a server; 0 or absent: no limit. */
  freePerMinute?: number | undefined;
  now?: (() => Date) | undefined;
  /** FREE_VOICE fallback: a request refused for money is spoken in the free voice instead. */
  standsIn: boolean;
  /** Counts a line a free voice spoke (for /usage); absent: not counted. */
  countFreeLine?: ((guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker) => void) | undefined;
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
  readonly #standsIn: boolean;
  readonly #countFreeLine: MoneyOptions['countFreeLine'];
  /** The last price lookup: each settles after the one before, so orders are checked in the order asked. */
  #lookups: Promise<unknown> = Promise.resolve();

  constructor(options: MoneyOptions) {
    this.#accounting = options.accounting;
    this.#prices = options.prices;
    this.#queue = new QueueBook(options.queue ?? { guildSeconds: 0, guildClips: 0, memberRequests: 0 });
    const now = options.now;
    this.#freeRate = new FreeRequestRate(
      options.freePerMinute ?? 0,
      now === undefined ? Date.now : () => now().getTime(),
    );
    this.#standsIn = options.standsIn;
    this.#countFreeLine = options.countFreeLine;
  }

  /** One piece of free work that is not speech (a /usage chart) against the member's free-request rate. */
  takeFreeWork(guildId: string, userId: string): void {
    this.#freeRate.take(guildId, userId);
  }

  /**
   * Who pays for each part of `order`, checked in this order: a full queue (costs nothing to refuse), then the
   * budgets and the month; refused there for money, a plain request is spoken by the free voice at no charge. Throws
   * the refusal otherwise; nothing is held then. `voice`: the clips and seconds it adds to its guild's queue.
   */
  async accept<Line extends PricedLine>(
    order: OrderToPay<Line>,
    voice: { clips: number; seconds: number } | undefined,
  ): Promise<Accepted<Line>> {
    const { requester } = order;
    const ready = order.lines.some((line) => line.request.kind === 'ready');
    const admission = this.#queue.admit({
      guildId: requester.guildId,
      userId: requester.userId,
      ...(voice === undefined ? {} : { voice }),
      enforce: enforcementFor({ queueBounded: requester.policy.queueBounded, paid: order.followUp || ready }),
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
    charge.close();
    order.admission.release();
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
      ...(endedEarly(result.kind) && charge.written > 0 ? { spentSome: true as const } : {}),
      ...(freeVoice === undefined ? {} : { freeVoice: paidBefore > 0 ? { ...freeVoice, paidBefore } : freeVoice }),
      ...(lineCutAt === undefined || result.kind === 'failed' ? {} : { lineCutAt }),
    };
    if (told.kind !== 'failed') this.#countFreeLines(order, told.freeVoice);
    return told;
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
    if (!this.#standsIn || order.scene || only === undefined || !(refusal instanceof Refusal)) return undefined;
    if (!FOR_MONEY.has(refusal.reason.code)) return undefined;
    const { request, texts } = only;
    if (request.kind === 'ready' || isFreeVoice(request.voice)) return undefined;
    const free = this.#prices.standIn(request);
    if (free === undefined || !texts.every((text) => fitsFreeLine(text, free.voice))) return undefined;
    return [{ ...only, request: free }];
  }

  #inOrder<T>(lookup: Promise<T>): Promise<T> {
    const turn = this.#lookups.then(() => lookup);
    this.#lookups = turn.catch(() => undefined);
    return turn;
  }

  /** Each line a free voice was chosen for, or the one line said in place of the paid voice. */
  #countFreeLines(order: DeliveredOrder, freeVoice: SettledOutcome['freeVoice']): void {
    const count = (cause: FreeVoiceCause, voice: string) =>
      this.#countFreeLine?.(order.charge.context.guildId, cause, freeSpeakerOf(voice));
    // An engine's voice that eSpeak NG spoke for: a free voice chosen all the same, never one in place of a paid one.
    if (freeVoice?.cause === 'engine-failed') count('chosen', freeVoice.voice);
    else if (order.fallback !== undefined || freeVoice !== undefined)
      count('fallback', freeVoice?.voice ?? order.lines[0]?.request.voice ?? '');
    else
      for (const line of order.lines)
        if (line.request.kind !== 'ready' && isFreeVoice(line.request.voice)) count('chosen', line.request.voice);
  }
}

/** What settling reads of a delivered order. */
export interface DeliveredOrder {
  readonly charge: Charge;
  readonly admission: Admission;
  readonly lines: readonly PricedLine[];
  readonly fallback: Refusal | undefined;
  readonly freeVoice: { voice: string; cause: string } | undefined;
  readonly lineCutAt: number | undefined;
  /** The failure after paid parts that left its file holding only those. */
  readonly restFailed: unknown;
}

/** The outcome's fields settling reads and adds. */
interface SettledOutcome {
  kind: string;
  error?: unknown;
  freeVoice?: { voice: string; cause: string; paidBefore?: number };
  partWay?: unknown;
  spentSome?: true;
  lineCutAt?: number;
}

/**
 * Who pays for a part about to be sent: its order's charge, unless the part was counted free at acceptance (cached
 * or in flight then, gone since): then it passes the budgets and the month now, on a charge of its own, and only
 * within what its quote has left (a cache-only replay's part is refused: nothing is what it may cost).
 */
export async function latePayer(
  accounting: Accounting | undefined,
  order: { readonly charge: Charge; readonly late?: QuoteAllowance | undefined } | undefined,
  endpoint: SpendEndpoint,
  text: string,
): Promise<Charge | undefined> {
  const charge = order?.charge;
  if (order === undefined || charge === undefined || charge.reserves(text)) return charge;
  const characters = countCharacters(text);
  order.late?.take(characters);
  if (accounting === undefined) return charge;
  return accounting.authorizeLate(charge, { text, endpoint, characters, free: false });
}

const SERVICE_FAILED = [ServerError, TimeoutError, ConnectionError, QuotaExceededError, RateLimitedError];

/**
 * The service failing to answer before anything was charged, or the month found used up before the part was sent:
 * the free voice may stand in. A failure that may have been charged is not: the member is told so in its own words.
 */
export function failedUncharged(error: unknown): boolean {
  if (monthUsedUp(error)) return true;
  return SERVICE_FAILED.some((type) => error instanceof type) && (error as VoiceApiError).charge === 'not-charged';
}

/** The month used up: the service's own 429 (not charged), or the books' mark of it met before the part was sent. */
export function monthUsedUp(error: unknown): boolean {
  if (error instanceof Refusal) return error.reason.code === 'quota-used-up' && error.reason.beforeSending === true;
  return error instanceof QuotaExceededError && error.charge === 'not-charged';
}

function contextOf(order: { readonly requester: OrderToPay<PricedLine>['requester'] }): SpendContext {
  const { guildId, userId, command } = order.requester;
  return { guildId, userId, command };
}

/** An order in voice that ended before its end: what it spent is said with it (heard or not). */
function endedEarly(kind: string): boolean {
  return kind === 'stopped' || kind === 'skipped' || kind === 'cut-off';
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

// How often one member may ask for what costs no characters: a line in a free voice (eSpeak NG's or an engine's, one
// standing in for the paid voice too), a cache hit, another speed or volume, a replay, a file made into a voice
// message, a scene's preview, a /usage chart. None of it spends, so no budget sees it, yet each may cost a render and a
// cache entry every server shares. Per member per server in a sliding minute, in memory (a restart forgets it).
/** Members remembered at once; past it the oldest window is dropped (it can only make a member's count smaller). */
const MAX_MEMBERS = 10_000;
const WINDOW_MS = 60_000;

class FreeRequestRate {
  readonly #perMinute: number;
  readonly #now: () => number;
  /** When each member's recent free requests were taken, oldest first; at most `perMinute` each. */
  readonly #taken = new Map<string, number[]>();

  /** `perMinute` 0: no limit. */
  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Counts one free request of the member, or refuses it (Refusal free-rate) when their minute is full. */
  take(guildId: string, userId: string): void {
    if (this.#perMinute === 0) return;
    const key = `${guildId}:${userId}`;
    const now = this.#now();
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
