import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { CloneVoiceResponse } from '../api/client.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { Charge, SpendContext } from '../quota/charge.ts';
import type { GuildPlayer, PlaybackResult } from '../voice/guild-player.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { VoiceMessage } from '../voice-message/render.ts';
import {
  fileAsVoiceMessage,
  partClip,
  partsFile,
  partsVoiceMessage,
  type PartClip,
  type StillAllowed,
} from './clips.ts';
import { SpeechInputError } from './errors.ts';
import { RightsRevokedError, type Revocation } from './revocation.ts';
import type { SpeechRequest } from './request.ts';
import type { ServiceFallback } from './part-source.ts';
import type { FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import { Refusal, type RefusalReason } from '../refusal.ts';
import { freeVoiceFor, isFreeVoice } from '../free-voice/free-voices.ts';
import type { PartSource } from './part-source.ts';
import { FreeRequestRate } from './free-rate.ts';
import { QueueBook, enforcementFor, estimateSpeechSeconds, type Admission, type QueueBounds } from './queue-bounds.ts';
import { countCharacters, splitText } from './split-text.ts';

export type { SpeechRequest } from './request.ts';

/** Who asked, where their spends are recorded, and which rules hold for them. Nothing Discord-interaction-specific. */
export interface Requester {
  guildId: string;
  userId: string;
  /**
   * What asked: 'say' | 'emote' | 'clone' | 'autoread' | 'speak-message' ...: recorded with each spend (the
   * `command` column) and in logs, never read to decide anything (that is `policy`).
   */
  command: string;
  /** Unique per request: logs and the player's item labels. */
  id: string;
  /** When the member asked (ms since epoch, e.g. Discord's createdTimestamp): the time-to-first-audio metric. */
  askedAt?: number | undefined;
  /** The rules it is held to, chosen where the request is made. */
  policy: RequestPolicy;
  /**
   * Asked before each part is fetched and again before it plays: whether what was accepted may still be said for
   * this member now (their voice rights where it plays, auto-read's ignore list). Undefined: it may. A Revocation
   * drops that part and the rest of the request; a part not fetched yet is never requested nor paid. Supplied by
   * the front-end that knows the member; absent: only the pipeline's own checks hold (a deleted voice, the server
   * still served).
   */
  stillAllowed?: () => Revocation | undefined | Promise<Revocation | undefined>;
}

/** How a request is paced and bounded, and who may stop it: set by the front-end that makes it. */
export interface RequestPolicy {
  /**
   * Waits out the member cooldown between paid requests (src/core/quota/budgets.ts); the day and month budgets always
   * hold.
   */
  memberCooldown: boolean;
  /** May be refused by the queue bounds (queue-bounds.ts) and the free-request rate (free-rate.ts). */
  queueBounded: boolean;
  /** Its member may /stop its clips without a moderator's rights (src/features/player/player-control.ts). */
  requesterMayStop: boolean;
}

/** A member's own request (a command, a menu, a reply's button): every rule holds. */
export const MEMBER_REQUEST: Readonly<RequestPolicy> = {
  memberCooldown: true,
  queueBounded: true,
  requesterMayStop: true,
};

/** Where the audio goes. The front-end chooses it (member in voice or not, `output` option, server default). */
export type SpeechTarget =
  /** The pipeline takes the guild's player, joins (or moves to) the channel and queues the parts there. */
  | { kind: 'voice'; channelId: string; adapterCreator: DiscordGatewayAdapterCreator }
  /** One file; over `sizeLimit` bytes (the interaction's attachment_size_limit) it is rendered as a voice message. */
  | { kind: 'file'; sizeLimit?: number }
  /**
   * Every part joined into one Ogg Opus voice message (src/core/voice-message/render.ts); posting it is the
   * front-end's.
   */
  | { kind: 'voice-message' };

export interface SpeechOrder {
  request: SpeechRequest;
  requester: Requester;
  target: SpeechTarget;
  /**
   * The second half of a request whose characters were already checked (the first line of a clone whose service
   * answered without audio): its spends are recorded but not checked again, or the clone's own spend would put
   * the member in their cooldown before their own voice is heard.
   */
  followUp?: boolean;
  /**
   * Only from the cache (a reply's buttons replay what was already paid for): when a part is no longer cached or
   * in flight, the order is refused (SpeechInputError not-cached) before anything is held or paid; a part that
   * leaves the cache after acceptance (evicted, purged) is refused the same way at its fetch, never paid.
   */
  cachedOnly?: boolean;
}

/** What acceptance tells the front-end. */
export interface AcceptedJob {
  parts: number;
  ahead: number;
  /**
   * Set when the paid voice was refused for money (the month, a budget) and the request is spoken in the free voice
   * instead (FREE_VOICE_FALLBACK): why, and the request as it is spoken. The front-end says so.
   */
  fallback?: { refusal: Refusal; request: SpeechRequest };
}

export interface SpeechJob {
  /**
   * Settles once the text is split, the free checks passed and the characters are held (budgets, month):
   * rejects with a Refusal (src/core/refusal.ts), a SpeechInputError or another typed error before anything is paid.
   * Voice: resolves with the clips ahead in the guild's queue. Joining voice and requesting the first part's
   * audio are already under way when it resolves; the front-end acknowledges the interaction side by side with
   * them, never before it.
   */
  accepted: Promise<AcceptedJob>;
  /** Resolves when the first frame goes out (voice only); never otherwise. */
  firstAudio: Promise<void>;
  /**
   * How it ended. Never rejects: a failure of the service or of voice is an outcome, and so is a refusal
   * (`failed` with the error `accepted` rejected with, nothing heard).
   */
  outcome: Promise<SpeechOutcome>;
}

export type SpeechOutcome = (
  | { kind: 'played' | 'skipped' | 'stopped' | 'cut-off'; seconds: number }
  | { kind: 'failed'; error: unknown; secondsHeard: number }
  | { kind: 'files'; files: Array<{ data: Buffer; format: AudioFormat }>; seconds: number }
  /**
   * The reply as one voice message; `seconds` is its declared duration. `insteadOfFile`: a file was asked for, but
   * it would have been over the target's size limit (its format, size and the limit, to tell the member why).
   */
  | {
      kind: 'voice-message';
      message: VoiceMessage;
      seconds: number;
      insteadOfFile?: { format: AudioFormat; bytes: number; limit: number };
    }
) & {
  /** The free voice that spoke for the service when it failed (FREE_VOICE fallback), and why: the front-end says so. */
  freeVoice?: ServiceFallback;
};

/** A reference clip for a new voice, checked by the front-end (src/core/frontend/reference-clip.ts). */
export interface CloneClip {
  data: Uint8Array;
  filename: string;
  contentType: string;
}

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
  /**
   * Requests costing no characters one member may make per minute in a server (free-rate.ts); absent or 0: no limit.
   */
  freePerMinute?: number;
  /** The clock the free-request rate counts by (default the real one). */
  now?: () => Date;
  /**
   * Whether SayBot still serves this server (ALLOWED_GUILDS), asked before each part like the requester's
   * `stillAllowed`; absent: every server.
   */
  serves?: (guildId: string) => boolean;
  /**
   * FREE_VOICE (src/core/free-voice/): `chosen`, members may ask for its voices; `fallback`, a request refused for
   * money (the month used up, the bot-wide reserve, the server's or the member's budget) is spoken in it instead, at
   * no charge. Absent: neither.
   */
  freeVoice?: { chosen: boolean; fallback: boolean };
  /** Counts a line the free voice spoke (for /usage), once per request heard or delivered; absent: not counted. */
  countFreeLine?: (guildId: string, cause: FreeVoiceCause) => void;
}

/** The refusals for money, which the free voice may answer for: the month, the bot-wide reserve, a budget. */
const FOR_MONEY: ReadonlySet<RefusalReason['code']> = new Set([
  'budget-member-day',
  'budget-guild-month',
  'budget-bot-month',
  'quota-used-up',
  'quota-too-few-left',
]);

/** What acceptance leaves for the rest of the job. */
interface Accepted {
  /** The request as it is spoken: the order's, or its free-voice fallback. */
  request: SpeechRequest;
  fallback?: Refusal;
  texts: string[];
  charge: Charge;
  /** Its place in the queue bounds' figures, released at its outcome. */
  admission: Admission;
  ahead: number;
  /** Voice only: the guild's player and its place in the guild's lane. */
  playback?: { player: GuildPlayer; lane: Lane };
}

/** Voice jobs of one guild accepted but not yet queued on its player (they may be waiting for the join). */
interface Lane {
  /** Their clips, counted as ahead of the next job. */
  clips: number;
  /** Settles when the last of them has been queued (or has failed): jobs are queued in the order accepted. */
  tail: Promise<void>;
}

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
  /** The last cache lookup of accept: each one is settled after the one before, so checks keep the order asked. */
  #lookups: Promise<unknown> = Promise.resolve();
  readonly #queue: QueueBook;
  readonly #freeRate: FreeRequestRate;
  readonly #serves: ((guildId: string) => boolean) | undefined;
  readonly #freeVoice: { chosen: boolean; fallback: boolean };
  readonly #countFreeLine: ((guildId: string, cause: FreeVoiceCause) => void) | undefined;

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

  speak(order: SpeechOrder): SpeechJob {
    let heard: () => void = () => undefined;
    const firstAudio = new Promise<void>((resolve) => (heard = resolve));
    const accepting = this.#accept(order);
    const outcome = accepting.then(
      (accepted) => this.#deliver({ ...order, request: accepted.request }, accepted, heard),
      (error: unknown): SpeechOutcome => {
        discard(order.request);
        return { kind: 'failed', error, secondsHeard: 0 };
      },
    );
    const accepted = accepting.then(({ texts, ahead, fallback, request }): AcceptedJob => ({
      parts: texts.length,
      ahead,
      ...(fallback === undefined ? {} : { fallback: { refusal: fallback, request } }),
    }));
    // A front-end that only awaits the outcome learns of a refusal there; the process must not hear of it.
    accepted.catch(() => undefined);
    return { accepted, firstAudio, outcome };
  }

  /**
   * Creates a cloned voice from a checked reference clip: its characters are checked and held like any request's
   * (a clone is never cached), sent, and recorded. The service answers with its ID and, often, audio.
   */
  async cloneVoice(
    requester: Requester,
    text: string,
    clip: CloneClip,
    signal?: AbortSignal,
  ): Promise<CloneVoiceResponse> {
    const characters = countCharacters(text);
    const charge = await this.#accounting.authorize(
      spendContext(requester),
      [{ text, endpoint: 'voice-clone', characters, free: false }],
      requester.policy,
    );
    try {
      return await this.#source.cloneVoice(text, clip, signal, charge);
    } finally {
      charge.close();
    }
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
  async #accept(order: SpeechOrder): Promise<Accepted> {
    const { request, requester, target } = order;
    const texts = request.kind === 'ready' ? [request.text] : splitText(request.text, this.#maxChars);
    if (texts.length === 0) throw new SpeechInputError({ code: 'empty-text' });
    this.#source.checkVoice(request);
    if (request.kind !== 'ready' && isFreeVoice(request.voice) && !this.#freeVoice.chosen)
      throw new SpeechInputError({ code: 'free-voice-unavailable', voice: request.voice });
    // A full queue costs nothing to refuse: checked before the budgets hold anything.
    const admission = this.#queue.admit({
      guildId: requester.guildId,
      userId: requester.userId,
      ...(target.kind === 'voice'
        ? { voice: { clips: texts.length, seconds: estimateSpeechSeconds(texts.join('')) } }
        : {}),
      enforce: enforcementFor({
        queueBounded: requester.policy.queueBounded,
        paid: order.followUp === true || request.kind === 'ready',
      }),
    });
    const context = spendContext(requester);
    let charge: Charge;
    let spoken = request;
    let fallback: Refusal | undefined;
    try {
      if (order.followUp) {
        charge = this.#accounting.unchecked(context);
      } else {
        try {
          charge = await this.#authorizeParts(order, request, texts);
        } catch (error) {
          const free =
            error instanceof Refusal && FOR_MONEY.has(error.reason.code) ? this.#freeFallback(request) : undefined;
          if (free === undefined) throw error;
          // Refused for money: spoken in the free voice instead, at no charge, and the front-end says why.
          charge = await this.#authorizeParts(order, free, texts);
          spoken = free;
          fallback = error as Refusal;
        }
      }
    } catch (error) {
      admission.release();
      throw error;
    }
    const taken = { request: spoken, ...(fallback === undefined ? {} : { fallback }), texts, charge, admission };
    if (target.kind !== 'voice') return { ...taken, ahead: 0 };
    // From here to the lane's bookkeeping nothing awaits, so jobs take their places in the order they were held.
    const player = this.#players.get(requester.guildId, target.adapterCreator);
    const lane = this.#lanes.get(requester.guildId) ?? { clips: 0, tail: Promise.resolve() };
    this.#lanes.set(requester.guildId, lane);
    const ahead = (player.busy ? player.queueLength + 1 : 0) + lane.clips;
    lane.clips += texts.length;
    return { ...taken, ahead, playback: { player, lane } };
  }

  /**
   * The parts' needs checked and held: cached parts and parts already in flight cost nothing; the rest is held
   * against the budgets until recorded. A Refusal when they may not be spent.
   */
  async #authorizeParts(order: SpeechOrder, request: SpeechRequest, texts: string[]): Promise<Charge> {
    const { requester } = order;
    const needs = await this.#inOrder(this.#source.needs(request, texts));
    if (order.cachedOnly === true && needs.some((need) => !need.free))
      throw new SpeechInputError({ code: 'not-cached' });
    // What spends nothing passes no budget and no cooldown, yet may cost a render and a cache entry: rationed
    // per member instead, as a bound on what waits (a front-end that bounds its own backlog is left out).
    if (requester.policy.queueBounded && needs.every((need) => need.free))
      this.#freeRate.take(requester.guildId, requester.userId);
    const charge = await this.#accounting.authorize(spendContext(requester), needs, requester.policy);
    if (order.cachedOnly === true) this.#source.onlyFree(charge);
    return charge;
  }

  /** The free voice's version of a paid request (its language's free voice, the effects kept); none for the rest. */
  #freeFallback(request: SpeechRequest): SpeechRequest | undefined {
    if (!this.#freeVoice.fallback || request.kind === 'ready' || isFreeVoice(request.voice)) return undefined;
    const voice = freeVoiceFor(request.voice, request.language);
    return { kind: 'tts', text: request.text, voice, ...(request.effects ? { effects: request.effects } : {}) };
  }

  async #deliver(order: SpeechOrder, accepted: Accepted, heard: () => void): Promise<SpeechOutcome> {
    const delivered = await this.#delivered(order, accepted, heard);
    const freeVoice = this.#source.fellBack(accepted.charge);
    const outcome = freeVoice === undefined ? delivered : { ...delivered, freeVoice };
    if (outcome.kind !== 'failed' && order.request.kind !== 'ready') {
      const cause: FreeVoiceCause | undefined =
        accepted.fallback !== undefined || freeVoice !== undefined
          ? 'fallback'
          : isFreeVoice(order.request.voice)
            ? 'chosen'
            : undefined;
      if (cause !== undefined) this.#countFreeLine?.(order.requester.guildId, cause);
    }
    if (outcome.kind === 'failed' && outcome.error instanceof RightsRevokedError)
      this.#revoked(order, outcome.error, outcome.secondsHeard);
    return outcome;
  }

  async #delivered(order: SpeechOrder, accepted: Accepted, heard: () => void): Promise<SpeechOutcome> {
    const allowed: StillAllowed = () => this.#stillAllowed(order);
    try {
      if (order.target.kind === 'voice-message') {
        const message = await partsVoiceMessage(this.#source, order.request, accepted.texts, accepted.charge, allowed);
        return { kind: 'voice-message', message, seconds: message.durationSecs };
      }
      if (order.target.kind === 'file' || !accepted.playback)
        return await this.#render(
          order.request,
          accepted,
          order.target.kind === 'file' ? order.target.sizeLimit : undefined,
          allowed,
        );
      return await this.#play(order, order.target.channelId, accepted, accepted.playback, heard);
    } catch (error) {
      discard(order.request);
      return { kind: 'failed', error, secondsHeard: 0 };
    } finally {
      accepted.charge.close();
      accepted.admission.release();
    }
  }

  /**
   * The one check before each part is fetched and before it plays: the voice not deleted since, the server still
   * served, and whatever the requester's front-end declared (`stillAllowed`). Throws what ends the request.
   */
  async #stillAllowed(order: SpeechOrder): Promise<void> {
    this.#source.checkVoice(order.request);
    const { requester } = order;
    if (this.#serves?.(requester.guildId) === false) throw new RightsRevokedError({ code: 'not-served' });
    const revoked = await requester.stillAllowed?.();
    if (revoked !== undefined) throw new RightsRevokedError(revoked);
  }

  /** The operator's one line for a request cut short by a right taken away (the member is told by its front-end). */
  #revoked(order: SpeechOrder, error: RightsRevokedError, secondsHeard: number): void {
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

  /**
   * Every part read whole, in order, as one file; one over `sizeLimit` becomes a voice message (what Discord
   * would refuse as a file fits as Opus), so the member gets the audio instead of an upload error.
   */
  async #render(
    request: SpeechRequest,
    { texts, charge }: Accepted,
    sizeLimit: number | undefined,
    allowed: StillAllowed,
  ): Promise<SpeechOutcome> {
    const { files, seconds } = await partsFile(this.#source, request, texts, charge, allowed);
    const file = files[0];
    if (sizeLimit === undefined || files.length !== 1 || !file || file.data.length <= sizeLimit)
      return { kind: 'files', files, seconds };
    this.#log.info(
      { code: 'file-too-large', format: file.format, bytes: file.data.length, limit: sizeLimit },
      'file over the upload limit: rendering a voice message instead',
    );
    const message = await fileAsVoiceMessage(file, this.#source.encoding);
    return {
      kind: 'voice-message',
      message,
      seconds: message.durationSecs,
      insteadOfFile: { format: file.format, bytes: file.data.length, limit: sizeLimit },
    };
  }

  /**
   * Joins the channel and requests the first part side by side (a first join's handshake and the service's first
   * byte overlap instead of adding up; the player still sends no frame before DAVE is ready), then queues every
   * part; each later part's request starts as the part before it starts playing.
   */
  async #play(
    order: SpeechOrder,
    voiceChannelId: string,
    accepted: Accepted,
    playback: { player: GuildPlayer; lane: Lane },
    heard: () => void,
  ): Promise<SpeechOutcome> {
    const { requester, request } = order;
    const { player, lane } = playback;
    const label = `${requester.command}:${requester.id}`;
    const allowed: StillAllowed = () => this.#stillAllowed(order);
    const clips = accepted.texts.map((text, index) =>
      partClip(this.#source, request, text, `${label}#${index + 1}`, accepted.charge, this.#log, allowed),
    );
    for (const clip of clips)
      clip.requestedBy = { userId: requester.userId, requesterMayStop: requester.policy.requesterMayStop };
    const first = clips[0];
    if (first) first.started = () => this.#firstFrame(requester, heard);
    // Behind others, its audio waits for its turn like any clip's; with nothing ahead it is wanted now.
    if (accepted.ahead === 0) first?.prepare?.();
    const joined = player.connect(voiceChannelId);
    const queued = Promise.all([lane.tail, joined]).then(() => clips.map((clip) => player.enqueue(clip)));
    lane.tail = queued.then(
      () => undefined,
      () => undefined,
    );
    void lane.tail.then(() => {
      lane.clips -= clips.length;
      if (lane.clips === 0 && this.#lanes.get(requester.guildId) === lane) this.#lanes.delete(requester.guildId);
    });
    let results: Array<Promise<PlaybackResult>>;
    try {
      results = await queued;
    } catch (error) {
      for (const clip of clips) clip.dispose?.();
      throw error;
    }
    return this.#played(player, clips, results);
  }

  /**
   * The parts' results as one outcome: a skip ends the whole reply, and parts after a failed one would make no sense
   * alone.
   */
  async #played(
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

  #firstFrame(requester: Requester, heard: () => void): void {
    heard();
    const askedAt = requester.askedAt;
    // From the member's request as stamped where it was made (what they wait through) to its first frame going out.
    if (askedAt !== undefined) this.#metrics?.timeToFirstAudio(Math.max(0, Date.now() - askedAt) / 1000);
  }
}

/** Who a request's spends are recorded under. */
function spendContext(requester: Requester): SpendContext {
  return { guildId: requester.guildId, userId: requester.userId, command: requester.command };
}

/** Audio handed in whole that will not be played or posted is let go (its connection closed). */
function discard(request: SpeechRequest): void {
  if (request.kind === 'ready') request.response.body.destroy();
}
