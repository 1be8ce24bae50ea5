import type { CloneVoiceResponse } from '../api/client.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import { partClip, type PartBefore, type PartClip, type PartCheck } from './clips.ts';
import type { GuildPlayer, PlaybackResult, PlaybackStatus } from '../voice/guild-player.ts';
import { sceneClip, type SceneClip, type SceneCut } from './scene-clip.ts';
import { RenderStoppedError, SpeechInputError } from '../order-errors.ts';
import { RightsAsker, RightsRevokedError, RightsWatch, type RightsAnswered } from './rights.ts';
import { Money, type Accounting } from '../quota/money.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { SceneLine, SceneQuote } from './scene-types.ts';
import { isEspeakVoice, isFreeVoice } from '../free-voice/free-voices.ts';
import type { PartSource } from '../sourcing/part-source.ts';
import { splitText } from '../characters.ts';
import {
  checkEstimatedSeconds,
  checkFreeLineSeconds,
  estimatePlanSeconds,
  estimateRequestSeconds,
  freeLineLimit,
  type QueueBounds,
} from '../quota/seconds-bounds.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import { Order, discard, type CloneClip, type Lane, type OrderEvents, type Requester } from './order.ts';
import type { SpeechOrder, SpeechOutcome, SpokenLine, VoicePlace } from './order.ts';
import { rendered } from './file-outcome.ts';
import type { OrderRights } from './rights.ts';

export type { SpeechRequest } from '../settings/speech-request.ts';
export type { SceneLine, SceneQuote, SceneTimeline } from './scene-types.ts';
export type * from './order.ts';
export { MEMBER_REQUEST } from './order.ts';

/** What the speech pipeline is made with. */
export interface SpeechPipelineOptions {
  /** Where each part comes from (cache, a flight under way, the API), and where it is recorded. */
  source: PartSource;
  /** Budgets and the monthly quota: every paid part is checked and held before anything is sent. */
  accounting: Accounting;
  /** One player per guild: a voice target is played on its guild's. */
  players: PlayerRegistry;
  logger: Logger;
  /** The longest part the service takes: longer text is split at sentence ends. */
  maxCharsPerRequest: number;
  /** Time to first audio, from the requester's `askedAt`; absent when no metrics are served. */
  metrics?: Pick<Metrics, 'timeToFirstAudio'> | undefined;
  /** How much may wait to be heard per server and per member (config.queue); absent: no limit. */
  queue?: QueueBounds;
  /** Requests costing no characters one member may make per minute in a server (quota/money.ts); 0 or absent: any. */
  freePerMinute?: number;
  /** The clock the free-request rate counts by (default the real one). */
  now?: () => Date;
  /** Whether SayBot still serves this server (ALLOWED_GUILDS), asked before each part; absent: every server. */
  serves?: (guildId: string) => boolean;
  /** FREE_VOICE: `chosen`, members may ask for its voices; `fallback`, a request refused for money is spoken in it. */
  freeVoice?: { chosen: boolean; fallback: boolean };
  /** Counts a line the free voice spoke (for /usage), once per request heard or delivered; absent: not counted. */
  countFreeLine?: (guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker) => void;
  /** The rights port (rights.ts), the speaking gate in the app; absent, only the pipeline's own checks hold. */
  rights?: OrderRights;
}

/**
 * The one way from a request to audio, whatever asked. `speak` and `#run` read top to bottom: rights, lines, place in
 * voice, money (Money), told accepted, each part through the one door (PartSource) and delivered, money settled,
 * outcome. It knows nothing of interactions, replies or languages.
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

  /** Counts free work that is not speech (a /usage chart) against the free-request rate; a Refusal when full. */
  takeFreeWork(guildId: string, userId: string): void {
    this.#money.takeFreeWork(guildId, userId);
  }

  /** Takes `asked` as one Order and runs it (#run); refused by its rights, it is never taken. */
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
    let place: Omit<VoicePlace, 'lane'> | undefined;
    try {
      // Its lines split into parts, and what costs nothing checked first.
      order.split(this.#linesOf(order.asked));
      for (const line of order.lines) this.#checkLine(line);
      const clips = order.scene ? 1 : order.lines.reduce((sum, line) => sum + line.texts.length, 0);
      const seconds = estimatePlanSeconds(order.lines);
      // A scene lasts at most MAX_SCENE_SECONDS, which only its audio proves: its estimate is refused first.
      if (order.scene) checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
      // In voice, the guild's player holds it from here: /stop, /skip and /leave end it while it is accepted.
      place = this.#hold(order, clips);
      // Who pays for each part, or why not (the money's one owner).
      const paid = await this.#money.accept(order, place && { clips, seconds });
      // Its place in the guild's lane, taken without awaiting: orders are queued in the order they were held.
      order.accept({ ...paid, ...(place && this.#enterLane(order, place, clips)) });
    } catch (error) {
      place?.held.release();
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

  #hold(order: Order, clips: number): Omit<VoicePlace, 'lane'> | undefined {
    const { target, requester } = order;
    if (target.kind !== 'voice') return undefined;
    const player = this.#players.get(requester.guildId, target.adapterCreator);
    const held = player.hold({
      owner: {
        label: `${requester.command}:${requester.id}`,
        requestedBy: { userId: requester.userId, requesterMayStop: requester.policy.requesterMayStop },
      },
      clips,
      channelId: target.channelId,
    });
    return { player, held };
  }

  #enterLane(order: Order, place: Omit<VoicePlace, 'lane'>, clips: number): { ahead: number; playback: VoicePlace } {
    const { guildId } = order.requester;
    const lane = this.#lanes.get(guildId) ?? { clips: 0, tail: Promise.resolve() };
    this.#lanes.set(guildId, lane);
    const ahead = place.player.inQueue + lane.clips;
    lane.clips += clips;
    return { ahead, playback: { ...place, lane } };
  }

  /** What a scene would cost now (parts, uncached characters, free lines); holds and pays nothing. */
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
   * A request's text in parts the service takes; in a free voice each within one line's seconds at its own rate
   * (Japanese or Chinese kept to the service's characters would last past them). Empty text is refused.
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

  /** A deleted voice, a free voice not offered, or a part too long for a free line: refused before any hold. */
  #checkLine({ request, texts }: SpokenLine): void {
    this.#source.checkVoice(request);
    if (request.kind === 'ready' || !isFreeVoice(request.voice)) return;
    if (!this.#chosenFree && isEspeakVoice(request.voice))
      throw new SpeechInputError({ code: 'free-voice-unavailable', voice: request.voice });
    for (const text of texts) checkFreeLineSeconds(text, request.voice);
  }

  /** Creates a cloned voice from a checked clip, its characters held like any request's (a clone is never cached). */
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
   * A /clone from acceptance to its first line handed to speak(): /stop (stopRenders) aborts `signal`, which
   * cloneVoice takes as `stop`. `done()` once its line is handed over or it is over.
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
   * A right may have been taken away in this guild (from this member, when named): what plays or waits for whoever may
   * no longer be heard ends now (the playing clip at its next packet), a render lets go of its part (rights.ts).
   */
  rightsChanged(guildId: string, userId?: string): void {
    this.#rights.recheck(guildId, userId);
  }

  /**
   * /stop for the renders and clones `userId` has under way here: no part asked for after this, the awaited one let go
   * (paid once its answer has begun), nothing posted, each ending in a RenderStoppedError. Only the member's own: a
   * file is heard by nobody in voice, so no one else's rights reach it.
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

  /** A cloned voice was deleted: its accepted parts refused at their fetch; returns the cache entries removed. */
  purgeVoice(voiceId: string): Promise<number> {
    return this.#source.purgeVoice(voiceId);
  }

  /** Shutdown: abandons the fetches under way, and lets spends and cache files under way finish. */
  close(): Promise<void> {
    return this.#source.close();
  }

  /** A request as the free voice says it (auto-read's free_voice); undefined where no free voice can speak. */
  freeVersion(request: SpeechRequest): SpeechRequest | undefined {
    if (request.kind === 'ready' || isFreeVoice(request.voice)) return request;
    return this.#source.standIn(request);
  }

  /** An order spoken in voice or rendered; a failure is its outcome, what it was handed in whole let go. */
  async #delivered(order: Order): Promise<SpeechOutcome> {
    const { target } = order;
    try {
      if (target.kind !== 'voice' || !order.playback) return await this.#render(order);
      return await this.#playInVoice(order, target.channelId, order.playback);
    } catch (error) {
      for (const line of order.lines) discard(line.request);
      return { kind: 'failed', error, secondsHeard: 0 };
    }
  }

  /**
   * Joins and requests the first part side by side (the handshake and the first byte overlap; no frame before DAVE is
   * ready), then queues every part; each later part is requested as the one before starts playing, none after a part
   * that did not play to its end. Until queued the player holds it (`held`): /stop, /skip or /leave end it at once.
   */
  async #playInVoice(order: Order, voiceChannelId: string, playback: VoicePlace): Promise<SpeechOutcome> {
    const { requester } = order;
    const { player, lane, held } = playback;
    const allowed: PartCheck = () => this.#stillAllowed(order);
    let inLane = true;
    /** Its clips no longer count as ahead of later orders: queued (they count as the player's), failed or ended. */
    const leaveLane = (count: number) => {
      if (!inLane) return;
      inLane = false;
      lane.clips -= count;
      if (lane.clips === 0 && this.#lanes.get(requester.guildId) === lane) this.#lanes.delete(requester.guildId);
    };
    // Ended while it was accepted: nothing asked for, no join.
    const endedEarly = held.endedAs;
    if (endedEarly !== undefined) {
      leaveLane(order.scene ? 1 : order.lines.reduce((sum, line) => sum + line.texts.length, 0));
      return { kind: endedEarly, seconds: 0 };
    }
    const label = `${requester.command}:${requester.id}`;
    // A plain order's parts are clips of their own, each asked for ahead only once the one before it is heard and
    // opened only if that one played to its end (clips.ts partClip); a scene's are asked for one ahead inside its clip.
    const ends: Array<PromiseWithResolvers<PlaybackStatus>> = [];
    const heard: Array<PromiseWithResolvers<void>> = [];
    const before = (): PartBefore | undefined => {
      const ended = ends.at(-1)?.promise;
      const first = heard.at(-1)?.promise;
      ends.push(Promise.withResolvers());
      heard.push(Promise.withResolvers());
      return order.scene || ended === undefined || first === undefined ? undefined : { heard: first, ended };
    };
    const parts = order.lines.map((line, lineIndex) =>
      line.texts.map((text, index) =>
        partClip(
          this.#source,
          line.request,
          text,
          `${label}#${order.scene ? `${lineIndex + 1}.` : ''}${index + 1}`,
          order,
          this.#log,
          allowed,
          before(),
        ),
      ),
    );
    // A scene is one clip: its lines in turn, each after its pause, so /skip and the queue see it whole.
    const scene: SceneClip | undefined = order.scene
      ? sceneClip(
          label,
          order.lines.map((line, index) => ({
            pauseBefore: line.pauseBefore,
            parts: parts[index] ?? [],
            estimates: line.texts.map((text) => estimateRequestSeconds(line.request, text)),
          })),
        )
      : undefined;
    const clips: PartClip[] = scene ? [scene] : parts.flat();
    for (const [index, clip] of clips.entries()) {
      clip.requestedBy = { userId: requester.userId, requesterMayStop: requester.policy.requesterMayStop };
      clip.started = () => {
        if (index === 0) this.#firstFrame(order);
        heard[index]?.resolve();
      };
    }
    const first = clips[0];
    // Behind others, its audio waits for its turn like any clip's; with nothing ahead it is wanted now.
    if (order.ahead === 0) first?.prepare?.();
    const joined = player.connect(voiceChannelId);
    const queued = Promise.all([lane.tail, joined]).then(() => held.queue(clips));
    lane.tail = queued.then(
      () => undefined,
      () => undefined,
    );
    void lane.tail.then(() => leaveLane(clips.length));
    void held.ended.then(() => leaveLane(clips.length));
    // From here to its outcome, an event that takes a right away ends it at once, not at its next part.
    const unwatch = this.#rights.watch({
      guildId: requester.guildId,
      userId: requester.userId,
      check: allowed,
      end: (error) => player.end((item) => clips.includes(item), error),
    });
    try {
      let results: Array<Promise<PlaybackResult>> | 'stopped' | 'skipped' | undefined;
      try {
        results = await Promise.race([queued, held.ended]);
      } catch (error) {
        held.release();
        for (const clip of clips) clip.dispose?.();
        throw error;
      }
      if (!Array.isArray(results)) {
        // Ended while held (a /stop, /skip or /leave while SayBot joined): its first part's request, if under way, is
        // let go like any dropped part's.
        for (const clip of clips) clip.dispose?.();
        return { kind: results ?? held.endedAs ?? 'stopped', seconds: 0 };
      }
      for (const [index, result] of results.entries()) void result.then((ended) => ends[index]?.resolve(ended.status));
      const outcome = withCut(await played(player, clips, results), scene?.cut());
      // Kicked or the server deleted: discord.js ends the voice connection before it says so, and what was cut off
      // there is the server no longer served, not a lost connection to rejoin.
      if (outcome.kind === 'cut-off' && this.#serves?.(requester.guildId) === false)
        return {
          kind: 'failed',
          error: new RightsRevokedError({ code: 'not-served' }),
          secondsHeard: outcome.seconds,
        };
      return outcome;
    } finally {
      unwatch();
    }
  }

  /**
   * An order rendered (file, voice message, mixed scene); stopRenders or rightsChanged end it (Order `end`). Checked
   * before each part is asked for and before anything is posted.
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

  /** Before each part is fetched and plays: voices not deleted, server served, the front-end's `stillAllowed`. */
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

/** A scene cut at its cap in voice: played all the same, the cut said with it. */
function withCut(outcome: SpeechOutcome, cut: SceneCut | undefined): SpeechOutcome {
  if (cut === undefined || outcome.kind !== 'played') return outcome;
  return { ...outcome, cutAt: cut.at, linesBeforeCut: cut.lines };
}

/** The parts' results as one outcome: a skip ends the whole reply; parts after a failed one make no sense alone. */
async function played(
  player: GuildPlayer,
  clips: readonly PartClip[],
  results: ReadonlyArray<Promise<PlaybackResult>>,
): Promise<SpeechOutcome> {
  let seconds = 0;
  for (const pending of results) {
    const result = await pending;
    seconds += result.seconds;
    if (result.status === 'failed') {
      player.dropQueued(clips);
      return { kind: 'failed', error: result.error, secondsHeard: seconds };
    }
    if (result.status !== 'played') {
      player.dropQueued(clips);
      return { kind: result.status, seconds };
    }
  }
  return { kind: 'played', seconds };
}
