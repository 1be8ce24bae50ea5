// The speech pipeline: the one way from a member's request to audio, whatever asked (SpeechPipeline). An order run
// top to bottom (#run): rights, lines, place in voice, money, each part fetched and played in voice (#playInVoice) or
// rendered whole (#render), money settled, one outcome; its record is src/core/order/order-record.ts.
import { isFreeVoice } from '../voice-catalogue/voices.ts';
import type { CloneVoiceResponse } from '../api/client.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Readable } from 'node:stream';
import {
  fileAsVoiceMessage,
  orderOwner,
  partsFile,
  partsVoiceMessage,
  type PartCheck,
  type RenderedFile,
} from './clips.ts';
import { sceneFile } from './scene-file.ts';
import type { AudioJobOwner } from '../audio/jobs/audio-thread/audio-thread.ts';
import { partPackets } from '../cache/audio-fill.ts';
import type { TurnEnd } from '../voice/guild-player.ts';
import { sceneClip, type SceneClip, type SceneCut } from './scene-clip.ts';
import { RenderStoppedError, SpeechInputError } from '../order-errors.ts';
import { RightsRevokedError, type OrderRights, type RightsAnswered } from './rights.ts';
import { RightsWatch } from './rights-watch.ts';
import { Money, type MoneyTerms } from '../quota/money.ts';
import type { Admission } from '../quota/capacity.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { FreeSpeaker, FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { SceneLine, SceneQuote, SceneTimeline } from './scene-types.ts';
import { orderedPart, type PartSource } from '../sourcing/part-source.ts';
import {
  checkEstimatedSeconds,
  checkFreeLineSeconds,
  estimatePlanSeconds,
  estimateRequestSeconds,
} from '../characters.ts';
import { partTexts } from '../sourcing/part-request.ts';
import { requireVoice } from '../sourcing/voice-choice.ts';
import type { QueueBounds } from '../config.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';
import type {
  CloneClip,
  OrderEvents,
  Requester,
  RequestPolicy,
  SpeechOrder,
  SpeechOutcome,
  SpokenLine,
  VoicePlace,
} from './order.ts';
import { Order, discard } from './order-record.ts';

export type { SpeechRequest } from '../settings/speech-request.ts';
export type * from './order.ts';

/** What the speech pipeline is made with. */
interface SpeechPipelineOptions {
  /** Where each part comes from (cache, a flight under way, the API), and where it is recorded. */
  source: PartSource;
  /** Budgets and the monthly quota: every paid part is checked and held before anything is sent. */
  accounting: Accounting;
  logger: Logger;
  /** The longest part the service takes: longer text is split at sentence ends. */
  maxCharsPerRequest: number;
  /** Time to first audio, from the requester's `askedAt`; absent when no metrics are served. */
  metrics?: Pick<Metrics, 'timeToFirstAudio'> | undefined;
  /** How much may wait to be heard per server and per member (config.queue); absent: no limit. */
  queue?: QueueBounds;
  /** Requests costing no characters one member may make per minute in a server (src/core/quota/money.ts); 0 or absent: any. */
  freePerMinute?: number;
  /** The clock the free-request rate counts by (default the real one). */
  now?: () => Date;
  /** Whether SayBot is still in this server, asked before each part (absent: always); ALLOWED_GUILDS alone served. */
  inServer?: (guildId: string) => boolean;
  /** Counts lines free voices spoke (for /usage), once per cause and speaker an order heard or delivered. */
  countFreeLines?: (guildId: string, cause: FreeVoiceCause, speaker: FreeSpeaker, lines: number) => void;
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
  readonly #log: Logger;
  readonly #maxChars: number;
  readonly #metrics: Pick<Metrics, 'timeToFirstAudio'> | undefined;
  /** Per guild, the files, voice messages and clones being made, each with whose it is and how it ends (stopRenders). */
  readonly #renders = new Map<string, Set<Stoppable>>();
  readonly #rights = new RightsWatch();
  /** The rights port: an order's rights, and a front-end's before its order exists. */
  readonly rights: OrderRights;
  readonly #inServer: ((guildId: string) => boolean) | undefined;

  constructor(options: SpeechPipelineOptions) {
    this.#source = options.source;
    this.#log = options.logger;
    this.#maxChars = options.maxCharsPerRequest;
    this.#metrics = options.metrics;
    this.#inServer = options.inServer;
    this.rights = options.rights ?? NO_RIGHTS;
    this.#money = new Money({
      accounting: options.accounting,
      queue: options.queue,
      freePerMinute: options.freePerMinute,
      now: options.now,
      countFreeLines: options.countFreeLines,
    });
  }

  /** Counts free work that is not speech (a /usage chart) against the free-request rate; a Refusal when full. */
  takeFreeWork(guildId: string, userId: string): void {
    this.#money.takeFreeWork(guildId, userId);
  }

  /** Takes `asked` as one Order and runs it (#run); refused by its rights, it is never taken. */
  speak(asked: SpeechOrder): OrderEvents & RightsAnswered {
    const verdict = this.rights.allow(asked);
    if (verdict.kind === 'refused') return refusedByRights(verdict.error);
    const order = new Order(verdict.order);
    // A bug left over (a phase out of turn once its outcome was told) is logged, never the process's end.
    this.#run(order).catch((error: unknown) => this.#log.error({ err: error }, 'an order ended out of turn'));
    const { privately, postsPrivately } = verdict;
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
    let place: VoicePlace | undefined;
    let admission: Admission | undefined;
    let paid: MoneyTerms<SpokenLine> | undefined;
    try {
      // Its lines split into parts, and what costs nothing checked first.
      order.split(this.#linesOf(order.asked));
      for (const line of order.lines) this.#checkLine(line);
      const clips = order.scene ? 1 : order.lines.reduce((sum, line) => sum + line.texts.length, 0);
      const seconds = estimatePlanSeconds(order.lines);
      // A scene lasts at most MAX_SCENE_SECONDS, which only its audio proves: its estimate is refused first.
      if (order.scene) checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
      // In voice, its place in its seat's queue is taken from here: /stop, /skip and /leave end it while accepted.
      place = this.#place(order, clips);
      // Who pays for each part, or why not (Money): the queue bounds first, then by what each costs now: nothing
      // cached or in flight, the part source says, a flight so counted kept for the order from here (`waits`).
      const queued = order.target.kind === 'voice' ? { seat: order.target.seat.bot.index, clips, seconds } : undefined;
      const asked = order.lines.map((line) => this.#source.needs(line.request, line.texts, order.waits));
      const admitted = (admission = this.#money.admit(order, queued));
      const needs = Promise.all(asked).then((parts) => parts.flat());
      // Refused for money: the free voice's version of the order speaks instead, where one may (money.ts standInCause).
      const freeLines = () => this.#source.standIns.forOrder(order);
      paid = await this.#money
        .accept(order, admitted, needs)
        .catch((refusal: unknown) => this.#money.acceptInstead(order, admitted, refusal, freeLines));
      order.accept({ ...paid, ...(place && { ahead: place.turn.ahead, playback: place }) });
    } catch (error) {
      // Refused, or accepted by the money but not taken by the order (a phase bug): nothing of it stays held.
      if (paid !== undefined) this.#money.giveBack(paid);
      admission?.leave();
      place?.turn.done();
      order.refuse(error);
      return;
    }
    let outcome: SpeechOutcome;
    try {
      // Each part fetched through the one door and delivered: played in voice, or rendered as files. Its front-end
      // hears it was accepted once the join and the first part's request are under way, and answers beside them.
      order.source();
      const delivering = this.#delivered(order);
      order.tellAccepted();
      const delivered = await delivering;
      // The money settled, then the outcome told.
      outcome = this.#money.settle(order, delivered);
    } catch (error) {
      // A bug past acceptance (settling threw, a phase out of turn): the order ends failed all the same, its charge
      // closed and its place given back, so its front-end hears of it and its guild's next order plays.
      this.#log.error({ err: error, requestId: order.requester.id }, 'an order failed past acceptance');
      outcome = this.#money.settle(order, { kind: 'failed', error, secondsHeard: 0 });
    }
    order.settled(outcome);
    if (outcome.kind === 'failed' && outcome.error instanceof RightsRevokedError)
      this.#revoked(order, outcome.error, outcome.secondsHeard);
  }

  #linesOf(asked: SpeechOrder): SpokenLine[] {
    if ('scene' in asked) return this.#sceneLinesOf(asked.scene);
    return [{ request: asked.request, texts: this.#split(asked.request), pauseBefore: 0 }];
  }

  #place(order: Order, clips: number): VoicePlace | undefined {
    const { target, requester } = order;
    if (target.kind !== 'voice') return undefined;
    const player = target.seat.player();
    const turn = player.place({
      owner: {
        label: `${requester.command}:${requester.id}`,
        requestedBy: { userId: requester.userId, requesterMayStop: requester.policy.requesterMayStop },
      },
      clips,
      channelId: target.channelId,
    });
    return { player, turn };
  }

  /** What a scene would cost now (parts, uncached characters, free lines); holds and pays nothing. */
  async quoteScene(lines: readonly SceneLine[]): Promise<SceneQuote> {
    const spoken = this.#sceneLinesOf(lines);
    for (const line of spoken) this.#checkLine(line);
    const needs = await Promise.all(spoken.map((line) => this.#source.needs(line.request, line.texts)));
    return {
      parts: needs.reduce((sum, parts) => sum + parts.length, 0),
      characters: needs.flat().reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0),
      // A free voice's line costs nothing whether made or not: only a paid line's need tells that it is made.
      cachedLines: needs.filter((parts, i) => !isFreeVoice(spoken[i]!.request.voice) && parts.every((n) => n.free))
        .length,
    };
  }

  /** A request's text in the parts it becomes (src/core/sourcing/part-request.ts). Empty text is refused. */
  #split(request: SpeechRequest): string[] {
    const texts = partTexts(request, this.#maxChars);
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

  /** Its voice as a member's choice, and each part within a free line: refused before any hold. */
  #checkLine({ request, texts }: SpokenLine): void {
    this.#voicesSpeak([{ request }], 'chosen');
    if (request.kind !== 'ready' && isFreeVoice(request.voice))
      for (const text of texts) checkFreeLineSeconds(text, request.voice);
  }

  /** The order's one question of the voice rule (voice-choice.ts): as its lines are held, and before each part. */
  #voicesSpeak(lines: ReadonlyArray<{ request: SpeechRequest }>, as: 'part' | 'chosen' = 'part'): void {
    for (const { request: r } of lines) if (r.kind !== 'ready') requireVoice(r.voice, this.#source.speakers, as);
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

  // A /clone from acceptance to its first line handed to speak(): /stop (stopRenders) aborts `signal`, which cloneVoice
  // takes as `stop`. `done()` once its line is handed over or it is over.
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

  // A request as a free voice says it (auto-read's free_voice), never the paid one: where none may speak here, eSpeak
  // NG's, which the line's checks then refuse (free-voice-unavailable).
  freeVersion(request: SpeechRequest): SpeechRequest {
    return this.#source.standIns.freeVersion(request);
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
   * An order's parts played in its turn (its place in the queue since acceptance: /stop, /skip, /leave and a right
   * taken away end it wherever it is). Each part: still wanted, fetched through the one door, handed to the player. The
   * first part's request leaves beside the join when nothing is ahead (else once the order before plays its last clip);
   * each later one's as the one before is heard; none after a part cut short. A scene is one clip (scene-clip.ts).
   */
  async #playInVoice(order: Order, voiceChannelId: string, { player, turn }: VoicePlace): Promise<SpeechOutcome> {
    const { requester } = order;
    // Asked of the channel it plays in now: a moderator may have dragged the bot elsewhere.
    const allowed: PartCheck = () => this.#stillAllowed(order, player.channelId ?? voiceChannelId);
    // From here to its outcome, an event that takes a right away ends it at once, not at its next part.
    const unwatch = this.#rights.watch({
      guildId: requester.guildId,
      userId: requester.userId,
      check: allowed,
      end: (error) => player.end((owner) => owner === turn.owner, error),
    });
    // Let go of a part fetched ahead when the order ends at the part before it.
    const letGo = new AbortController();
    const signal = AbortSignal.any([turn.signal, letGo.signal]);
    const parts = order.lines.flatMap((line) => line.texts.map((text) => ({ request: line.request, text })));
    /** Part `index`'s packets, once it is still wanted (not once its order ended, woken as a stop ends every order
     * waiting); checked again when fetched (a right taken meanwhile). */
    const partPacketsOf = async (index: number): Promise<Readable> => {
      const { request, text } = parts[index] as { request: SpeechRequest; text: string };
      await allowed();
      signal.throwIfAborted();
      const audio = await orderedPart(this.#source, request, text, signal, order);
      try {
        await allowed();
      } catch (error) {
        audio.body.destroy();
        throw error;
      }
      const label = `${turn.owner.label}#${index + 1}`;
      this.#log.debug({ label, requestId: audio.requestId, format: audio.format }, 'audio response started');
      return partPackets(audio, this.#source.encoding, signal);
    };
    // A scene is one clip: its lines in turn, each after its pause, so /skip and the queue see it whole.
    let scene: SceneClip | undefined;
    const sceneLines = order.lines.map((line) => ({
      pauseBefore: line.pauseBefore,
      estimates: line.texts.map((text) => estimateRequestSeconds(line.request, text)),
    }));
    const count = order.scene ? 1 : parts.length;
    const fetched = async (index: number): Promise<Readable> => {
      if (!order.scene) return partPacketsOf(index);
      scene = sceneClip(sceneLines, partPacketsOf, signal);
      return scene.packets;
    };
    let next: Promise<Readable> | undefined;
    let seconds = 0;
    const due = Promise.withResolvers<void>();
    try {
      if (turn.endedAs !== undefined) return endedOutcome(turn.endedAs, 0);
      const { request, text } = parts[0] as { request: SpeechRequest; text: string };
      next = (async () => {
        // Behind another order, once it plays its last clip; as the month's probe, at its turn: a due order's answer.
        if (turn.ahead > 0 && (await turn.near.then(() => this.#source.findsOut(request, text)))) await due.promise;
        return fetched(0);
      })();
      next.catch(() => undefined);
      const joined = player.connect(voiceChannelId);
      joined.catch(() => undefined);
      await Promise.race([joined, turn.ended]);
      if (turn.endedAs === undefined) await turn.take();
      due.resolve();
      for (let index = 0; index < count && turn.endedAs === undefined; index++) {
        let packets: Readable;
        try {
          packets = await (next ?? fetched(index));
        } catch (error) {
          if (turn.endedAs !== undefined) break;
          return { kind: 'failed', error, secondsHeard: seconds };
        }
        next = undefined;
        const { started, result } = turn.play(packets, scene ? turn.owner.label : `${turn.owner.label}#${index + 1}`);
        if (await Promise.race([started.then(() => true), result.then(() => false)])) {
          if (index === 0) this.#firstFrame(order);
          // Heard: the next part is fetched while this one plays.
          if (index + 1 < count) next = fetched(index + 1);
          next?.catch(() => undefined);
        }
        const ended = await result;
        seconds += ended.seconds;
        if (ended.status !== 'played') {
          const outcome = endedOutcome({ status: ended.status, error: ended.error }, seconds);
          // Kicked or the server deleted: discord.js ends the voice connection before it says so, and what was cut
          // off there is the server no longer served, not a lost connection to rejoin.
          if (outcome.kind === 'cut-off' && this.#inServer?.(requester.guildId) === false)
            return { kind: 'failed', error: new RightsRevokedError({ code: 'not-served' }), secondsHeard: seconds };
          return outcome;
        }
      }
      if (turn.endedAs !== undefined) return endedOutcome(turn.endedAs, seconds);
      return withCut({ kind: 'played', seconds }, scene?.cut());
    } finally {
      due.resolve();
      letGo.abort();
      void next?.then((packets) => packets.destroy()).catch(() => undefined);
      scene?.packets.destroy();
      unwatch();
      turn.done();
    }
  }

  /** An order rendered (file, voice message, scene), checked before each part and the post; stopRenders ends it. */
  async #render(order: Order): Promise<SpeechOutcome> {
    const { guildId, userId } = order.requester;
    const { requesterMayStop } = order.requester.policy;
    // What ended it (a RenderStoppedError, a RightsRevokedError), rather than the AbortedError of the part let go of.
    const notEnded = () => {
      if (order.ended.aborted) throw order.ended.reason;
    };
    const allowed: PartCheck = async () => {
      notEnded();
      await this.#stillAllowed(order);
      notEnded();
    };
    const end = (error: Error) => order.end(error);
    const unlist = this.#stoppable({ kind: 'render', guildId, userId, requesterMayStop, ended: order.ended, end });
    const unwatch = this.#rights.watch({ guildId, userId, check: () => this.#stillAllowed(order), end });
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
  async #stillAllowed(order: Order, voiceChannelId?: string): Promise<void> {
    this.#voicesSpeak(order.lines);
    const { requester } = order;
    if (this.#inServer?.(requester.guildId) === false) throw new RightsRevokedError({ code: 'not-served' });
    const revoked = await order.stillAllowed?.(voiceChannelId);
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
    const bot = order.target.kind === 'voice' ? order.target.seat.bot.index : undefined;
    if (askedAt !== undefined) this.#metrics?.timeToFirstAudio(Math.max(0, Date.now() - askedAt) / 1000, bot);
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

/** Without a port (the core's own tests) an order is held to no rights but the pipeline's own. */
const NO_RIGHTS: OrderRights = {
  allows: () => ({ kind: 'allowed', privately: false }),
  requireAllowed: () => ({ kind: 'allowed', privately: false }),
  stillAllows: () => undefined,
  allow: (order) => ({ kind: 'allowed', order, privately: false, postsPrivately: () => false }),
};

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

/** An order in voice that ended early, as its outcome. */
function endedOutcome(end: TurnEnd, seconds: number): SpeechOutcome {
  return end.status === 'failed'
    ? { kind: 'failed', error: end.error, secondsHeard: seconds }
    : { kind: end.status, seconds };
}

/** A member's own request (a command, a menu, a reply's button): every rule holds. */
export const MEMBER_REQUEST: Readonly<RequestPolicy> = {
  memberCooldown: true,
  queueBounded: true,
  requesterMayStop: true,
};

/** Rendered parts as the file to post; over `sizeLimit`, a voice message (fits as Opus), not an upload error. */
async function fileOrVoiceMessage(
  rendered: { files: RenderedFile[]; seconds: number; timeline?: SceneTimeline; cutAt?: number },
  sizeLimit: number | undefined,
  encoding: PartSource['encoding'],
  log: Logger,
  owner: AudioJobOwner,
): Promise<SpeechOutcome> {
  const { files, seconds, timeline, cutAt } = rendered;
  const file = files[0];
  const timed = { ...(timeline === undefined ? {} : { timeline }), ...(cutAt === undefined ? {} : { cutAt }) };
  if (sizeLimit === undefined || files.length !== 1 || !file || file.data.length <= sizeLimit)
    return { kind: 'files', files, seconds, ...timed };
  log.info(
    { code: 'file-too-large', format: file.format, bytes: file.data.length, limit: sizeLimit },
    'file over the upload limit: rendering a voice message instead',
  );
  const insteadOfFile = { format: file.format, bytes: file.data.length, limit: sizeLimit };
  const message = await fileAsVoiceMessage(file, encoding, owner);
  return { kind: 'voice-message', message, seconds: message.durationSecs, insteadOfFile, ...timed };
}

/** An order rendered whole (file, voice message, or voice without a player); a part-way file is told to the order. */
async function rendered(source: PartSource, log: Logger, order: Order, allowed: PartCheck): Promise<SpeechOutcome> {
  const { target } = order;
  const sizeLimit = target.kind === 'file' ? target.sizeLimit : undefined;
  const owner = orderOwner(order);
  if (order.scene && target.kind !== 'voice') {
    const format = target.kind === 'file' ? (order.sceneFormat ?? 'wav') : 'wav';
    const mixed = await sceneFile(source, order.lines, order, allowed, format);
    if (target.kind === 'file') return fileOrVoiceMessage(mixed, sizeLimit, source.encoding, log, owner);
    const message = await fileAsVoiceMessage(mixed.files[0], source.encoding, owner);
    const cut = mixed.cutAt === undefined ? {} : { cutAt: mixed.cutAt };
    return { kind: 'voice-message', message, seconds: message.durationSecs, timeline: mixed.timeline, ...cut };
  }
  const [line] = order.lines;
  if (line === undefined) throw new SpeechInputError({ code: 'empty-text' });
  if (target.kind === 'voice-message') {
    const { message, restFailed } = await partsVoiceMessage(source, line.request, line.texts, order, allowed);
    if (restFailed !== undefined) order.partWay(restFailed);
    return { kind: 'voice-message', message, seconds: message.durationSecs };
  }
  const { restFailed, ...files } = await partsFile(source, line.request, line.texts, order, allowed);
  if (restFailed !== undefined) order.partWay(restFailed);
  return fileOrVoiceMessage(files, sizeLimit, source.encoding, log, owner);
}
