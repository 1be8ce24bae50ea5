// Where each part of an order comes from: the audio cache, a flight already under way for the same audio (who leads
// it and who saves, #fetchOriginal), the Voice API (paid: its steps, still wanted among them, awaited in turn by
// src/core/quota/paid-call.ts; the request itself, src/core/sourcing/part-request.ts), or the free voice
// (eSpeak NG or an owner's engine, or standing in where src/core/sourcing/stand-in.ts says); another speed or volume
// is changed in the audio worker.
import { changesAudio } from '../audio/effects/effect-types.ts';
import { engineOf, espeakVoice, isFreeVoice } from '../voice-catalogue/voices.ts';
import { requireVoice, voiceRefusal, type Speakers } from './voice-choice.ts';
import { Readable } from 'node:stream';
import type { CloneVoiceResponse, VoiceApiClient } from '../api/client.ts';
import type { OpusSettings } from '../audio/codecs/opus-settings.ts';
import { cachedPart, OPUS_ENCODER_SETTINGS } from '../cache/audio-fill.ts';
import type { AudioCache } from '../cache/audio-cache.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import { PayerLeftError, paidCall, unwanted } from '../quota/paid-call.ts';
import type { Charge, PaidCalls, PartNeed } from '../quota/paid-call.ts';
import type { StandIn, ServiceRequest, SpeechRequest } from '../settings/speech-request.ts';
import type { FetchedPart, OrderAccount, SpeechAudio } from './order-account.ts';
import { speakFreeLine, type FreeVoiceRules } from '../free-voice/free-voice-engine.ts';
import type { EnginePort } from './engine-port.ts';
import { countCharacters } from '../characters.ts';
import { abortable } from '../abortable.ts';
import { ChangedParts } from './changed-parts.ts';
import { effectsKey, endpointOf, partCacheKey, serviceBody, withoutEffects } from './part-request.ts';
import { StandIns, type StandInVoices } from './stand-in.ts';
import { SingleFlight, Waiters, filled, lookUp, type FlightAudio, type PartStore } from './flights.ts';

/** One part's audio for `order` (PartSource.fetchPart); what its fetch learnt is recorded before the audio goes on. */
export async function orderedPart(
  source: Pick<PartSource, 'fetchPart'>,
  request: SpeechRequest,
  text: string,
  signal: AbortSignal,
  order?: OrderAccount,
): Promise<SpeechAudio> {
  return recorded(await source.fetchPart(request, text, signal, order), request, order);
}

/** What a fetch learnt, recorded for `order` before its audio goes on; its failure thrown. */
export function recorded(part: FetchedPart, request: SpeechRequest, order: OrderAccount | undefined): SpeechAudio {
  order?.learnt?.(part, request);
  if ('failure' in part) throw part.failure;
  return part.audio;
}

interface PartSourceOptions {
  client: VoiceApiClient;
  logger: Logger;
  /** Absent: every part is fetched (identical parts in flight at once still share one call). */
  cache?: AudioCache;
  /** The books every paid call is written in (paidCall). */
  accounting: Accounting;
  /** Counts cache lookups (hit or miss). */
  metrics?: Pick<Metrics, 'cacheLookup'> | undefined;
  /** How parts are encoded to Opus packets (default OPUS_ENCODER_SETTINGS; start-saybot.ts' VoicePlaneOptions). */
  encoding?: Readonly<OpusSettings>;
  /** What free voices may do here (freeVoiceRules): eSpeak NG's parts cost nothing, cached like any. Absent: nothing. */
  freeVoice?: FreeVoiceRules;
  // The owner's speech engines (VOICEVOX_URL, SPEECH_SERVER_URL): their voices' parts cost nothing, cached like any;
  // one that fails is spoken by eSpeak NG where the free voice can speak. Absent: their voices refused.
  engines?: EnginePort | undefined;
  /** FREE_VOICES: which free voice stands in, per language, when the paid one may not. Absent: eSpeak NG's. */
  freeChoice?: StandInVoices | undefined;
}

// Deleted cloned voices remembered by this process: enough for the requests accepted before a deletion; one forgotten
// after that is refused all the same, by the server's voice library and the purged cache.
const MAX_DELETED_VOICES = 10_000;

/**
 * A fetched part is read to its end and cached even when its caller stops listening once the service began to answer:
 * it was paid when accepted, and the next identical request gets it for nothing. One nobody waits for any more before
 * that (its callers, and orders that counted it free as in flight) is closed, or never sent (flights.ts `Waiters`).
 */
export class PartSource {
  readonly #client: VoiceApiClient;
  readonly #log: Logger;
  readonly #cache: AudioCache | undefined;
  /** The cache and what counts and encodes its parts, as the changed parts use them too. */
  readonly #store: PartStore;
  readonly #accounting: Accounting;
  /** How its paid calls go: on these books, through this client, abandoned at shutdown. */
  readonly #paying: PaidCalls;
  /** How every part this source hands out is encoded to Opus packets (src/core/order/clips.ts reads it for parts handed in whole). */
  readonly encoding: Readonly<OpusSettings>;
  readonly #flights = new SingleFlight<Fetching>();
  // The flight each part was counted free by, kept for its order (by `waits`, then the part's key) until it ends: it
  // gets that flight's audio or failure, never a later one's. Bounded: one a part, the orders by QueueBook's caps.
  readonly #kept = new Map<AbortSignal, Map<string, Fetching>>();
  /** Parts at another speed or volume, changed in the audio worker (ChangedParts, below). */
  readonly #changed: ChangedParts;
  readonly #shutdown = new AbortController();
  readonly freeVoice: FreeVoiceRules;
  readonly #engines: EnginePort | undefined;
  /** Whether and which free voice speaks in place of a paid one or of an engine's failed voice, with what request. */
  readonly standIns: StandIns;
  /** Cloned voices deleted since start, oldest first: no part in them is fetched, heard or cached again. */
  readonly #deleted = new Set<string>();

  constructor(options: PartSourceOptions) {
    this.#client = options.client;
    this.#log = options.logger;
    this.#cache = options.cache?.enabled ? options.cache : undefined;
    this.#accounting = options.accounting;
    this.#paying = { books: this.#accounting, client: this.#client, signal: this.#shutdown.signal };
    this.encoding = options.encoding ?? OPUS_ENCODER_SETTINGS;
    this.freeVoice = options.freeVoice ?? { chosen: false, standsIn: false, espeak: false };
    this.#engines = options.engines;
    this.standIns = new StandIns(this.freeVoice, this.#engines, options.freeChoice);
    this.#store = { cache: this.#cache, metrics: options.metrics, log: this.#log, encoding: this.encoding };
    this.#changed = new ChangedParts(this.#store, {
      key: partCacheKey,
      fetch: (request, text, signal, order) => this.#fetchOriginal(request, text, signal, order),
      saved: (charge, request, text) => this.#saved(charge, request, text),
    });
  }

  /**
   * What each part will cost: nothing when cached or being fetched (at another speed or volume: its original, or the
   * changed part cached). One counted free as in flight is waited for with `waits` from now on, as by a joiner.
   */
  needs(request: SpeechRequest, texts: readonly string[], waits?: AbortSignal): Promise<PartNeed[]> {
    return Promise.all(
      texts.map(async (text) => {
        const free =
          request.kind === 'ready' ||
          isFreeVoice(request.voice) ||
          (await this.#changedCached(request, text)) ||
          (await this.#originalFree(request, text, waits));
        const key = request.kind === 'ready' ? text : partCacheKey(withoutEffects(request), text);
        return { text, key, endpoint: endpointOf(request), characters: countCharacters(text), free };
      }),
    );
  }

  async #originalFree(request: ServiceRequest, text: string, waits: AbortSignal | undefined): Promise<boolean> {
    const key = partCacheKey(withoutEffects(request), text);
    const flight = this.#flights.get(key);
    if (flight !== undefined && waits !== undefined && !waits.aborted) {
      flight.waiters.join(waits);
      const mine = this.#kept.get(waits);
      if (mine === undefined) waits.addEventListener('abort', () => this.#kept.delete(waits), { once: true });
      this.#kept.set(waits, (mine ?? new Map<string, Fetching>()).set(key, flight));
    }
    return flight !== undefined || ((await this.#cache?.has(key, request.voice)) ?? false);
  }

  async #changedCached(request: ServiceRequest, text: string): Promise<boolean> {
    if (!changesAudio(request.effects) || !this.#cache) return false;
    return this.#cache.has(effectsKey(partCacheKey(withoutEffects(request), text), request.effects), request.voice);
  }

  /** What may speak here now, as the rule asks it (voice-choice.ts `requireVoice`). */
  get speakers(): Speakers {
    return { deleted: this.#deleted, freeVoice: this.freeVoice, engines: this.#engines };
  }

  /**
   * One part's fetch, recorded against its order's charge: its audio or its failure, with what the order learns here
   * (the free voice that stood in, a free line cut at its cap), which the order records itself. `signal` ends this
   * caller's wait, not the shared fetch.
   */
  async fetchPart(
    request: SpeechRequest,
    text: string,
    signal: AbortSignal,
    order?: OrderAccount,
  ): Promise<FetchedPart> {
    if (request.kind === 'ready') return { audio: request.response };
    let stoodIn: StandIn | undefined;
    // eSpeak NG standing in for an engine's voice: said under the cause it stood in for already (the refusal for money at
    // acceptance, or the service failing this part), if it did.
    const engineStoodIn = (stood: StandIn) =>
      (stoodIn = { ...stood, cause: stoodIn?.cause ?? order?.fallback ?? stood.cause });
    let audio: SpeechAudio | undefined;
    try {
      requireVoice(request.voice, this.speakers);
      try {
        // The service already failed this order (a stand-in for the service, not for an engine): its other parts go to the free
        // voice at once, not each after another wait for the service to fail again (but for one too long for its line).
        const failed = order?.standIn?.cause === 'engine-failed' ? undefined : order?.standIn;
        const asked = (failed ? this.standIns.request(request, [text]) : undefined) ?? request;
        if (failed && asked !== request) stoodIn = { voice: asked.voice, cause: failed.cause };
        audio = await this.#fetchOrStandIn(asked, text, signal, order, engineStoodIn);
      } catch (error) {
        // The service failed before anything was charged: where a free voice may stand in for it, it says this part,
        // and the front-end says so.
        const stand = order === undefined ? undefined : this.standIns.forFailure(order, error, request, text);
        if (stand === undefined || order === undefined) throw error;
        const { request: free, cause } = stand;
        this.#log.warn(
          { code: 'free-voice-fallback', err: error, guildId: order.charge.context.guildId, voice: free.voice },
          'the Voice API failed: this part is spoken in the free voice',
        );
        stoodIn = { voice: free.voice, cause };
        audio = await this.#fetchOrStandIn(free, text, signal, order, engineStoodIn);
      }
      // Deleted while it was fetched: nobody hears it.
      requireVoice(request.voice, this.speakers);
      return { audio, ...learnt(stoodIn, audio) };
    } catch (failure) {
      audio?.body.destroy();
      // Its voice no longer spoken (deleted while it waited, its engine's list come since lacking it): the rule's refusal.
      return { failure: voiceRefusal(request.voice, this.speakers) ?? failure, ...learnt(stoodIn, audio) };
    }
  }

  /**
   * A part, and where an engine's voice fails it (down, slow, refusing, answering badly), its stand-in in eSpeak NG's
   * voice of its language where it speaks: `stoodIn` is told which before its audio, said even if that fails too.
   */
  async #fetchOrStandIn(
    request: ServiceRequest,
    text: string,
    signal: AbortSignal,
    order: OrderAccount | undefined,
    stoodIn: (stood: StandIn) => void,
  ): Promise<SpeechAudio> {
    try {
      return await this.#fetchAny(request, text, signal, order);
    } catch (error) {
      const espeak = this.#engineStandIn(request, text, error, order);
      if (espeak === undefined) throw error;
      stoodIn({ voice: espeak.voice, cause: 'engine-failed' });
      return await this.#fetchAny(espeak, text, signal, order);
    }
  }

  /**
   * The stand-in for a line an engine's voice failed once its audio had begun, none of it delivered yet (a file), as
   * fetchPart's; undefined where eSpeak NG may not stand in (another failure, not speaking, a line too long for it).
   */
  async standInAfter(
    request: SpeechRequest,
    text: string,
    error: unknown,
    signal: AbortSignal,
    order?: OrderAccount,
  ): Promise<FetchedPart | undefined> {
    const espeak = request.kind === 'ready' ? undefined : this.#engineStandIn(request, text, error, order);
    if (espeak === undefined) return undefined;
    const stoodIn: StandIn = { voice: espeak.voice, cause: order?.fallback ?? 'engine-failed' };
    try {
      return { audio: await this.#fetchAny(espeak, text, signal, order), standIn: stoodIn };
    } catch (failure) {
      return { failure, standIn: stoodIn };
    }
  }

  /** An engine's stand-in: eSpeak NG's request for a line an engine's voice failed to speak, where it may (logged so). */
  #engineStandIn(
    request: ServiceRequest,
    text: string,
    error: unknown,
    order: OrderAccount | undefined,
  ): ServiceRequest | undefined {
    const espeak = this.standIns.forEngine(request, text, error);
    if (espeak === undefined) return undefined;
    this.#log.warn(
      { code: 'engine-fallback', err: error, guildId: order?.charge.context.guildId, voice: request.voice },
      'an engine failed: this part is spoken by eSpeak NG',
    );
    return espeak;
  }

  #fetchAny(request: ServiceRequest, text: string, signal: AbortSignal, order?: OrderAccount): Promise<SpeechAudio> {
    // An engine's voice: the effects it renders itself go to it; a paid or eSpeak NG request is as asked.
    if (engineOf(request.voice)) request = this.#engines?.controlled(request) ?? request;
    return changesAudio(request.effects)
      ? this.#changed.fetch(request, request.effects, text, signal, order)
      : this.#fetchOriginal(request, text, signal, order);
  }

  /**
   * The service's own audio of a part: the cache, a flight under way, or a paid call. The first to ask starts the
   * flight (a cache hit, a paid call); anyone asking meanwhile joins it; all but a paid call's leader save its cost.
   */
  async #fetchOriginal(
    request: ServiceRequest,
    text: string,
    signal: AbortSignal,
    order?: OrderAccount,
  ): Promise<SpeechAudio> {
    const key = partCacheKey(request, text);
    // A part this order counted free as in flight shares that flight's fate, even once it is over.
    const counted = order?.waits && !order.charge.reserves(key) ? this.#kept.get(order.waits)?.get(key) : undefined;
    const joined = counted ?? this.#flights.get(key);
    const fetching = joined ?? this.#lead(request, text, key, order);
    fetching.waiters.join(signal);
    const flight = await abortable(fetching.flight, signal).catch(async (error: unknown) => {
      // Its payer's order let go of it before it left: this order asks anew, paying it (payerOf), its budgets checked.
      if (error instanceof PayerLeftError && joined !== undefined && !signal.aborted) {
        this.#flights.forget(key, fetching);
        if (order?.waits !== undefined) this.#kept.get(order.waits)?.delete(key);
        return undefined;
      }
      order?.charge.release(key);
      // Its render ended (a /stop) while its call goes on for another order: its stop's words wait for the answer.
      if (!joined && order?.ended?.aborted && fetching.waiters.wanted()) await fetching.flight.catch(() => undefined);
      throw error;
    });
    if (flight === undefined) return this.#fetchOriginal(request, text, signal, order);
    // The leader's paid call wrote its own spend when the service accepted it; everyone else saved the characters.
    if (joined !== undefined || flight.from !== 'api') this.#saved(order?.charge, request, text, flight.whole);
    return flight.part();
  }

  /** A flight started for `key`, under way until its audio is over (cached, its spend finished). */
  #lead(request: ServiceRequest, text: string, key: string, order: OrderAccount | undefined): Fetching {
    const waiters = new Waiters(() => this.#flights.forget(key, fetching));
    const flight = this.#start(request, text, key, order, waiters);
    const fetching: Fetching = { waiters, flight, voice: request.voice };
    // A paid part's answer arrived (or it failed): from here it is read to its end whoever lets go of it. An engine's
    // line costs nothing: let go of by everyone while its audio still streams, it is cut (its slot freed, nothing of
    // it kept).
    const answered = () => waiters.close();
    const done = flight.then((f) => f.done);
    void (engineOf(request.voice) ? done : flight).then(answered, answered);
    this.#flights.lead(key, fetching, done);
    return fetching;
  }

  /** A part served without a call is saved on its order's charge (Charge.saved); a free voice's, never. */
  #saved(charge: Charge | undefined, request: ServiceRequest, text: string, whole?: Promise<unknown>): void {
    const part = { key: partCacheKey(withoutEffects(request), text), text };
    if (!isFreeVoice(request.voice)) void charge?.saved(part, endpointOf(request), whole);
  }

  async #start(
    request: ServiceRequest,
    text: string,
    key: string,
    order: OrderAccount | undefined,
    waiters: Waiters,
  ): Promise<Flight> {
    const charge = order?.charge;
    const hit = await lookUp(this.#store, key, request.voice);
    if (hit) return { from: 'cache', part: () => cachedPart(hit, this.encoding), done: Promise.resolve() };

    const generation = this.#cache?.generation(request.voice) ?? 0;
    // Let go of by everyone who asked for it (stopped, skipped, its order over): nothing is paid nor sent, and no
    // engine asked (eSpeak NG's short line is its own worker's).
    if (!espeakVoice(request.voice) && !waiters.wanted()) throw unwanted();
    if (isFreeVoice(request.voice))
      return this.#freePart(request, text, key, generation, charge?.context, this.#engineSignal(request, waiters));
    // Deleted while it waited: nothing is sent with it (deleted later, purgeVoice tells its waiters: not sent either).
    requireVoice(request.voice, this.speakers);
    // Its listeners hear the audio as it streams: handed over once answered, while the call goes on to its delivery
    // (the flight's `done`).
    const { answer, done } = await paidCall(this.#paying, serviceBody(request, text), { key, text }, order, waiters);
    const audio = filled(this.#store, answer, key, request.voice, generation);
    return { ...audio, from: 'api', done: Promise.all([done, audio.done]) };
  }

  /**
   * A free voice's part: by eSpeak NG (src/core/free-voice/) off the main thread, or an owner's engine over HTTP, in
   * its owner's share of its speaker, streaming to the audio worker; cached under `key` once whole, never paid.
   * `signal` fires when nobody wants the line any more, or at shutdown: an engine's request is closed, its slot freed.
   */
  async #freePart(
    request: ServiceRequest,
    text: string,
    key: string,
    generation: number,
    owner: { guildId: string; userId: string } | undefined,
    signal: AbortSignal,
  ): Promise<Flight> {
    let line: { body: Readable; cutAt?: number };
    if (engineOf(request.voice)) {
      // The rule refuses an engine voice before this when no engine is configured.
      if (this.#engines === undefined) throw new Error(`${request.voice}: no engine is configured`);
      const owned = owner ?? { guildId: '', userId: '' };
      line = { body: await this.#engines.speakLine(text, request.voice, request.engine, owned, signal) };
    } else {
      const { wav, cutAt } = await speakFreeLine(text, request.voice, owner?.guildId, owner?.userId);
      line = { body: Readable.from([wav]), ...(cutAt === undefined ? {} : { cutAt }) };
    }
    // Marked when cut at its cap: the cache keeps neither it nor any copy made of it (AudioCache.put).
    return { ...filled(this.#store, { format: 'wav', ...line }, key, request.voice, generation), from: 'free' };
  }

  /** What ends an engine's request: shutdown, or its last waiter letting go before its audio is over (its slot freed). */
  #engineSignal(request: ServiceRequest, waiters: Waiters): AbortSignal {
    if (!engineOf(request.voice)) return this.#shutdown.signal;
    waiters.calling();
    return AbortSignal.any([this.#shutdown.signal, waiters.letGo]);
  }

  /**
   * Creates a cloned voice; its characters are recorded like any other request's. `stop` (its member's /stop) lets go
   * of it as a part's last waiter does (flights.ts `Waiters`): before it leaves it is not sent; after, while the
   * service has not begun to answer, it is closed (the client's CallOptions `letGo`) and stays spent, as it may have
   * been charged; once the answer has begun (the voice's ID came) it goes on, and the voice is the member's.
   */
  async cloneVoice(
    text: string,
    clip: { data: Uint8Array; filename: string; contentType: string },
    stop?: AbortSignal,
    charge?: Charge,
  ): Promise<CloneVoiceResponse> {
    const waiters = new Waiters(() => undefined);
    waiters.join(stop ?? new AbortController().signal);
    const request = { endpoint: 'voice-clone' as const, body: { text, ref_audio: clip } };
    const order = charge && { charge };
    const part = { key: text, text };
    try {
      const { answer, done } = await paidCall(this.#paying, request, part, order, waiters);
      await done;
      return answer;
    } finally {
      charge?.release(text);
    }
  }

  /**
   * A cloned voice was deleted: no part in it is fetched, heard or cached from now on (those accepted before are
   * refused at their fetch; one under way is not cached, by the cache's generation), and its audio leaves the cache.
   */
  async purgeVoice(voiceId: string): Promise<number> {
    this.#deleted.delete(voiceId);
    this.#deleted.add(voiceId);
    for (const flight of this.#flights.values()) if (flight.voice === voiceId) flight.waiters.gone();
    for (const oldest of this.#deleted) {
      if (this.#deleted.size <= MAX_DELETED_VOICES) break;
      this.#deleted.delete(oldest);
    }
    return (await this.#cache?.purgeVoice(voiceId)) ?? 0;
  }

  /** Abandons the fetches under way (shutdown) and waits until the cache has written what it had. */
  async close(): Promise<void> {
    this.#shutdown.abort();
    await Promise.allSettled(this.#flights.values().map((f) => f.flight.then((flight) => flight.done)));
    await this.#changed.drained();
    await this.#accounting.drained();
    await this.#cache?.close();
  }
}

/** What an order learns from a part's fetch besides its audio: the free voice that stood in, a free line cut. */
function learnt(stoodIn: StandIn | undefined, audio: SpeechAudio | undefined): { standIn?: StandIn; cutAt?: number } {
  return {
    ...(stoodIn === undefined ? {} : { standIn: stoodIn }),
    ...(audio?.cutAt === undefined ? {} : { cutAt: audio.cutAt }),
  };
}

interface Flight extends FlightAudio {
  from: 'cache' | 'api' | 'free';
}

interface Fetching {
  flight: Promise<Flight>;
  waiters: Waiters;
  /** Its voice: a deletion tells its waiters (Waiters.gone). */
  voice: string;
}
