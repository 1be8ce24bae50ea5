// The words of every failure and refusal a member can meet, whichever front-end met it: the one place an error
// becomes a message (each its own: the cap and its figure, the engine, the service), and "went wrong on my side"
// only for what is SayBot's own bug. The router answers a command's failure with these (src/app/saybot.ts hands
// them over); the core only carries a UserError's chosen words.
import { DiscordAPIError, HTTPError } from 'discord.js';
import {
  AbortedError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  OversizedResponseError,
  UndeliveredError,
  UnexpectedResponseError,
  VoiceApiError,
} from '../../core/api/errors.ts';
import { accountRefusalProven, refusedOnTheWay, serviceBusy } from '../../core/api/response.ts';
import {
  AudioBusyError,
  AudioTooLongError,
  ClipError,
  JobUnavailableError,
  UnsupportedAudioError,
} from '../../core/audio/errors.ts';
import { FreeVoiceFailedError, FreeVoiceMissingError } from '../../core/free-voice/free-voice-engine.ts';
import { EngineError, type EngineFailure } from '../../core/engines/engine-http.ts';
import { dayOf as day, minuteOf, nextMonthStart } from '../../core/calendar.ts';
import { Refusal, type RefusalReason } from '../../core/refusal.ts';
import { RenderStoppedError, SpeechInputError, type SpeechInputProblem } from '../../core/order-errors.ts';
import { RightsRevokedError } from '../../core/order/rights.ts';
import { ESTIMATE_MARGIN, estimateCeiling, OverSecondsCapError } from '../../core/characters.ts';
import { LostAfterPayingError, PaidPartWayError, SharedCallError, lostAfterCharge } from '../../core/quota/money.ts';
import { VoiceMessageError } from '../../core/voice-message/render.ts';
import { VoiceJoinError } from '../../core/voice/connection-session.ts';
import { seatWords } from './seat-words.ts';
import { AudioStalledError } from '../../core/voice/audio-stalled.ts';
import { t, type LocalisedMessage, type MessageKey, type MessageParams } from './strings.ts';
import { echo, echoCode } from '../../core/interactions/safe-text.ts';
import { MissingIdError } from '../../core/interactions/discord-ids.ts';
import { UnmetError, type Unmet } from '../../core/interactions/preconditions.ts';
import {
  MEMBER_AUDIENCE,
  UserError,
  type DescribedFailure,
  type FailureAudience,
  type LogLevel,
} from '../../core/interactions/failures.ts';

/** An engine's failure in the member's words: busy, past its deadline, or any other (not answering, not audio). */
const ENGINE_WORDS: Partial<Record<EngineFailure, 'error.engine.busy' | 'error.engine.timeout'>> = {
  busy: 'error.engine.busy',
  timeout: 'error.engine.timeout',
};

/**
 * A join that failed, by why: its log code, its words (a helper's naming it), its level. The player wrote the
 * operator's line about a close itself; a /leave while it joined is what was asked, not a failure. Any other reason:
 * the join failed.
 */
const JOIN_WORDS: Partial<Record<VoiceJoinError['reason'], [string, Parameters<typeof seatWords>[0], LogLevel]>> = {
  'dave-required': ['voice-dave-required', 'error.voice.daveRequired', 'warn'],
  'rate-limited': ['voice-rate-limited', 'error.voice.rateLimited', 'info'],
  'call-terminated': ['voice-call-terminated', 'error.voice.callTerminated', 'info'],
  left: ['voice-left-while-joining', 'error.voice.leftWhileJoining', 'info'],
  'stage-audience': ['voice-stage-audience', 'error.voice.stageAudienceNow', 'warn'],
};

/**
 * What to tell the user, and how loudly to tell the operator, for any error a command can meet. Failures the
 * operator must fix (key, plan) log at `fatal`/`error`; the service's own trouble at `warn`; the user's at `info`.
 * Without an audience the words are a member's.
 */
export function describeFailure(error: unknown, audience: FailureAudience = MEMBER_AUDIENCE): DescribedFailure {
  if (error instanceof UserError)
    return { ...byKey(error.userMessage, error.level), code: error.code ?? error.userMessage.key };
  // Refused for money or for its key after parts of it were paid: the characters spent, and why the rest was not
  // sent; never "sent nothing", nor "try again" before the quota resets.
  if (error instanceof PaidPartWayError) return paidPartWay(error, audience);
  // Charged, then its audio broke off: all that the request paid (a part fetched ahead included), in its own log code.
  if (error instanceof LostAfterPayingError)
    return {
      ...describeFailure(error.cause, audience),
      message: { key: 'error.api.undelivered.paid', params: { paid: error.paid } },
    };
  // Another order's call, shared, failed after its charge: logged as that call, and none of its charge this order's.
  if (error instanceof SharedCallError)
    return { ...describeFailure(error.cause, audience), message: { key: 'error.api.sharedCallFailed' } };
  // Its member stopped it while it was made: what was asked, with what it cost so far and what it may have (a part
  // closed before its answer); "nothing was charged" only when nothing was sent unanswered either.
  if (error instanceof RenderStoppedError)
    return { code: 'render-stopped', message: renderStopped(error), level: 'info' };
  if (error instanceof Refusal) return byKey(refusalMessage(error.reason, audience), error.level);
  if (error instanceof SpeechInputError) return byKey(inputMessage(error.problem));
  if (error instanceof UnmetError) return byKey(unmetMessage(error.unmet));
  if (error instanceof RightsRevokedError) return byKey(revokedMessage(error));
  // What the service did decides the words (src/core/api/response.ts), before the kind of answer: a request that may
  // have reached it unanswered may have been charged (whatever status a gateway gave, "quota" and "busy" included), one
  // it answered then broke off was; never "could not reach", "used up" or "busy" for either. The service's own 429 not its
  // word on the month is busy, nothing charged; any other 429, or a refusal of the key, the plan or the month not proven
  // its own word, is what SayBot knows: the service or something in front of it refused, its charge as the rule says.
  if (error instanceof VoiceApiError && serviceBusy(error))
    return said('api-rate-limited', 'warn', 'error.api.rateLimited');
  if (error instanceof VoiceApiError && error.status !== undefined && refusedOnTheWay(error)) {
    const key = error.charge === 'not-charged' ? 'error.api.refusedOnTheWay' : 'error.api.refusedOnTheWay.maybeCharged';
    return said('api-refused-on-the-way', 'error', key, { status: error.status });
  }
  const charged = serviceCharge(error);
  if (charged !== undefined) return charged;
  // The service's words (or, without them, what SayBot read of its answer), quoted as a 5xx's are: inert.
  if (error instanceof BadRequestError)
    return said('api-bad-request', 'info', 'error.api.badRequest', {
      detail: echoCode(error.serviceMessage ?? error.message, 200),
    });
  if (error instanceof QuotaExceededError)
    return said('api-quota-exhausted', 'error', 'error.api.quota', {
      reset: day(error.rateLimit?.resetAt ?? nextMonthStart()),
    });
  if (error instanceof ServerError) {
    const status = error.status ?? '5xx';
    // The service's own 5xx (its headers and its JSON error): told with its words, whatever its status.
    if (error.fromService && error.serviceMessage !== undefined)
      return said('api-server-error', 'warn', 'error.api.server.said', {
        status,
        said: echoCode(error.serviceMessage, 200),
      });
    return said('api-server-error', 'warn', 'error.api.server', { status });
  }
  // Not charged, a timeout never reached the service (a resend still connecting at its first send's deadline): not slow.
  if (error instanceof TimeoutError) {
    const key = error.charge === 'not-charged' ? 'error.api.connection' : 'error.api.timeout';
    return said(`api-timeout-${error.phase}`, 'warn', key);
  }
  // A clone the service accepted (and charged) without naming the voice it made, whatever its body was.
  if (error instanceof UndeliveredError && error.missing === 'voice-id')
    return said('api-clone-without-voice-id', 'warn', 'error.api.cloneWithoutVoiceId');
  if (error instanceof VoiceJoinError) {
    const [code, key, level] = JOIN_WORDS[error.reason] ?? ['voice-join-failed', 'error.voice.joinFailed', 'warn'];
    return { code, message: seatWords(key, { channel: `<#${error.channelId}>` }, error.helperId), level };
  }
  if (error instanceof AudioBusyError) {
    if (error.reason === 'owner-busy')
      return said('audio-guild-busy', 'info', 'error.audio.guildBusy', { limit: error.limit ?? 0 });
    if (error.reason === 'member-busy') return said('audio-member-busy', 'info', 'error.audio.memberBusy');
    // A crash or a timeout was this job's own: its words say it failed, not that SayBot is busy.
    const failed = error.reason === 'crashed' || error.reason === 'timeout';
    return said(`audio-${error.reason}`, 'warn', failed ? 'error.audio.failed' : 'error.audio.busy');
  }
  // The owner's engine, where eSpeak NG could not stand in (the free voice off, a line too long for it): free, so
  // nothing was charged; a server past its share is told to wait, as for the free voice's threads.
  if (error instanceof EngineError) {
    const key = ENGINE_WORDS[error.reason] ?? 'error.engine.failed';
    return said(`engine-${error.reason}`, error.reason === 'busy' ? 'info' : 'warn', key);
  }
  // Another job thread (the dictionary's patterns, a chart) could not take the job or finish it in time: busy, try
  // again; never a bug of SayBot's.
  if (error instanceof JobUnavailableError) return said(`job-${error.reason}`, 'warn', 'error.busy');
  if (error instanceof FreeVoiceFailedError)
    return said(`free-voice-${error.reason}`, 'warn', `error.freeVoice.${error.reason}`);
  if (error instanceof UnsupportedAudioError)
    return said('audio-unsupported', 'warn', 'error.audio.unsupported', { format: error.format ?? error.message });
  // A cap on the audio's length, in its own figure: a free line, a scene.
  if (error instanceof AudioTooLongError) {
    const key = error.capped === 'scene' ? 'error.tooLong.scene' : 'error.tooLong.freeLine';
    return said(`too-long-${error.capped}`, 'info', key, { max: error.maxSeconds });
  }
  // A cap only the audio proves, refused on its estimate before anything was made (the estimate, the cap, the
  // margin): a free line's, or a scene's at the preview and at "Play it".
  if (error instanceof OverSecondsCapError) {
    const freeLine = error.capped === 'free-line';
    const code = freeLine ? 'too-long-free-line-estimate' : 'scene.tooLong';
    const key = freeLine ? 'error.tooLong.freeLineEstimate' : 'scene.tooLong';
    const ceiling = Math.floor(estimateCeiling(error.cap));
    const margin = Math.round(ESTIMATE_MARGIN * 100);
    return said(code, 'info', key, { seconds: Math.round(error.estimate), max: error.cap, ceiling, margin });
  }
  // A voice message made of the service's audio: packets that do not decode, or nothing audible in them.
  if (error instanceof VoiceMessageError) return said(`voice-message-${error.code}`, 'warn', 'error.api.unexpected');
  const found = BY_CLASS.find(([type]) => error instanceof type);
  if (found !== undefined) return said(found[1], found[3], found[2]);
  return said('internal', 'error', 'error.internal');
}

/** A post Discord refused or failed past its retries: "could not post" (never internal), saying what `paid` spent. */
export function notPosted(error: unknown, paid = 0): unknown {
  if (!(error instanceof DiscordAPIError || error instanceof HTTPError)) return error;
  if (paid === 0) return new UserError('error.discord.uploadFailed', {}, { cause: error });
  return new UserError('error.discord.uploadFailed.spent', { paid }, { cause: error });
}

/** A failure's log code, its level, and its words. */
function said(code: string, level: LogLevel, key: MessageKey, params?: MessageParams): DescribedFailure {
  return { code, message: params === undefined ? { key } : { key, params }, level };
}

/** A failure logged under its words' key. */
const byKey = (message: LocalisedMessage, level: LogLevel = 'info'): DescribedFailure => ({
  code: message.key,
  message,
  level,
});

// Failures worded by their class alone (log code, words, level), asked after those worded with their figures: the
// first match counts, so a subclass stands before its parent (OversizedResponseError before UndeliveredError).
const BY_CLASS: ReadonlyArray<readonly [abstract new (...args: never[]) => Error, string, MessageKey, LogLevel]> = [
  // A field of Discord's payload that should have held an ID did not: nothing was asked of Discord with it.
  [MissingIdError, 'payload-missing-id', 'error.payload.missingId', 'warn'],
  [AuthenticationError, 'api-key-rejected', 'error.api.unauthorized', 'fatal'],
  [PermissionDeniedError, 'api-plan-without-access', 'error.api.forbidden', 'error'],
  [RateLimitedError, 'api-rate-limited', 'error.api.rateLimited', 'warn'],
  [ConnectionError, 'api-connection', 'error.api.connection', 'warn'],
  [OversizedResponseError, 'api-oversized', 'error.api.oversized', 'warn'],
  [UndeliveredError, 'api-undelivered', 'error.api.undelivered', 'warn'],
  [UnexpectedResponseError, 'api-unexpected', 'error.api.unexpected', 'warn'],
  [AbortedError, 'aborted', 'error.api.aborted', 'info'],
  // Audio that stopped coming until the voice output gave it up: paid for, it is told as a LostAfterPayingError.
  [AudioStalledError, 'audio-stalled', 'error.voice.audioStalled', 'warn'],
  [FreeVoiceMissingError, 'free-voice-missing', 'error.freeVoice.missing', 'error'],
  // Audio that announced itself as a known format but does not decode: the service sent something broken.
  [ClipError, 'audio-corrupt', 'error.api.unexpected', 'warn'],
];

/**
 * The words for a Voice API failure by what the service may have charged: `maybe-charged` (a gateway's 5xx, a timeout,
 * a broken connection after the request left) and a charged body broken off part-way. Undefined for the rest (by class).
 */
function serviceCharge(error: unknown): DescribedFailure | undefined {
  if (!(error instanceof VoiceApiError) || error instanceof UndeliveredError) return undefined;
  if (error.charge === 'maybe-charged') {
    if (error instanceof TimeoutError)
      return said(`api-timeout-${error.phase}`, 'warn', 'error.api.maybeCharged.timeout');
    if (error instanceof ConnectionError) return said('api-connection', 'warn', 'error.api.maybeCharged.connection');
    // The service's own answer (its headers and its JSON error) with a status that proves no charge either way (a 502
    // or 504 it sends for an upstream of its own): its words, and the charge as the rule says.
    if (error.status !== undefined && error.fromService && error.serviceMessage !== undefined)
      return said('api-server-error', 'warn', 'error.api.maybeCharged.service', {
        status: error.status,
        said: echoCode(error.serviceMessage, 200),
      });
    // An answer with a status that is not provably the service's (a gateway's page in its place), whatever status.
    if (error.status !== undefined)
      return said('api-server-error', 'warn', 'error.api.maybeCharged.gateway', { status: error.status });
  }
  // A 2xx (charged) whose body is not audio: a gateway's page in its place, or the service's own fault.
  if (error.charge === 'charged' && error instanceof UnexpectedResponseError)
    return said('api-charged-not-audio', 'warn', 'error.api.chargedNotAudio');
  // Answered and charged, then broken off: the same words wherever the break fell, and however much had been played.
  if (lostAfterCharge(error)) return said('api-cut-off', 'warn', 'error.api.undelivered');
  return undefined;
}

// Whether a failure is worded by what the service did with the request (serviceCharge, parts paid before a refusal:
// PaidPartWayError, audio charged and broken off: LostAfterPayingError), not by where it failed or how much had played.
export const wordedByService = (error: unknown): boolean =>
  serviceCharge(error) !== undefined || error instanceof PaidPartWayError || error instanceof LostAfterPayingError;

/**
 * The words for a request refused for money or its key after earlier parts were paid (money.ts): what was spent, and
 * why the rest was not sent, by the refusal's kind. The log's code stays the refusal's own.
 */
function paidPartWay(error: PaidPartWayError, audience: FailureAudience): DescribedFailure {
  const { paid, cause } = error;
  const inner = describeFailure(cause, audience);
  const worded = (key: MessageKey, params: MessageParams = {}): DescribedFailure => ({
    ...inner,
    message: { key, params: { paid, ...params } },
  });
  const reason = cause instanceof Refusal ? cause.reason : undefined;
  if (cause instanceof ServerError) return worded('error.paidPartWay.failing', { status: cause.status ?? '5xx' });
  if (cause instanceof SpeechInputError)
    return worded('error.paidPartWay.voiceDeleted', inputMessage(cause.problem).params);
  // The service's word on the key, the plan or the month only where proven (src/core/api/response.ts).
  if (cause instanceof VoiceApiError && !accountRefusalProven(cause)) return worded('error.paidPartWay.refused');
  const quotaReset =
    cause instanceof QuotaExceededError
      ? (cause.rateLimit?.resetAt ?? nextMonthStart())
      : reason?.code === 'quota-too-few-left' || reason?.code === 'quota-used-up'
        ? reason.resetAt
        : undefined;
  // What is left, by the service's last word, to those who may see the plan's figures.
  if (reason?.code === 'quota-too-few-left' && audience.planFigures)
    return worded('error.paidPartWay.tooFewLeft', {
      left: reason.left,
      needed: reason.needed,
      reset: day(reason.resetAt),
    });
  if (quotaReset !== undefined) return worded('error.paidPartWay.quota', { reset: day(quotaReset) });
  if (reason?.code.startsWith('budget-') === true) return worded('error.paidPartWay.budget');
  if (cause instanceof AuthenticationError) return worded('error.paidPartWay.keyRefused');
  if (cause instanceof PermissionDeniedError) return worded('error.paidPartWay.planRefused');
  return worded('error.paidPartWay.refused');
}

/** The words for a refusal of the books or the pipeline (src/core/refusal.ts). */
function refusalMessage(reason: RefusalReason, audience: FailureAudience): LocalisedMessage {
  // Outside servers (a user install) the budgets are those of all use outside servers: never "this server".
  const outside = audience.outsideServer === true;
  switch (reason.code) {
    case 'budget-cooldown':
      return {
        key: outside ? 'budget.refused.cooldownOutside' : 'budget.refused.cooldown',
        params: { seconds: reason.waitSeconds, limit: reason.limit },
      };
    case 'budget-member-day':
      return {
        key: outside ? 'budget.refused.memberDayOutside' : 'budget.refused.memberDay',
        params: {
          limit: reason.limit,
          used: reason.used,
          needed: reason.needed,
          reset: `${day(reason.resetAt)} 00:00 UTC`,
        },
      };
    case 'budget-guild-month':
      return {
        key: outside ? 'budget.refused.outsideMonth' : 'budget.refused.guildMonth',
        params: { limit: reason.limit, used: reason.used, needed: reason.needed, reset: day(reason.resetAt) },
      };
    case 'budget-bot-month':
      // The bot's figures are the operator's plan: a member reads that the limit is reached and when it resets.
      return { key: 'budget.refused.botMonth', params: { reset: day(reason.resetAt) } };
    case 'quota-used-up':
      // Refused at acceptance or as its part was about to leave: while another request finds out, or (its order
      // accepted before the service said so) as the service said it.
      if (reason.asking !== true) return { key: 'error.api.quota', params: { reset: day(reason.resetAt) } };
      return { key: 'quota.exhaustedChecking', params: { marked: day(reason.markedAt), reset: day(reason.resetAt) } };
    case 'quota-too-few-left': {
      // What is left is the whole plan's: a member reads only that their text is too long for it, and the reset.
      const reset = day(reason.resetAt);
      // The service's last figure, told while another request asks it: only what it said, and when.
      if (reason.saidAt !== undefined) {
        const at = minuteOf(reason.saidAt);
        if (!audience.planFigures) return { key: 'quota.tooFewLeftSaidForMember', params: { at, reset } };
        return { key: 'quota.tooFewLeftSaid', params: { at, left: reason.left, needed: reason.needed, reset } };
      }
      if (!audience.planFigures) return { key: 'quota.tooFewLeftForMember', params: { reset } };
      return { key: 'quota.tooFewLeft', params: { left: reason.left, needed: reason.needed, reset } };
    }
    case 'spends-unrecorded':
      return { key: 'quota.recordFailed' };
    case 'queue-guild-full':
      return reason.bound === 'clips'
        ? { key: 'queue.refused.guildClips', params: { limit: reason.limit, queued: reason.queued } }
        : { key: 'queue.refused.guildSeconds', params: { limit: reason.limit, queued: reason.queued } };
    case 'queue-member-full':
      return { key: 'queue.refused.member', params: { limit: reason.limit } };
    case 'free-rate':
      return { key: 'budget.refused.freeRate', params: { limit: reason.limit, seconds: reason.waitSeconds } };
    case 'storage-unavailable':
      return { key: 'quota.storageUnavailable' };
    case 'stopping':
      return { key: 'error.shuttingDown' };
    case 'guild-not-chosen':
      return { key: 'error.guildNotAllowed' };
  }
}

/** The words for a request the speech path cannot take as asked (src/core/order-errors.ts), naming what it asked. */
function inputMessage(problem: SpeechInputProblem): LocalisedMessage {
  const key = INPUT_WORDS[problem.code];
  if ('voice' in problem) return { key, params: { voice: echo(problem.voice, 80) } };
  return 'name' in problem ? { key, params: { name: echo(problem.name, 40) } } : { key };
}

const INPUT_WORDS = {
  'empty-text': 'error.input.emptyText',
  'unknown-preset': 'error.preset.unknown',
  'unknown-voice': 'error.input.unknownVoice',
  'voice-unlisted': 'error.input.voiceUnlisted',
  'not-cached': 'buttons.notCached',
  'voice-deleted': 'error.input.voiceDeleted',
  'free-voice-unavailable': 'error.input.freeVoiceUnavailable',
  'engine-voice-unknown': 'error.input.engineVoiceUnknown',
  'engine-voice-not-answering': 'error.input.engineVoiceNotAnswering',
} as const satisfies Record<SpeechInputProblem['code'], MessageKey>;

/** What the member lacks for the command, or for SayBot to speak for them where they are. */
function unmetMessage(unmet: Unmet): LocalisedMessage {
  if (unmet.code === 'manage-server') return { key: unmet.refusal ?? 'error.permission.manageServer' };
  const key = UNMET_WORDS[unmet.code];
  return 'channelId' in unmet ? { key, params: { channel: `<#${unmet.channelId}>` } } : { key };
}

/** What the member lacks; a voice right where SayBot would speak for them is named with the channel. */
const UNMET_WORDS = {
  'guild-only': 'error.input.guildOnly',
  'not-in-voice': 'error.voice.notInVoice',
  'timed-out': 'error.voice.memberTimedOut',
  muted: 'error.voice.memberMuted',
  suppressed: 'error.voice.memberSuppressed',
  'may-not-speak': 'error.voice.memberMayNotSpeak',
  'may-not-connect': 'error.voice.memberMayNotConnect',
  'may-not-view': 'error.voice.memberMayNotView',
} as const satisfies Record<Exclude<Unmet['code'], 'manage-server'>, MessageKey>;

/** A right taken away while the speech waited: which, and where, for the member it was said for. */
function revokedMessage({ revocation, spent, started }: RightsRevokedError): LocalisedMessage {
  const at = started ? 'error.revoked' : 'error.revoked.notStarted';
  const key = `${at}.${revocation.code}` as const;
  const channel = 'channelId' in revocation ? { channel: `<#${revocation.channelId}>` } : undefined;
  const reason =
    revocation.code === 'bot-unheard'
      ? seatWords(`${at}.bot-unheard`, channel ?? {}, revocation.helperId)
      : { key, ...(channel && { params: channel }) };
  return spent === undefined ? reason : { key: 'error.revoked.spent', params: { reason, paid: spent } };
}

/**
 * A refusal's words where they follow something already paid for (a clone made, then its first line refused): its
 * closing "Nothing was spent." would deny the charge, so that sentence (refusal.nothingSpent) is left out.
 */
export function refusalAfterPaying(locale: string | null | undefined, message: LocalisedMessage): string {
  const words = t(locale, message.key, message.params);
  const clause = t(locale, 'refusal.nothingSpent');
  return words.endsWith(clause) ? words.slice(0, -clause.length).trimEnd() : words;
}

/** A stopped render's words: what the service counted of it, and what it may have counted of the part closed. */
function renderStopped({ paid, unconfirmed }: RenderStoppedError): LocalisedMessage {
  if (unconfirmed > 0)
    return paid > 0
      ? { key: 'error.renderStopped.paidClosed', params: { paid, unconfirmed } }
      : { key: 'error.renderStopped.closed', params: { unconfirmed } };
  return paid > 0 ? { key: 'error.renderStopped.paid', params: { paid } } : { key: 'error.renderStopped' };
}
