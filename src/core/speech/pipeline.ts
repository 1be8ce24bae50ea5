import type { DiscordGatewayAdapterCreator } from '@discordjs/voice';
import type { CloneVoiceResponse } from '../api/client.ts';
import type { AudioFormat } from '../audio/codecs/format.ts';
import type { AudioJobOwner } from '../audio/workers/audio-thread/audio-thread.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Accounting } from '../quota/accounting.ts';
import type { Charge, SpendContext } from '../quota/charge.ts';
import type { GuildPlayer, PlaybackResult } from '../voice/guild-player.ts';
import type { PlayerRegistry } from '../voice/player-registry.ts';
import type { VoiceMessage } from '../voice-message/render.ts';
import {
  fileAsVoiceMessage,
  jobOwner,
  partClip,
  partsFile,
  partsVoiceMessage,
  sceneClip,
  type PartClip,
  type RenderedFile,
  type StillAllowed,
} from './clips.ts';
import { sceneFile } from './scene-file.ts';
import { SpeechInputError } from './errors.ts';
import { RightsRevokedError, type Revocation } from './revocation.ts';
import { RightsWatch } from './rights-watch.ts';
import type { SpeechRequest } from './request.ts';
import type { SceneLine, SceneQuote, SceneTimeline } from './scene-types.ts';
import type { ServiceFallback } from './request.ts';
import type { FreeVoiceCause } from '../store/free-voice-lines-store.ts';
import { Refusal, type RefusalReason } from '../refusal.ts';
import { isFreeVoice } from '../free-voice/free-voices.ts';
import { freeStandIn } from './service-request.ts';
import type { PartSource } from './part-source.ts';
import { FreeRequestRate } from './free-rate.ts';
import { QueueBook, enforcementFor, estimateSpeechSeconds, type Admission, type QueueBounds } from './queue-bounds.ts';
import { countCharacters, splitText } from './split-text.ts';
import { checkEstimatedSeconds } from './seconds-cap.ts';
import { QuoteAllowance, QuoteExceededError } from './quote-ceiling.ts';
import { MAX_SCENE_SECONDS } from '../audio/effects/scene-mix.ts';

export type { SpeechRequest } from './request.ts';
export type { SceneLine, SceneQuote, SceneTimeline } from './scene-types.ts';

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
   * Asked before each part is fetched and again before it plays, and in voice whenever a right may have changed
   * (`rightsChanged`): whether what was accepted may still be said for this member now (their voice rights where it
   * plays, auto-read's ignore list). Undefined: it may. A Revocation ends the part playing and drops the rest of the
   * request; a part not fetched yet is never requested nor paid. Supplied by
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

/**
 * Many voices as one clip (/scene): its lines checked and held together as one request (one hold, every budget),
 * played in voice as one clip of the guild's queue (each part requested as the one before it starts playing), or
 * mixed into one file or voice message whose lines are evened out in loudness and timed (`timeline`).
 */
export interface SceneOrder {
  lines: readonly SceneLine[];
  requester: Requester;
  target: SpeechTarget;
  /** Posted as a file: WAV (the default) or MP3. */
  sceneFormat?: 'wav' | 'mp3' | undefined;
  /**
   * The characters its member confirmed (the preview's quote): it never pays more. Parts that cost more now are
   * refused with QuoteExceededError before anything is held, a part paid late past it at its fetch.
   */
  quoted?: number | undefined;
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
  | {
      kind: 'files';
      files: Array<{ data: Buffer; format: AudioFormat }>;
      seconds: number;
      /** A scene's: when each line is heard in the one file. */
      timeline?: SceneTimeline;
    }
  /**
   * The reply as one voice message; `seconds` is its declared duration. `insteadOfFile`: a file was asked for, but
   * it would have been over the target's size limit (its format, size and the limit, to tell the member why).
   */
  | {
      kind: 'voice-message';
      message: VoiceMessage;
      seconds: number;
      insteadOfFile?: { format: AudioFormat; bytes: number; limit: number };
      /** A scene's: when each line is heard in the voice message. */
      timeline?: SceneTimeline;
    }
) & {
  /** The free voice that spoke for the service when it failed (FREE_VOICE fallback), and why: the front-end says so. */
  freeVoice?: ServiceFallback;
  /** A scene's audio proved longer than its cap (seconds) and was cut there: the front-end says so. */
  cutAt?: number;
};

/** A reference clip for a new voice, checked by the front-end (src/features/voices/reference-clip.ts). */
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

/** A request's lines as the pipeline handles them: one for a plain request, one per line for a scene. */
interface SpokenLine {
  request: SpeechRequest;
  texts: string[];
  pauseBefore: number;
}

/** An order as the pipeline handles it, plain or a scene. */
interface Job {
  requester: Requester;
  target: SpeechTarget;
  followUp?: boolean | undefined;
  cachedOnly?: boolean | undefined;
  lines: SpokenLine[];
  scene: boolean;
  /** A scene posted as a file: WAV or MP3. */
  sceneFormat?: 'wav' | 'mp3' | undefined;
  /** The characters confirmed: a ceiling on what it pays (SceneOrder.quoted). */
  quoted?: number | undefined;
}

/** What acceptance leaves for the rest of the job. */
interface Accepted {
  /** The lines as they are spoken: the order's, or (a plain request) its free-voice fallback. */
  lines: SpokenLine[];
  fallback?: Refusal;
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
  readonly #rights = new RightsWatch();

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
    const { request, ...rest } = order;
    return this.#speakJob(() => ({
      ...rest,
      lines: [{ request, texts: this.#split(request), pauseBefore: 0 }],
      scene: false,
    }));
  }

  /** A scene (SceneOrder): its lines held together and spoken as one clip, file or voice message. */
  speakScene(order: SceneOrder): SpeechJob {
    const { lines, ...rest } = order;
    return this.#speakJob(() => ({ ...rest, lines: this.#sceneLines(lines), scene: true }));
  }

  /**
   * What a scene would cost if it were spoken now: its parts, the characters of those not cached nor in flight, and
   * the lines that cost nothing. Holds, counts and pays nothing; a voice this server may not use is refused as when
   * spoken.
   */
  async quoteScene(lines: readonly SceneLine[]): Promise<SceneQuote> {
    const spoken = this.#sceneLines(lines);
    for (const line of spoken) this.#checkRequest(line.request);
    const needs = await Promise.all(spoken.map((line) => this.#source.needs(line.request, line.texts)));
    return {
      parts: needs.reduce((sum, parts) => sum + parts.length, 0),
      characters: needs.flat().reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0),
      cachedLines: needs.filter((parts) => parts.every((need) => need.free)).length,
    };
  }

  #speakJob(make: () => Job): SpeechJob {
    let heard: () => void = () => undefined;
    const firstAudio = new Promise<void>((resolve) => (heard = resolve));
    let job: Job | undefined;
    const accepting = Promise.resolve().then(() => this.#accept((job = make())));
    const outcome = accepting.then(
      (accepted) => this.#deliver(job as Job, accepted, heard),
      (error: unknown): SpeechOutcome => {
        for (const line of job?.lines ?? []) discard(line.request);
        return { kind: 'failed', error, secondsHeard: 0 };
      },
    );
    const accepted = accepting.then(({ lines, ahead, fallback }): AcceptedJob => {
      const [first] = lines;
      return {
        parts: lines.reduce((sum, line) => sum + line.texts.length, 0),
        ahead,
        ...(fallback === undefined || first === undefined
          ? {}
          : { fallback: { refusal: fallback, request: first.request } }),
      };
    });
    // A front-end that only awaits the outcome learns of a refusal there; the process must not hear of it.
    accepted.catch(() => undefined);
    return { accepted, firstAudio, outcome };
  }

  /** A request's text in parts the service takes; a request with nothing to say is refused. */
  #split(request: SpeechRequest): string[] {
    const texts = request.kind === 'ready' ? [request.text] : splitText(request.text, this.#maxChars);
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

  /** A voice deleted since, or a free voice the operator does not offer: refused before anything is held. */
  #checkRequest(request: SpeechRequest): void {
    this.#source.checkVoice(request);
    if (request.kind !== 'ready' && isFreeVoice(request.voice) && !this.#freeVoice.chosen)
      throw new SpeechInputError({ code: 'free-voice-unavailable', voice: request.voice });
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
   * A right may have been taken away in this guild (from this member, when named): Discord's caches changed (a voice
   * state, a channel's or a role's permissions, the server left) or auto-read's ignore list did. What plays or waits
   * in voice for whoever may no longer be heard is ended now, the clip playing at its next packet
   * (rights-watch.ts), with the RightsRevokedError its front-end words.
   */
  rightsChanged(guildId: string, userId?: string): void {
    this.#rights.recheck(guildId, userId);
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
  async #accept(job: Job): Promise<Accepted> {
    const { requester, target, lines } = job;
    for (const line of lines) this.#checkRequest(line.request);
    // A scene plays as one clip of the guild's queue; a plain request as one clip per part.
    const clips = job.scene ? 1 : lines.reduce((sum, line) => sum + line.texts.length, 0);
    const seconds = lines.reduce((sum, line) => sum + line.pauseBefore + estimateSpeechSeconds(line.texts.join('')), 0);
    // A scene's file is mixed to at most MAX_SCENE_SECONDS, which only its audio proves: its estimate, before anything.
    if (job.scene && target.kind !== 'voice') checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS);
    const ready = lines.some((line) => line.request.kind === 'ready');
    // A full queue costs nothing to refuse: checked before the budgets hold anything.
    const admission = this.#queue.admit({
      guildId: requester.guildId,
      userId: requester.userId,
      ...(target.kind === 'voice' ? { voice: { clips, seconds } } : {}),
      enforce: enforcementFor({
        queueBounded: requester.policy.queueBounded,
        paid: job.followUp === true || ready,
      }),
    });
    const context = spendContext(requester);
    let charge: Charge;
    let spoken = lines;
    let fallback: Refusal | undefined;
    try {
      if (job.followUp) {
        charge = this.#accounting.unchecked(context);
      } else {
        try {
          charge = await this.#authorizeParts(job, lines);
        } catch (error) {
          const [only] = lines;
          const free =
            error instanceof Refusal && FOR_MONEY.has(error.reason.code) && !job.scene && only !== undefined
              ? this.#freeFallback(only.request)
              : undefined;
          if (free === undefined || only === undefined) throw error;
          // Refused for money: spoken in the free voice instead, at no charge, and the front-end says why. Refused
          // that too (the free-request rate), the member hears of the money, the cause.
          spoken = [{ ...only, request: free }];
          charge = await this.#authorizeParts(job, spoken).catch(() => Promise.reject(error));
          fallback = error as Refusal;
        }
      }
    } catch (error) {
      admission.release();
      throw error;
    }
    const taken = { lines: spoken, ...(fallback === undefined ? {} : { fallback }), charge, admission };
    if (target.kind !== 'voice') return { ...taken, ahead: 0 };
    // From here to the lane's bookkeeping nothing awaits, so jobs take their places in the order they were held.
    const player = this.#players.get(requester.guildId, target.adapterCreator);
    const lane = this.#lanes.get(requester.guildId) ?? { clips: 0, tail: Promise.resolve() };
    this.#lanes.set(requester.guildId, lane);
    const ahead = (player.busy ? player.queueLength + 1 : 0) + lane.clips;
    lane.clips += clips;
    return { ...taken, ahead, playback: { player, lane } };
  }

  /**
   * The parts' needs checked and held: cached parts and parts already in flight cost nothing; the rest is held
   * against the budgets until recorded. A Refusal when they may not be spent.
   */
  async #authorizeParts(job: Job, lines: readonly SpokenLine[]): Promise<Charge> {
    const { requester } = job;
    const needs = (
      await this.#inOrder(Promise.all(lines.map((line) => this.#source.needs(line.request, line.texts))))
    ).flat();
    if (job.cachedOnly === true && needs.some((need) => !need.free)) throw new SpeechInputError({ code: 'not-cached' });
    const { quoted } = job;
    const paid = needs.reduce((sum, need) => sum + (need.free ? 0 : need.characters), 0);
    if (quoted !== undefined && paid > quoted) throw new QuoteExceededError(quoted);
    // What spends nothing passes no budget and no cooldown, yet may cost a render and a cache entry: rationed
    // per member instead, as a bound on what waits (a front-end that bounds its own backlog is left out).
    if (requester.policy.queueBounded && needs.every((need) => need.free))
      this.#freeRate.take(requester.guildId, requester.userId);
    const charge = await this.#accounting.authorize(spendContext(requester), needs, requester.policy);
    if (job.cachedOnly === true) this.#source.onlyFree(charge);
    else if (quoted !== undefined)
      this.#source.limitLate(charge, new QuoteAllowance(quoted - paid, () => new QuoteExceededError(quoted)));
    return charge;
  }

  /** The free voice's version of a paid request (its language's free voice, the effects kept); none for the rest. */
  #freeFallback(request: SpeechRequest): SpeechRequest | undefined {
    if (!this.#freeVoice.fallback || request.kind === 'ready' || isFreeVoice(request.voice)) return undefined;
    return freeStandIn(request);
  }

  async #deliver(job: Job, accepted: Accepted, heard: () => void): Promise<SpeechOutcome> {
    const delivered = await this.#delivered(job, accepted, heard);
    const freeVoice = this.#source.fellBack(accepted.charge);
    const outcome = freeVoice === undefined ? delivered : { ...delivered, freeVoice };
    if (outcome.kind !== 'failed') {
      // Each line a free voice was chosen for (a scene's lines, or the one request), or one line in place of the
      // paid voice.
      const count = (cause: FreeVoiceCause) => this.#countFreeLine?.(job.requester.guildId, cause);
      if (accepted.fallback !== undefined || freeVoice !== undefined) count('fallback');
      else
        for (const line of accepted.lines)
          if (line.request.kind !== 'ready' && isFreeVoice(line.request.voice)) count('chosen');
    }
    if (outcome.kind === 'failed' && outcome.error instanceof RightsRevokedError)
      this.#revoked(job, outcome.error, outcome.secondsHeard);
    return outcome;
  }

  async #delivered(job: Job, accepted: Accepted, heard: () => void): Promise<SpeechOutcome> {
    const allowed: StillAllowed = () => this.#stillAllowed(job, accepted.lines);
    const { target } = job;
    try {
      if (job.scene && target.kind !== 'voice') {
        const sizeLimit = target.kind === 'file' ? target.sizeLimit : undefined;
        const format = target.kind === 'file' ? (job.sceneFormat ?? 'wav') : 'wav';
        const mixed = await sceneFile(this.#source, accepted.lines, accepted.charge, allowed, format);
        if (target.kind === 'file') return await this.#fileOrVoiceMessage(mixed, sizeLimit, jobOwner(accepted.charge));
        const message = await fileAsVoiceMessage(mixed.files[0], this.#source.encoding, jobOwner(accepted.charge));
        const cut = mixed.cutAt === undefined ? {} : { cutAt: mixed.cutAt };
        return { kind: 'voice-message', message, seconds: message.durationSecs, timeline: mixed.timeline, ...cut };
      }
      const [line] = accepted.lines;
      if (line === undefined) throw new SpeechInputError({ code: 'empty-text' });
      if (target.kind === 'voice-message') {
        const message = await partsVoiceMessage(this.#source, line.request, line.texts, accepted.charge, allowed);
        return { kind: 'voice-message', message, seconds: message.durationSecs };
      }
      if (target.kind === 'file' || !accepted.playback) {
        const rendered = await partsFile(this.#source, line.request, line.texts, accepted.charge, allowed);
        const sizeLimit = target.kind === 'file' ? target.sizeLimit : undefined;
        return await this.#fileOrVoiceMessage(rendered, sizeLimit, jobOwner(accepted.charge));
      }
      return await this.#play(job, target.channelId, accepted, accepted.playback, heard);
    } catch (error) {
      for (const line of accepted.lines) discard(line.request);
      return { kind: 'failed', error, secondsHeard: 0 };
    } finally {
      accepted.charge.close();
      accepted.admission.release();
    }
  }

  /**
   * The one check before each part is fetched and before it plays: the voices not deleted since, the server still
   * served, and whatever the requester's front-end declared (`stillAllowed`). Throws what ends the request.
   */
  async #stillAllowed(job: Job, lines: readonly SpokenLine[]): Promise<void> {
    for (const line of lines) this.#source.checkVoice(line.request);
    const { requester } = job;
    if (this.#serves?.(requester.guildId) === false) throw new RightsRevokedError({ code: 'not-served' });
    const revoked = await requester.stillAllowed?.();
    if (revoked !== undefined) throw new RightsRevokedError(revoked);
  }

  /** The operator's one line for a request cut short by a right taken away (the member is told by its front-end). */
  #revoked(job: Job, error: RightsRevokedError, secondsHeard: number): void {
    const { requester } = job;
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
   * Rendered parts as the file to post; one over `sizeLimit` becomes a voice message (what Discord would refuse as a
   * file fits as Opus), so the member gets the audio instead of an upload error.
   */
  async #fileOrVoiceMessage(
    rendered: { files: RenderedFile[]; seconds: number; timeline?: SceneTimeline; cutAt?: number },
    sizeLimit: number | undefined,
    owner: AudioJobOwner,
  ): Promise<SpeechOutcome> {
    const { files, seconds, timeline, cutAt } = rendered;
    const file = files[0];
    const timed = { ...(timeline === undefined ? {} : { timeline }), ...(cutAt === undefined ? {} : { cutAt }) };
    if (sizeLimit === undefined || files.length !== 1 || !file || file.data.length <= sizeLimit)
      return { kind: 'files', files, seconds, ...timed };
    this.#log.info(
      { code: 'file-too-large', format: file.format, bytes: file.data.length, limit: sizeLimit },
      'file over the upload limit: rendering a voice message instead',
    );
    const message = await fileAsVoiceMessage(file, this.#source.encoding, owner);
    return {
      kind: 'voice-message',
      message,
      seconds: message.durationSecs,
      insteadOfFile: { format: file.format, bytes: file.data.length, limit: sizeLimit },
      ...timed,
    };
  }

  /**
   * Joins the channel and requests the first part side by side (a first join's handshake and the service's first
   * byte overlap instead of adding up; the player still sends no frame before DAVE is ready), then queues every
   * part; each later part's request starts as the part before it starts playing.
   */
  async #play(
    job: Job,
    voiceChannelId: string,
    accepted: Accepted,
    playback: { player: GuildPlayer; lane: Lane },
    heard: () => void,
  ): Promise<SpeechOutcome> {
    const { requester } = job;
    const { player, lane } = playback;
    const label = `${requester.command}:${requester.id}`;
    const allowed: StillAllowed = () => this.#stillAllowed(job, accepted.lines);
    const parts = accepted.lines.map((line, lineIndex) =>
      line.texts.map((text, index) =>
        partClip(
          this.#source,
          line.request,
          text,
          `${label}#${job.scene ? `${lineIndex + 1}.` : ''}${index + 1}`,
          accepted.charge,
          this.#log,
          allowed,
        ),
      ),
    );
    // A scene is one clip: its lines in turn, each after its pause, so /skip and the queue see it whole.
    const clips = job.scene
      ? [
          sceneClip(
            label,
            accepted.lines.map((line, index) => ({ pauseBefore: line.pauseBefore, parts: parts[index] ?? [] })),
          ),
        ]
      : parts.flat();
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
    // From here to its outcome, an event that takes a right away ends it at once, not at its next part.
    const unwatch = this.#rights.watch({
      guildId: requester.guildId,
      userId: requester.userId,
      check: allowed,
      end: (error) => player.end((item) => clips.includes(item), error),
    });
    try {
      let results: Array<Promise<PlaybackResult>>;
      try {
        results = await queued;
      } catch (error) {
        for (const clip of clips) clip.dispose?.();
        throw error;
      }
      const outcome = await this.#played(player, clips, results);
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
