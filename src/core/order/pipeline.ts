import type { CloneVoiceResponse } from '../api/client.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { SpendContext } from '../quota/charge.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { PartCheck } from './clips.ts';
import { RenderStoppedError, SpeechInputError } from '../order-errors.ts';
import { RightsRevokedError } from './revocation.ts';
import { RightsAsker, RightsWatch } from './rights-asker.ts';
import type { RightsAnswered } from './rights.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { SceneLine, SceneQuote } from './scene-types.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import { Refusal } from '../refusal.ts';
import { isEngineVoice, isEspeakVoice, isFreeVoice } from '../free-voice/free-voices.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import { FreeRequestRate } from '../quota/free-rate.ts';
import { countCharacters, splitText } from '../characters.ts';
import {
  checkEstimatedSeconds,
  checkFreeLineSeconds,
  enforcementFor,
  estimatePlanSeconds,
  freeLineLimit,
  QueueBook,
} from '../quota/seconds-bounds.ts';
import { quoteAllowance } from '../quota/quote-ceiling.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import type { AcceptedTerms, Lane, SpokenLine } from './order-types.ts';
import { Order, discard } from './order.ts';
import type { CloneClip, OrderEvents, Requester, SpeechOrder, SpeechOutcome } from './speech-order.ts';
import { rendered } from './file-outcome.ts';
import type { SpeechPipelineOptions } from './pipeline-options.ts';
import { playInVoice } from './voice-playback.ts';

export type { SpeechRequest } from '../settings/speech-request.ts';
export type { SceneLine, SceneQuote, SceneTimeline } from './scene-types.ts';
export type * from './speech-order.ts';
export { MEMBER_REQUEST } from './speech-order.ts';
export type { SpeechPipelineOptions } from './pipeline-options.ts';

/**
 * The one way from a request to audio, whatever asked for it (a slash command, the auto-reader, a context menu):
 * splits the text once, checks what the parts will cost and holds it once, sources each part (the cache, a
 * flight under way, the API), plays it in a voice channel or renders it as files, records every spend, and
 * returns one outcome. It knows nothing of interactions, replies or languages.
 */
export class SpeechPipeline {
  readonly #source: PartSource;
  readonly #accounting: Accounting;
  readonly #players: PlayerRegistry;
  readonly #log: Logger;
  readonly #maxChars: number;
  readonly #metrics: Pick<Metrics, 'timeToFirstAudio'> | undefined;
  readonly #lanes = new Map<string, Lane>();
  /** Per guild, the files, voice messages and clones being made, each with whose it is and how it ends (stopRenders). */
  readonly #renders = new Map<string, Set<Stoppable>>();
  readonly #rights = new RightsWatch();
  /** The one asker of the rights port: an order's rights, and a front-end's before its order exists. */
  readonly rights: RightsAsker;
  /** The last cache lookup of accept: each one is settled after the one before, so checks keep the order asked. */
  #lookups: Promise<unknown> = Promise.resolve();
  readonly #queue: QueueBook;
  readonly #freeRate: FreeRequestRate;
  readonly #serves: ((guildId: string) => boolean) | undefined;
  readonly #freeVoice: { chosen: boolean; fallback: boolean };
  readonly #countFreeLine: ((guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker) => void) | undefined;

  constructor(options: SpeechPipelineOptions) {
    this.#source = options.source;
    this.#accounting = options.accounting;
    this.#players = options.players;
    this.#log = options.logger;
    this.#maxChars = options.maxCharsPerRequest;
    this.#metrics = options.metrics;
    this.#serves = options.serves;
    this.#freeVoice = options.freeVoice ?? { chosen: false, fallback: false };
    this.#countFreeLine = options.countFreeLine;
    this.rights = new RightsAsker(options.rights);
    this.#queue = new QueueBook(options.queue ?? { guildSeconds: 0, guildClips: 0, memberRequests: 0 });
    const now = options.now;
    this.#freeRate = new FreeRequestRate(
      options.freePerMinute ?? 0,
      now === undefined ? Date.now : () => now().getTime(),
    );
  }

  /**
   * Counts one piece of free work that is not speech (a /usage chart drawn) against the member's free-request rate,
   * as a request made only of free parts is counted; a Refusal (free-rate) when their minute is full.
   */
  takeFreeWork(guildId: string, userId: string): void {
    this.#freeRate.take(guildId, userId);
  }

  /**
   * Takes `asked` as one Order (src/core/order/order.ts): its text split (a scene's lines each), checked and held,
   * then spoken or rendered. A scene's lines are held together and spoken as one clip, file or voice message. Its
   * rights are asked first (rights-asker.ts): refused, it is never taken.
   */
  speak(asked: SpeechOrder): OrderEvents & RightsAnswered {
    return this.rights.ask(asked, (allowed) => this.#take(allowed));
  }

  #take(asked: SpeechOrder): OrderEvents {
    return new Order(asked, {
      lines: () =>
        'scene' in asked
          ? this.#sceneLines(asked.scene)
          : [{ request: asked.request, texts: this.#split(asked.request), pauseBefore: 0 }],
      accept: (order) => this.#accept(order),
      deliver: (order) => this.#delivered(order),
      done: (order, outcome) => this.#done(order, outcome),
    });
  }

  /**
   * What a scene would cost if it were spoken now: its parts, the characters of those not cached nor in flight, and
   * the lines that cost nothing. Holds, counts and pays nothing; a voice this server may not use is refused as when
   * spoken.
   */
  async quoteScene(lines: readonly SceneLine[]): Promise<SceneQuote> {
    const spoken = this.#sceneLines(lines);
    for (const line of spoken) this.#checkLine(line);
    const needs = await Promise.all(spoken.map((line) => this.#source.needs(line.request, line.texts)));
    return {
      parts: needs.reduce((sum, parts) => sum + parts.length, 0),
      characters: needs.flat().reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0),
      cachedLines: needs.filter((parts) => parts.every((need) => need.free)).length,
    };
  }

  /**
   * A request's text in parts the service takes, and in a free voice parts each within one of its lines (its seconds,
   * at its own rate: Japanese or Chinese kept to the service's characters would last past them); a request with
   * nothing to say is refused.
   */
  #split(request: SpeechRequest): string[] {
    const texts =
      request.kind === 'ready'
        ? [request.text]
        : isFreeVoice(request.voice)
          ? splitText(request.text, this.#maxChars, freeLineLimit(request.voice))
          : splitText(request.text, this.#maxChars);
    if (texts.length === 0) throw new SpeechInputError({ code: 'empty-text' });
    return texts;
  }

  #sceneLines(lines: readonly SceneLine[]): SpokenLine[] {
    if (lines.length === 0) throw new SpeechInputError({ code: 'empty-text' });
    return lines.map((line) => ({
      request: line.request,
      texts: this.#split(line.request),
      pauseBefore: line.pauseBefore,
    }));
  }

  /**
   * A voice deleted since, a free voice the operator does not offer, or a part too long for one line of the free
   * voice that is to speak it: refused before anything is held or made.
   */
  #checkLine({ request, texts }: SpokenLine): void {
    this.#source.checkVoice(request);
    if (request.kind === 'ready' || !isFreeVoice(request.voice)) return;
    if (!this.#freeVoice.chosen && isEspeakVoice(request.voice))
      throw new SpeechInputError({ code: 'free-voice-unavailable', voice: request.voice });
    for (const text of texts) checkFreeLineSeconds(text, request.voice);
  }

  /**
   * Creates a cloned voice from a checked reference clip: its characters are checked and held like any request's
   * (a clone is never cached), sent, and recorded. The service answers with its ID and, often, audio.
   */
  async cloneVoice(
    requester: Requester,
    text: string,
    clip: CloneClip,
    stop?: AbortSignal,
  ): Promise<CloneVoiceResponse> {
    const characters = countCharacters(text);
    const charge = await this.#accounting.authorize(
      spendContext(requester),
      [{ text, endpoint: 'voice-clone', characters, free: false }],
      requester.policy,
    );
    try {
      return await this.#source.cloneVoice(text, clip, stop, charge);
    } catch (error) {
      // Stopped before its answer: not sent, or closed and on the books as it may have been charged.
      if (stop?.aborted) throw new RenderStoppedError(charge.paid, charge.written - charge.paid);
      throw error;
    } finally {
      charge.close();
    }
  }

  /**
   * A /clone of `requester`'s from its acceptance to its first line handed to speak(): /stop (stopRenders) reaches it
   * meanwhile, aborting `signal`, which cloneVoice takes as `stop`. `done()` once its line is handed over (from then on
   * the line's own order is what /stop reaches), or once it is over.
   */
  stoppableClone(requester: Requester): { readonly signal: AbortSignal; done(): void } {
    const stop = new AbortController();
    const done = this.#stoppable({
      kind: 'clone',
      userId: requester.userId,
      requesterMayStop: requester.policy.requesterMayStop,
      ended: stop.signal,
      end: (error) => stop.abort(error),
      guildId: requester.guildId,
    });
    return { signal: stop.signal, done };
  }

  /**
   * A right may have been taken away in this guild (from this member, when named): Discord's caches changed (a voice
   * state, a channel's or a role's permissions, the server left) or auto-read's ignore list did. What plays or waits
   * in voice for whoever may no longer be heard is ended now, the clip playing at its next packet, and a file or voice
   * message being made for them lets go of the part it waits for (rights-asker.ts), with the RightsRevokedError its
   * front-end words.
   */
  rightsChanged(guildId: string, userId?: string): void {
    this.#rights.recheck(guildId, userId);
  }

  /**
   * /stop for the files and voice messages `userId` asked for in this guild that are being made: none of their parts
   * is asked for after this, the part each waits for is let go of (closed at the service while it waits there
   * uncharged and no other order waits for it, as in voice; read to its end and paid once its answer has begun),
   * nothing of them is posted, and each answers that it was stopped, what it cost so far and what it may have
   * (RenderStoppedError). Returns how many it stopped. Only the member's own: a file is posted for whoever asked, heard
   * by nobody in voice, so no one else's rights reach it.
   */
  stopRenders(guildId: string, userId: string): { files: number; clones: number } {
    const stopped = { files: 0, clones: 0 };
    for (const render of this.#renders.get(guildId) ?? []) {
      if (render.userId !== userId || !render.requesterMayStop || render.ended.aborted) continue;
      render.end(new RenderStoppedError());
      if (render.kind === 'clone') stopped.clones += 1;
      else stopped.files += 1;
    }
    return stopped;
  }

  /** Registers what /stop may end in its guild (stopRenders); returns what takes it out. */
  #stoppable(entry: Stoppable & { guildId: string }): () => void {
    const renders = this.#renders.get(entry.guildId) ?? new Set();
    this.#renders.set(entry.guildId, renders);
    renders.add(entry);
    return () => {
      renders.delete(entry);
      if (renders.size === 0 && this.#renders.get(entry.guildId) === renders) this.#renders.delete(entry.guildId);
    };
  }

  /**
   * A cloned voice was deleted: its parts still queued or accepted are refused at their fetch (nothing sent, heard
   * or cached), new requests with it at once; returns how many cache entries went with it.
   */
  purgeVoice(voiceId: string): Promise<number> {
    return this.#source.purgeVoice(voiceId);
  }

  /** Shutdown: abandons the fetches under way, and lets spends and cache files under way finish. */
  close(): Promise<void> {
    return this.#source.close();
  }

  /**
   * `lookup`'s result, delivered after every lookup asked before it: a cache miss looks on disk, and a request
   * whose miss takes longer must not be checked (and queued) after one asked later.
   */
  #inOrder<T>(lookup: Promise<T>): Promise<T> {
    const turn = this.#lookups.then(() => lookup);
    this.#lookups = turn.catch(() => undefined);
    return turn;
  }

  /** The text split once, the checks that cost nothing, then the budgets and the month: nothing paid yet. */
  async #accept(order: Order): Promise<AcceptedTerms> {
    const { requester, target, lines } = order;
    for (const line of lines) this.#checkLine(line);
    // A scene plays as one clip of the guild's queue; a plain request as one clip per part.
    const clips = order.scene ? 1 : lines.reduce((sum, line) => sum + line.texts.length, 0);
    const seconds = estimatePlanSeconds(lines);
    // A scene lasts at most MAX_SCENE_SECONDS, mixed or played in voice, which only its audio proves: its estimate,
    // before anything (in voice as well as the queue bound, which an operator may lift).
    if (order.scene) checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
    const ready = lines.some((line) => line.request.kind === 'ready');
    // In voice, the guild's player holds the order from here to its clips being queued: /stop, /skip and /leave end
    // it while it is accepted and while SayBot joins, as they would once it is queued.
    const player = target.kind === 'voice' ? this.#players.get(requester.guildId, target.adapterCreator) : undefined;
    const held =
      target.kind === 'voice' &&
      player?.hold({
        owner: {
          label: `${requester.command}:${requester.id}`,
          requestedBy: { userId: requester.userId, requesterMayStop: requester.policy.requesterMayStop },
        },
        clips,
        channelId: target.channelId,
      });
    let terms: AcceptedTerms;
    try {
      terms = await this.#admitAndAuthorize(order, clips, seconds, ready);
    } catch (error) {
      if (held) held.release();
      throw error;
    }
    if (!player || !held) return terms;
    // From here to the lane's bookkeeping nothing awaits, so orders take their places in the order they were held.
    const lane = this.#lanes.get(requester.guildId) ?? { clips: 0, tail: Promise.resolve() };
    this.#lanes.set(requester.guildId, lane);
    const ahead = player.inQueue + lane.clips;
    lane.clips += clips;
    return { ...terms, ahead, playback: { player, lane, held } };
  }

  /** The queue bounds, then the budgets and the month, for an order of `clips` clips lasting about `seconds`. */
  async #admitAndAuthorize(order: Order, clips: number, seconds: number, ready: boolean): Promise<AcceptedTerms> {
    const { requester, target, lines } = order;
    // A full queue costs nothing to refuse: checked before the budgets hold anything.
    const admission = this.#queue.admit({
      guildId: requester.guildId,
      userId: requester.userId,
      ...(target.kind === 'voice' ? { voice: { clips, seconds } } : {}),
      enforce: enforcementFor({
        queueBounded: requester.policy.queueBounded,
        paid: order.followUp === true || ready,
      }),
    });
    const context = spendContext(requester);
    let paid: Paid;
    let spoken = lines;
    let fallback: Refusal | undefined;
    try {
      if (order.followUp) {
        paid = { charge: this.#accounting.unchecked(context) };
      } else {
        try {
          paid = await this.#authorizeParts(order, lines);
        } catch (error) {
          const [only] = lines;
          // A scene is not spoken for by a free voice: its lines and its quote are one clip the member confirmed.
          const free =
            error instanceof Refusal && !order.scene && only !== undefined
              ? this.#source.standInForRefusal(only.request, only.texts, error)
              : undefined;
          if (free === undefined || only === undefined) throw error;
          // Refused for money: spoken in the free voice instead, at no charge, and the front-end says why. Refused
          // that too (the free-request rate), the member hears of the money, the cause.
          spoken = [{ ...only, request: free }];
          paid = await this.#authorizeParts(order, spoken).catch(() => Promise.reject(error));
          fallback = error as Refusal;
        }
      }
    } catch (error) {
      admission.release();
      throw error;
    }
    return { lines: spoken, fallback, ...paid, admission };
  }

  /**
   * The parts' needs checked and held: cached parts and parts already in flight cost nothing; the rest is held
   * against the budgets until recorded. A Refusal when they may not be spent.
   */
  async #authorizeParts(order: Order, lines: readonly SpokenLine[]): Promise<Paid> {
    const { requester } = order;
    const needs = (
      await this.#inOrder(Promise.all(lines.map((line) => this.#source.needs(line.request, line.texts))))
    ).flat();
    const paid = needs.reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0);
    // A cache-only replay may cost nothing, a confirmed scene no more than its quote: refused before anything is held.
    const late = quoteAllowance(order, paid);
    // What spends nothing passes no budget and no cooldown, yet may cost a render and a cache entry: rationed
    // per member instead, as a bound on what waits (a front-end that bounds its own backlog is left out).
    if (requester.policy.queueBounded && needs.every((need) => need.free))
      this.#freeRate.take(requester.guildId, requester.userId);
    const charge = await this.#accounting.authorize(spendContext(requester), needs, requester.policy);
    return late === undefined ? { charge } : { charge, late };
  }

  /**
   * A request as the free voice says it (auto-read's free_voice): itself when its voice is free already, else the
   * stand-in the part source chooses (FREE_VOICES', eSpeak NG's); undefined where no free voice can speak.
   */
  freeVersion(request: SpeechRequest): SpeechRequest | undefined {
    if (request.kind === 'ready' || isFreeVoice(request.voice)) return request;
    return this.#source.standIn(request);
  }

  /** An order's outcome, settled: the free voice's lines counted, a right taken away logged. */
  #done(order: Order, outcome: SpeechOutcome): void {
    if (outcome.kind !== 'failed') {
      // Each line a free voice was chosen for (a scene's lines, or the one request), or one line in place of the
      // paid voice.
      const count = (cause: FreeVoiceCause, voice: string) =>
        this.#countFreeLine?.(order.requester.guildId, cause, freeSpeakerOf(voice));
      // A stand-in at acceptance took the place of the order's line.
      const standIn = outcome.freeVoice?.voice ?? order.lines[0]?.request.voice;
      // An engine's voice that eSpeak NG spoke for when the engine failed: a free voice chosen all the same, never one
      // in place of the paid voice.
      if (outcome.freeVoice?.cause === 'engine-failed') count('chosen', outcome.freeVoice.voice);
      else if (order.fallback !== undefined || outcome.freeVoice !== undefined) count('fallback', standIn ?? '');
      else
        for (const line of order.lines)
          if (line.request.kind !== 'ready' && isFreeVoice(line.request.voice)) count('chosen', line.request.voice);
    }
    if (outcome.kind === 'failed' && outcome.error instanceof RightsRevokedError)
      this.#revoked(order, outcome.error, outcome.secondsHeard);
  }

  /** An order spoken in voice or rendered; a failure is its outcome, what it was handed in whole let go. */
  async #delivered(order: Order): Promise<SpeechOutcome> {
    const { target } = order;
    try {
      if (target.kind !== 'voice' || !order.playback) return await this.#render(order);
      const allowed: PartCheck = () => this.#stillAllowed(order);
      return await playInVoice(
        {
          source: this.#source,
          log: this.#log,
          lanes: this.#lanes,
          rights: this.#rights,
          serves: this.#serves,
          allowed,
          firstFrame: () => this.#firstFrame(order),
        },
        order,
        target.channelId,
        order.playback,
      );
    } catch (error) {
      for (const line of order.lines) discard(line.request);
      return { kind: 'failed', error, secondsHeard: 0 };
    }
  }

  /**
   * An order rendered (a file, a voice message, a mixed scene), which its member may stop meanwhile (stopRenders) and
   * a right taken away may end (rightsChanged): either ends it (Order `end`), which lets go of the part it waits for.
   * Checked before each part is asked for, and once the whole is made, before anything is posted.
   */
  async #render(order: Order): Promise<SpeechOutcome> {
    const { requester } = order;
    // What ended it (a RenderStoppedError, a RightsRevokedError), rather than the AbortedError of the part let go of.
    const notEnded = () => {
      if (order.ended.aborted) throw order.ended.reason;
    };
    const allowed: PartCheck = async () => {
      notEnded();
      await this.#stillAllowed(order);
      notEnded();
    };
    const unlist = this.#stoppable({
      kind: 'render',
      guildId: requester.guildId,
      userId: requester.userId,
      requesterMayStop: requester.policy.requesterMayStop,
      ended: order.ended,
      end: (error) => order.end(error),
    });
    const unwatch = this.#rights.watch({
      guildId: requester.guildId,
      userId: requester.userId,
      check: () => this.#stillAllowed(order),
      end: (error) => order.end(error),
    });
    try {
      const outcome = await rendered(this.#source, this.#log, order, allowed);
      notEnded();
      return outcome;
    } catch (error) {
      notEnded();
      throw error;
    } finally {
      unwatch();
      unlist();
    }
  }

  /**
   * The one check before each part is fetched and before it plays: the voices not deleted since, the server still
   * served, and whatever the requester's front-end declared (`stillAllowed`). Throws what ends the request.
   */
  async #stillAllowed(order: Order): Promise<void> {
    for (const line of order.lines) this.#source.checkVoice(line.request);
    const { requester } = order;
    if (this.#serves?.(requester.guildId) === false) throw new RightsRevokedError({ code: 'not-served' });
    const revoked = await order.stillAllowed?.();
    if (revoked !== undefined) throw new RightsRevokedError(revoked);
  }

  /** The operator's one line for a request cut short by a right taken away (the member is told by its front-end). */
  #revoked(order: Order, error: RightsRevokedError, secondsHeard: number): void {
    const { requester } = order;
    this.#log.info(
      {
        code: 'speech-rights-revoked',
        reason: error.revocation.code,
        guildId: requester.guildId,
        command: requester.command,
        requestId: requester.id,
        secondsHeard,
      },
      'a right was taken away while the speech waited: the rest of it was dropped',
    );
  }

  #firstFrame(order: Order): void {
    order.heard();
    const askedAt = order.requester.askedAt;
    // From the member's request as stamped where it was made (what they wait through) to its first frame going out.
    if (askedAt !== undefined) this.#metrics?.timeToFirstAudio(Math.max(0, Date.now() - askedAt) / 1000);
  }
}

/** Who a request's spends are recorded under. */
function spendContext(requester: Requester): SpendContext {
  return { guildId: requester.guildId, userId: requester.userId, command: requester.command };
}

/** What /stop may end outside voice: a file, voice message or scene being made (a render), or a /clone. */
interface Stoppable {
  kind: 'render' | 'clone';
  userId: string;
  requesterMayStop: boolean;
  ended: AbortSignal;
  end(error: Error): void;
}

/** What an order's parts are held and paid on once its budgets passed, and what it may still pay late. */
type Paid = Pick<AcceptedTerms, 'charge' | 'late'>;

/** Who speaks a free voice's line: the engine its ID names, else eSpeak NG. */
function freeSpeakerOf(voice: string): FreeSpeaker {
  if (!isEngineVoice(voice)) return 'espeak';
  return voice.startsWith('voicevox:') ? 'voicevox' : 'speech';
}
