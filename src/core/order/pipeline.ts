import type { CloneVoiceResponse } from '../api/client.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { PartCheck } from './clips.ts';
import { RenderStoppedError, SpeechInputError } from '../order-errors.ts';
import { RightsRevokedError } from './revocation.ts';
import { RightsAsker, RightsWatch } from './rights-asker.ts';
import type { RightsAnswered } from './rights.ts';
import { Money } from '../quota/money.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { SceneLine, SceneQuote } from './scene-types.ts';
import { isEspeakVoice, isFreeVoice } from '../free-voice/free-voices.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import { splitText } from '../characters.ts';
import {
  checkEstimatedSeconds,
  checkFreeLineSeconds,
  estimatePlanSeconds,
  freeLineLimit,
} from '../quota/seconds-bounds.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import type { Lane, SpokenLine, VoicePlace } from './order-types.ts';
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
  readonly #money: Money;
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
  readonly #serves: ((guildId: string) => boolean) | undefined;
  readonly #chosenFree: boolean;

  constructor(options: SpeechPipelineOptions) {
    this.#source = options.source;
    this.#players = options.players;
    this.#log = options.logger;
    this.#maxChars = options.maxCharsPerRequest;
    this.#metrics = options.metrics;
    this.#serves = options.serves;
    this.#chosenFree = options.freeVoice?.chosen ?? false;
    this.rights = new RightsAsker(options.rights);
    this.#money = new Money({
      accounting: options.accounting,
      prices: options.source,
      queue: options.queue,
      freePerMinute: options.freePerMinute,
      now: options.now,
      standsIn: options.freeVoice?.fallback ?? false,
      countFreeLine: options.countFreeLine,
    });
  }

  /**
   * Counts one piece of free work that is not speech (a /usage chart drawn) against the member's free-request rate,
   * as a request made only of free parts is counted; a Refusal (free-rate) when their minute is full.
   */
  takeFreeWork(guildId: string, userId: string): void {
    this.#money.takeFreeWork(guildId, userId);
  }

  /**
   * Takes `asked` as one Order and runs it (#run): its rights asked first (refused, it is never taken), then split,
   * paid for, delivered and settled. A scene's lines are held together and spoken as one clip, file or voice message.
   */
  speak(asked: SpeechOrder): OrderEvents & RightsAnswered {
    const admitted = this.rights.admit(asked);
    if (admitted.kind === 'refused') return refusedByRights(admitted.error);
    const order = new Order(admitted.order);
    void this.#run(order);
    const { privately, postsPrivately } = admitted;
    return {
      accepted: order.accepted,
      firstAudio: order.firstAudio,
      outcome: order.outcome,
      privately,
      postsPrivately,
    };
  }

  /** One order, top to bottom. */
  async #run(order: Order): Promise<void> {
    // After this turn: its front-end holds its events before anything of it is decided.
    await Promise.resolve();
    let held: VoicePlace['held'] | undefined;
    try {
      // Its lines split into parts, and what costs nothing checked first.
      order.split(this.#linesOf(order.asked));
      for (const line of order.lines) this.#checkLine(line);
      const clips = order.scene ? 1 : order.lines.reduce((sum, line) => sum + line.texts.length, 0);
      const seconds = estimatePlanSeconds(order.lines);
      // A scene lasts at most MAX_SCENE_SECONDS, which only its audio proves: its estimate is refused first.
      if (order.scene) checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
      // In voice, the guild's player holds it from here: /stop, /skip and /leave end it while it is accepted.
      const player = this.#playerFor(order);
      held = player?.hold({
        owner: {
          label: `${order.requester.command}:${order.requester.id}`,
          requestedBy: { userId: order.requester.userId, requesterMayStop: order.requester.policy.requesterMayStop },
        },
        clips,
        channelId: order.target.kind === 'voice' ? order.target.channelId : '',
      });
      // Who pays for each part, or why not (the money's one owner).
      const paid = await this.#money.accept(order, held === undefined ? undefined : { clips, seconds });
      // Its place in the guild's lane, taken without awaiting: orders are queued in the order they were held.
      order.accept({ ...paid, ...(player && held ? this.#enterLane(order, player, held, clips) : {}) });
    } catch (error) {
      held?.release();
      order.refuse(error);
      return;
    }
    // Each part fetched through the one door and delivered: played in voice, or rendered as files. Its front-end
    // hears it was accepted once the join and the first part's request are under way, and answers beside them.
    order.source();
    const delivering = this.#delivered(order);
    order.tellAccepted();
    const delivered = await delivering;
    // The money settled, then the outcome told.
    const outcome = this.#money.settle(order, delivered);
    order.settled(outcome);
    if (outcome.kind === 'failed' && outcome.error instanceof RightsRevokedError)
      this.#revoked(order, outcome.error, outcome.secondsHeard);
  }

  #linesOf(asked: SpeechOrder): SpokenLine[] {
    if ('scene' in asked) return this.#sceneLinesOf(asked.scene);
    return [{ request: asked.request, texts: this.#split(asked.request), pauseBefore: 0 }];
  }

  #playerFor(order: Order) {
    const { target } = order;
    return target.kind === 'voice' ? this.#players.get(order.requester.guildId, target.adapterCreator) : undefined;
  }

  #enterLane(
    order: Order,
    player: VoicePlace['player'],
    held: VoicePlace['held'],
    clips: number,
  ): { ahead: number; playback: VoicePlace } {
    const { guildId } = order.requester;
    const lane = this.#lanes.get(guildId) ?? { clips: 0, tail: Promise.resolve() };
    this.#lanes.set(guildId, lane);
    const ahead = player.inQueue + lane.clips;
    lane.clips += clips;
    return { ahead, playback: { player, lane, held } };
  }

  /**
   * What a scene would cost if it were spoken now: its parts, the characters of those not cached nor in flight, and
   * the lines that cost nothing. Holds, counts and pays nothing; a voice this server may not use is refused as when
   * spoken.
   */
  async quoteScene(lines: readonly SceneLine[]): Promise<SceneQuote> {
    const spoken = this.#sceneLinesOf(lines);
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

  #sceneLinesOf(lines: readonly SceneLine[]): SpokenLine[] {
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
    if (!this.#chosenFree && isEspeakVoice(request.voice))
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
    const charge = await this.#money.authorizeClone(requester, text);
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
   * A request as the free voice says it (auto-read's free_voice): itself when its voice is free already, else the
   * stand-in the part source chooses (FREE_VOICES', eSpeak NG's); undefined where no free voice can speak.
   */
  freeVersion(request: SpeechRequest): SpeechRequest | undefined {
    if (request.kind === 'ready' || isFreeVoice(request.voice)) return request;
    return this.#source.standIn(request);
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

/** What /stop may end outside voice: a file, voice message or scene being made (a render), or a /clone. */
interface Stoppable {
  kind: 'render' | 'clone';
  userId: string;
  requesterMayStop: boolean;
  ended: AbortSignal;
  end(error: Error): void;
}

/** An order the rights refused: nothing accepted, nothing paid; its outcome the refusal, as an order's are. */
function refusedByRights(error: Error): OrderEvents & RightsAnswered {
  const accepted = Promise.reject(error);
  // Read by the front-end; an order nobody awaits must not end the process.
  accepted.catch(() => {});
  return {
    accepted,
    firstAudio: new Promise(() => {}),
    outcome: Promise.resolve({ kind: 'failed', error, secondsHeard: 0 }),
    privately: true,
    postsPrivately: () => true,
  };
}
