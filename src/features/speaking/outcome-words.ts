// One outcome, worded in one place: a SpeechOutcome (src/core/order/order.ts) becomes the member's words,
// attachments and buttons, for every front-end. Pure, so every kind × front-end is a table (test/features/speaking/).
// An outcome a target cannot produce is SayBot's bug (OutcomeMismatchError); `failed` is worded by failure-words.ts.
// What a front-end knows (Front) and posts (OutcomeAnswer) are declared here with it, and so are the words that name
// the free voice standing in (why the paid one did not speak: no member's figures, the channel may read them) and
// the files a reply carries, named once: `saybot-<voice>.<format>` after the voice that spoke (a stand-in too).
import type { AttachmentPayload } from 'discord.js';
import type { AudioFormat } from '../../core/audio/codecs/format.ts';
import type { SceneTimeline } from '../../core/order/scene-types.ts';
import type { VoiceMessage } from '../../core/voice-message/render.ts';
import type { VoiceMessageFallbackReason } from './voice-message-post.ts';
import { UserError, type LogLevel } from '../../core/interactions/failures.ts';
import { BadRequestError, VoiceApiError } from '../../core/api/errors.ts';
import { EngineError } from '../../core/engines/engine-http.ts';
import { FreeVoiceFailedError } from '../../core/free-voice/free-voice-engine.ts';
import type { SpeechOutcome } from '../../core/order/pipeline.ts';
import { LostAfterPayingError, PaidPartWayError, QuoteExceededError } from '../../core/quota/money.ts';
import { RenderStoppedError, SpeechInputError } from '../../core/order-errors.ts';
import { RightsRevokedError } from '../../core/order/rights.ts';
import type { Refusal } from '../../core/refusal.ts';
import type { StandIn } from '../../core/settings/speech-request.ts';
import { echoCode, namedVoice } from '../../core/interactions/safe-text.ts';
import { describeFailure, wordedByService } from './failure-words.ts';
import { seatWords } from './seat-words.ts';
import { t, type LocalisedMessage, type MessageKey, type MessageParams } from './strings.ts';

export type Locale = string | null | undefined;

/** Where a command's audio went, as speaking-command.ts chose it (a file or voice message: why). */
export type CommandWhere =
  /**
   * `movedTo`: a moderator moved its bot into another channel, where someone listened, and it ended there;
   * `helperId`: that bot is a helper, named where the words are about it.
   */
  | { kind: 'voice'; channelId: string; movedTo?: string | undefined; helperId?: string | undefined }
  | { kind: 'file' | 'voice-message'; because: 'asked' | 'no-voice' };

/** What /say and /emote know of their speech, in a server or outside one. */
interface Spoken {
  locale: Locale;
  /** The voice as replies name it so far (with why it was chosen, or the free voice that stood in): words, not an ID. */
  label: string;
  voiceId: string;
  /** The credit the speaking voice's engine asks for (`VOICEVOX:<speaker>`), on its files and voice message. */
  credit?: string | undefined;
  sizeLimit: number;
}

/** What a front-end knows of the order whose outcome it words. */
export type Front =
  /** /say, /emote, the Speak menu, /clone's first line (speaking-command.ts). */
  | (Spoken & {
      flavour: 'command';
      where: CommandWhere;
      /** The refusal for money the free voice speaks for in place of the paid one at acceptance (Acceptance.fallback). */
      fellBack: Refusal | undefined;
      /** The reply may carry the replay buttons (replies are kept and the request is replayable). */
      buttons: boolean;
    })
  /** /say and /emote outside a server (user-install.ts): a file, or a voice message as the response. */
  | (Spoken & { flavour: 'user-install'; where: 'file' | 'voice-message' })
  /** A reply's "Play in my voice channel", from the cache (reply-buttons.ts). */
  | { flavour: 'replay'; channelId: string; voiceId: string; helperId?: string | undefined }
  /** A reply's "Again" under a voice message, from the cache (reply-buttons.ts). */
  | { flavour: 'post-again'; voiceId: string; sizeLimit: number; memberId: string }
  /** "Save as sound" (soundboard.ts): the audio for the soundboard, worded by the soundboard once it took it. */
  | { flavour: 'sound' }
  /** /scene's "Play it" (src/features/scenes/scene-delivery.ts). */
  | {
      flavour: 'scene';
      locale: Locale;
      channelId?: string;
      speakers: number;
      lines: number;
      sizeLimit: number;
      memberId: string;
    }
  /** The studio's Make and Play it (the dashboard, through src/features/scenes/studio-scene.ts). */
  | { flavour: 'studio' }
  /** A dashboard voice sample (src/features/dashboard/samples.ts): audio served over HTTP; a note names a stand-in. */
  | { flavour: 'sample' };

export type Flavour = Front['flavour'];

/** Which row of reply buttons goes with an answer (reply-button-row.ts builds it). */
export type ButtonsFor = 'voice' | 'file';

/** Why a voice message went to the member as a file instead: Discord's or the member's bar, or no response to be. */
export type AsFileReason = VoiceMessageFallbackReason | 'not-a-response';

/** What a front-end posts for an outcome; `paid`: the characters making it spent (said if Discord will not take it). */
export type OutcomeAnswer = Posting & { paid?: number };
type Posting =
  /** Words, with their files and buttons; `notes` are further lines under them. */
  | {
      answer: 'reply';
      words: LocalisedMessage;
      notes: LocalisedMessage[];
      files: AttachmentPayload[];
      buttons?: ButtonsFor;
      seconds: number;
    }
  /** A voice message to post where the member may: `posted` once it is, `header` over it, `asFile` if barred. */
  | {
      answer: 'voice-message';
      message: VoiceMessage;
      seconds: number;
      /** The voice's label, for the buttons that follow a voice message that is the response. */
      voice: string;
      file: AttachmentPayload;
      posted?: LocalisedMessage;
      header?: LocalisedMessage;
      /** The free voice that stood in, said privately after a response-voice-message (which carries no words). */
      stoodIn?: LocalisedMessage;
      asFile: (reason: AsFileReason) => LocalisedMessage;
      notes: LocalisedMessage[];
      buttons?: ButtonsFor;
      timeline?: SceneTimeline;
    }
  /** A file over the upload limit, rendered as a voice message: `posted` in the channel, else `compressed` as a file. */
  | {
      answer: 'too-large';
      message: VoiceMessage;
      posted: LocalisedMessage;
      compressed: LocalisedMessage;
      file: AttachmentPayload;
      notes: LocalisedMessage[];
    }
  /** A scene's file: posted under `header` where the member may post files (`posted`), else theirs alone (`privately`). */
  | {
      answer: 'post-file';
      file: AttachmentPayload;
      header: LocalisedMessage;
      posted: LocalisedMessage;
      privately: LocalisedMessage;
      notes: LocalisedMessage[];
      timeline?: SceneTimeline;
    }
  /** The audio itself, for a front-end that serves or stores it (a sample, a sound, the studio's file). */
  | {
      answer: 'audio';
      data: Buffer;
      format: AudioFormat;
      seconds: number;
      words?: LocalisedMessage;
      notes: LocalisedMessage[];
      timeline?: SceneTimeline;
      cutAt?: number;
    }
  /** It would cost more than its member confirmed: nothing was paid, and the front-end shows the new price. */
  | { answer: 'price-changed' }
  /** Answered with this error, worded by failure-words.ts (the router, the button's or the page's failure). */
  | { answer: 'refused'; error: unknown };

/** Under a file the member may not post in the channel themselves, answered to them alone (gate.ts). */
export const privateFileNote: LocalisedMessage = { key: 'say.postedPrivately' };

const seconds = (s: number) => s.toFixed(1);

/** An outcome that is not a failure, and the front of one flavour. */
type Done = Exclude<SpeechOutcome, { kind: 'failed' }>;
type FrontOf<F extends Flavour> = Extract<Front, { flavour: F }>;

/** The member's answer to `outcome`, for the front-end `front`. */
export function wordOutcome(outcome: SpeechOutcome, front: Front): OutcomeAnswer {
  if (outcome.kind === 'failed') return failed(outcome, front);
  const answer = answerFor(outcome, front);
  if (outcome.spent?.paid) answer.paid = outcome.spent.paid;
  // A free line cut at its cap reaches the member cut there, never silently.
  if (outcome.lineCutAt !== undefined && 'notes' in answer)
    answer.notes.push({ key: 'freeLine.cutAtCap', params: { max: outcome.lineCutAt } });
  const { partWay } = outcome;
  if (partWay === undefined) return answer;
  // Part paid, the rest refused: no buttons (the cache lacks the rest); bare audio (a sample) gets the words alone.
  // A refusal of the rest says part was made, but where the free voice made some, its label gave the figure.
  const labelled = partWay instanceof PaidPartWayError && 'label' in front && outcome.standIn !== undefined;
  const rest = labelled ? partWay.cause : paidFirst(partWay, partWay, outcome.spent);
  if (answer.answer === 'audio' && answer.words === undefined) return { answer: 'refused', error: rest };
  if ('notes' in answer) {
    if (labelled || !(partWay instanceof PaidPartWayError)) answer.notes.push({ key: 'outcome.partWay.only' });
    answer.notes.push(describeFailure(rest).message);
    if ('buttons' in answer) delete answer.buttons;
  }
  return answer;
}

function answerFor(outcome: Done, front: Front): OutcomeAnswer {
  switch (front.flavour) {
    case 'command':
      return commandAnswer(outcome, front);
    case 'user-install':
      return userInstallAnswer(outcome, front);
    case 'replay':
      return replayAnswer(outcome, front);
    case 'post-again':
      return postAgainAnswer(outcome, front);
    case 'scene':
      return sceneAnswer(outcome, front);
    case 'studio':
      return studioAnswer(outcome, front);
    case 'sound':
      return outcome.kind === 'voice-message'
        ? { answer: 'audio', data: outcome.message.ogg, format: 'ogg', seconds: outcome.seconds, notes: [] }
        : mismatch(front, outcome.kind);
    case 'sample': {
      const file = outcome.kind === 'files' ? outcome.files[0] : undefined;
      if (file === undefined) return mismatch(front, outcome.kind);
      // The free voice that spoke for the paid one is named, as /say names it.
      const voice = outcome.standIn && fallbackVoice(outcome.standIn);
      const notes: LocalisedMessage[] = voice ? [{ key: 'sample.freeVoiceStoodIn', params: { voice } }] : [];
      return { answer: 'audio', data: file.data, format: file.format, seconds: outcome.seconds, notes };
    }
  }
}

function failed(outcome: Extract<SpeechOutcome, { kind: 'failed' }>, front: Front): OutcomeAnswer {
  // A right taken away: its words give what the books confirmed, and never "the rest" of what was not yet heard.
  const error =
    outcome.error instanceof RightsRevokedError
      ? new RightsRevokedError(outcome.error.revocation, outcome.spent?.paid, outcome.secondsHeard > 0)
      : outcome.error;
  // The free voice spoke part for the failing service, then the rest was refused: named, with the figure, once.
  if (error instanceof PaidPartWayError && outcome.standIn !== undefined && front.flavour === 'command') {
    const voice = spokenBy(front.label, outcome, front.locale, front.credit);
    return { answer: 'refused', error: told('outcome.partWay.standIn', { voice }, error.cause) };
  }
  // Refused for money, then the free voice failed in its place before a word: the refusal first, in the member's words.
  const freeFailed = !outcome.secondsHeard && [EngineError, FreeVoiceFailedError].some((type) => error instanceof type);
  if (front.flavour === 'command' && front.fellBack && freeFailed) {
    const refused = describeFailure(front.fellBack).message;
    return { answer: 'refused', error: told('outcome.freeVoiceFailed', { refused }, error) };
  }
  // The service refused the voice, naming it: named as the reply names it (why it spoke: a preset, your /myvoice).
  if ('label' in front && error instanceof BadRequestError && error.serviceMessage?.includes(front.voiceId)) {
    const words = { voice: front.label, said: echoCode(error.serviceMessage, 200) };
    const refused = new UserError('error.api.voiceRefused', words, { cause: error, code: 'api-bad-request' });
    return { answer: 'refused', error: refused };
  }
  // A scene's confirmation keeps its quote: costing more now asks again, with nothing paid.
  if ((front.flavour === 'scene' || front.flavour === 'studio') && error instanceof QuoteExceededError)
    return { answer: 'price-changed' };
  // In voice, part heard: say so with the cause, unless a revoked right or the service's answer words itself.
  const heard = front.flavour === 'command' && outcome.secondsHeard > 0 && !(error instanceof RightsRevokedError);
  const said = heard && !wordedByService(error) ? told('error.voice.streamFailed', {}, error, 'warn') : error;
  return { answer: 'refused', error: paidFirst(error, said, outcome.spent) };
}

/** `said` after what its order paid (or, none confirmed, may have), unless `error` or the service's answer says it. */
function paidFirst(error: unknown, said: unknown, spent: SpeechOutcome['spent']): unknown {
  const charged = error instanceof VoiceApiError && error.charge === 'charged' && !spent?.delivered;
  if (charged || SAYS_PAID.some((type) => error instanceof type)) return said;
  if (spent?.paid) return told('outcome.failedAfterPaying', { paid: spent.paid }, said);
  const unconfirmed = spent?.unconfirmed ?? 0;
  // Its voice deleted while its call was at the service: never "no characters were spent".
  if (unconfirmed > 0 && error instanceof SpeechInputError && error.problem.code === 'voice-deleted')
    return told('error.maybePaid.voiceDeleted', { ...describeFailure(error).message.params, unconfirmed }, said);
  return unconfirmed > 0 && !wordedByService(error) ? told('outcome.failedMaybePaid', { unconfirmed }, said) : said;
}

const SAYS_PAID = [RightsRevokedError, PaidPartWayError, LostAfterPayingError, RenderStoppedError];

/** A failure as the `detail` of words around it: written out only in the reply, its error keeps the key and figures. */
function told(key: MessageKey, params: MessageParams, cause: unknown, level?: LogLevel): UserError {
  const inner = describeFailure(cause);
  return new UserError(
    key,
    { ...params, detail: inner.message },
    { cause, level: level ?? inner.level, code: inner.code },
  );
}

function commandAnswer(outcome: Done, front: FrontOf<'command'>): OutcomeAnswer {
  const voice = spokenBy(front.label, outcome, front.locale, front.credit);
  // Spoken by the free voice instead: no buttons (they replay only paid audio from the cache).
  const buttons = front.buttons && !front.fellBack && outcome.standIn === undefined;
  const { where } = front;
  const said = { voice, seconds: seconds(outcome.seconds) };
  switch (outcome.kind) {
    case 'files': {
      if (where.kind !== 'file') return mismatch(front, outcome.kind);
      const { files, format } = audioFiles(outcome, front.voiceId, front.credit);
      const key = where.because === 'asked' ? 'say.file' : 'say.fileBecauseNoVoice';
      return reply({ key, params: { ...said, format } }, outcome.seconds, {
        files,
        ...(buttons ? { buttons: 'file' } : {}),
      });
    }
    case 'voice-message': {
      const instead = outcome.insteadOfFile;
      if (instead !== undefined && where.kind !== 'file') return mismatch(front, outcome.kind);
      if (instead !== undefined) {
        const params = {
          ...said,
          format: instead.format.toUpperCase(),
          size: megabytes(instead.bytes),
          limit: megabytes(instead.limit),
        };
        return {
          answer: 'too-large',
          message: front.credit === undefined ? outcome.message : { ...outcome.message, description: front.credit },
          posted: { key: 'say.fileTooLarge.voiceMessage', params },
          compressed: {
            key: 'say.fileTooLarge.compressed',
            params: { ...params, compressed: megabytes(outcome.message.ogg.length) },
          },
          file: oggFile(outcome, front.voiceId, front.credit),
          notes: [],
        };
      }
      if (where.kind !== 'voice-message') return mismatch(front, outcome.kind);
      return voiceMessageAnswer(outcome, voice, front, {
        posted: { key: 'voiceMessage.posted', params: said },
        ...(buttons ? { buttons: 'file' } : {}),
      });
    }
    default: {
      if (where.kind !== 'voice') return mismatch(front, outcome.kind);
      const channel = `<#${where.movedTo ?? where.channelId}>`;
      if (outcome.kind === 'played')
        return reply(
          where.movedTo === undefined
            ? { key: 'say.spoke', params: { ...said, channel } }
            : seatWords('say.spokeMoved', { ...said, channel, from: `<#${where.channelId}>` }, where.helperId),
          outcome.seconds,
          buttons ? { buttons: 'voice' } : {},
        );
      // Ended early after paid requests left: they count, heard or not (/usage has the figure).
      const notes: LocalisedMessage[] = outcome.spent === undefined ? [] : [{ key: 'say.stoppedSpent' }];
      return reply(endedEarly(outcome.kind, said, channel, where.helperId), outcome.seconds, { notes });
    }
  }
}

function userInstallAnswer(outcome: Done, front: FrontOf<'user-install'>): OutcomeAnswer {
  const voice = spokenBy(front.label, outcome, front.locale, front.credit);
  const said = { voice, seconds: seconds(outcome.seconds) };
  if (outcome.kind === 'files' && front.where === 'file') {
    const { files, format } = audioFiles(outcome, front.voiceId, front.credit);
    return reply({ key: 'userInstall.file', params: { ...said, format } }, outcome.seconds, { files });
  }
  if (outcome.kind !== 'voice-message') return mismatch(front, outcome.kind);
  // A file over the upload limit: the same speech as a (much smaller) Ogg Opus file.
  if (front.where === 'file')
    return reply({ key: 'userInstall.file', params: { ...said, format: 'ogg' } }, outcome.seconds, {
      files: [oggFile(outcome, front.voiceId, front.credit)],
    });
  // The voice message is the response itself: nothing is said once it is posted.
  return voiceMessageAnswer(outcome, voice, front);
}

function replayAnswer(outcome: Done, front: FrontOf<'replay'>): OutcomeAnswer {
  const channel = `<#${front.channelId}>`;
  const said = { voice: namedVoice(front.voiceId), seconds: seconds(outcome.seconds) };
  if (outcome.kind === 'played')
    return reply({ key: 'buttons.played', params: { channel, seconds: said.seconds } }, outcome.seconds);
  if (outcome.kind === 'files' || outcome.kind === 'voice-message') return mismatch(front, outcome.kind);
  // Not "played it again": a replay stopped, skipped or cut off says so, as /say does.
  return reply(endedEarly(outcome.kind, said, channel, front.helperId), outcome.seconds);
}

/** Audio in voice that ended early; cut off: the connection went away (kicked, channel deleted), not a /stop. */
function endedEarly(
  kind: 'skipped' | 'stopped' | 'cut-off',
  said: { voice: string; seconds: string },
  channel: string,
  helperId?: string,
): LocalisedMessage {
  if (kind === 'skipped') return { key: 'say.skipped', params: said };
  if (kind === 'stopped') return { key: 'say.stopped', params: { voice: said.voice } };
  return seatWords('say.cutOff', { ...said, channel }, helperId);
}

function postAgainAnswer(outcome: Done, front: FrontOf<'post-again'>): OutcomeAnswer {
  if (outcome.kind !== 'voice-message') return mismatch(front, outcome.kind);
  return voiceMessageAnswer(outcome, front.voiceId, front, {
    posted: { key: 'buttons.posted' },
    header: { key: 'buttons.postedHeader', params: { member: `<@${front.memberId}>` } },
  });
}

function sceneAnswer(outcome: Done, front: FrontOf<'scene'>): OutcomeAnswer {
  const notes = sceneStoodIn(outcome);
  // Its audio proved longer than the estimate allowed for: delivered cut at the cap, and said so.
  const timeline = 'timeline' in outcome ? outcome.timeline : undefined;
  if (outcome.cutAt !== undefined)
    notes.push({
      key: 'scene.cutAtCap',
      params: { max: outcome.cutAt, heard: outcome.linesBeforeCut ?? timeline?.length ?? 0, lines: front.lines },
    });
  const params = { seconds: seconds(outcome.seconds) };
  const channel = front.channelId === undefined ? '' : `<#${front.channelId}>`;
  const header: LocalisedMessage = {
    key: 'scene.header',
    params: { member: `<@${front.memberId}>`, speakers: front.speakers, ...params },
  };
  const also = { notes, ...(timeline === undefined ? {} : { timeline }) };
  // Played in voice, or made into a file or a voice message: never the other.
  const inVoice = outcome.kind !== 'files' && outcome.kind !== 'voice-message';
  if (inVoice !== (front.channelId !== undefined)) return mismatch(front, outcome.kind);
  switch (outcome.kind) {
    case 'played':
      return reply({ key: 'scene.played', params: { channel, ...params } }, outcome.seconds, { notes });
    case 'stopped':
    case 'skipped':
      return reply({ key: `scene.${outcome.kind}`, params }, outcome.seconds, { notes });
    case 'cut-off':
      return reply({ key: 'scene.cutOff', params: { channel, ...params } }, outcome.seconds, { notes });
    case 'files': {
      const [file] = outcome.files;
      if (file === undefined) return mismatch(front, outcome.kind);
      return {
        answer: 'post-file',
        file: { attachment: file.data, name: `saybot-scene.${file.format}` },
        header,
        posted: { key: 'scene.posted', params },
        privately: { key: 'scene.postedPrivately', params },
        ...also,
      };
    }
    case 'voice-message': {
      // Why it went as a file is worded as /say words it, the voice being the scene's.
      const voice = t(front.locale, 'scene.voiceLabel', { speakers: front.speakers });
      return voiceMessageAnswer(
        outcome,
        voice,
        { ...front, voiceId: 'scene', named: 'saybot-scene.ogg' },
        { posted: { key: 'scene.voiceMessagePosted', params }, header, ...also },
      );
    }
  }
}

/** The free voice spoke lines for the failing service or engine: /scene and the studio say so alike. */
const sceneStoodIn = ({ standIn }: Done): LocalisedMessage[] =>
  standIn === undefined ? [] : [{ key: 'scene.freeVoiceStoodIn', params: { reason: fallbackReason(standIn.cause) } }];

function studioAnswer(outcome: Done, front: FrontOf<'studio'>): OutcomeAnswer {
  const params = { seconds: seconds(outcome.seconds) };
  // Its audio proved longer than the estimate allowed for: cut at the cap, in voice as in a file, and said so.
  const cut = outcome.cutAt;
  const notes = sceneStoodIn(outcome);
  if (cut !== undefined) notes.push({ key: 'studio.scenes.cut', params: { max: cut } });
  switch (outcome.kind) {
    case 'played':
      return reply({ key: 'studio.scenes.played', params }, outcome.seconds, { notes });
    case 'stopped':
    case 'skipped':
    case 'cut-off':
      return reply({ key: 'studio.scenes.stopped', params }, outcome.seconds, { notes });
    case 'files': {
      const [file] = outcome.files;
      if (file === undefined) return mismatch(front, outcome.kind);
      return {
        answer: 'audio',
        data: file.data,
        format: file.format,
        seconds: outcome.seconds,
        words: { key: 'studio.scenes.made', params },
        notes,
        ...(outcome.timeline === undefined ? {} : { timeline: outcome.timeline }),
        ...(cut === undefined ? {} : { cutAt: cut }),
      };
    }
    case 'voice-message':
      return mismatch(front, outcome.kind);
  }
}

/** An outcome its order's target cannot produce: SayBot's own bug, answered as an internal error. */
export class OutcomeMismatchError extends Error {
  constructor(flavour: Flavour, kind: SpeechOutcome['kind']) {
    super(`a ${flavour} order cannot end as ${kind}`);
    this.name = 'OutcomeMismatchError';
  }
}

/** The answer to an outcome its order cannot end as. */
const mismatch = (front: Front, kind: SpeechOutcome['kind']): OutcomeAnswer => ({
  answer: 'refused',
  error: new OutcomeMismatchError(front.flavour, kind),
});

/** Words to say, with nothing more unless `more` says so. */
const reply = (
  words: LocalisedMessage,
  seconds: number,
  more: Partial<Extract<OutcomeAnswer, { answer: 'reply' }>> = {},
): OutcomeAnswer => ({ answer: 'reply', words, notes: [], files: [], seconds, ...more });

/** The voice a reply names: the free voice that spoke for the failing service (and why), else the front's. */
function spokenBy(voice: string, outcome: SpeechOutcome, locale: Locale, credit?: string): string {
  const free = outcome.standIn;
  return free === undefined ? voice : fallbackVoiceLabel(locale, free.voice, free.cause, free.paidBefore, credit);
}

/** A voice message's answer: its Ogg Opus as the file it goes as where it cannot go as a voice message. */
function voiceMessageAnswer(
  outcome: Extract<SpeechOutcome, { kind: 'voice-message' }>,
  voice: string,
  fileParams: { voiceId: string; sizeLimit: number; named?: string; credit?: string | undefined },
  more: Partial<Extract<OutcomeAnswer, { answer: 'voice-message' }>> = {},
): OutcomeAnswer {
  const { credit } = fileParams;
  const message = credit === undefined ? outcome.message : { ...outcome.message, description: credit };
  // What the words of it sent as a file instead name: the voice, its length, its size and the limit.
  const size = { size: megabytes(message.ogg.length), limit: megabytes(fileParams.sizeLimit) };
  const params = { voice, seconds: seconds(outcome.seconds), format: 'ogg', ...size };
  return {
    answer: 'voice-message',
    message,
    seconds: outcome.seconds,
    voice,
    file:
      fileParams.named === undefined
        ? oggFile(outcome, fileParams.voiceId, credit)
        : { attachment: message.ogg, name: fileParams.named },
    asFile: (reason) => ({
      key: reason === 'not-a-response' ? 'userInstall.voiceMessageAsFile' : `voiceMessage.fallback.${reason}`,
      params,
    }),
    notes: [],
    ...(outcome.standIn === undefined ? {} : { stoodIn: { key: 'voiceMessage.freeVoiceStoodIn', params: { voice } } }),
    ...more,
  };
}

/** The answer as the `kind` its front-end posts: a refusal is thrown, any other answer is SayBot's own bug. */
export function answerAs<K extends OutcomeAnswer['answer']>(
  answer: OutcomeAnswer,
  kind: K,
): Extract<OutcomeAnswer, { answer: K }> {
  if (answer.answer === kind) return answer as Extract<OutcomeAnswer, { answer: K }>;
  throw answer.answer === 'refused' ? answer.error : new Error(`a ${kind} answer was due, not a ${answer.answer} one`);
}

/** Words and their notes as one text in `locale`, a line each. */
export function wordsText(locale: Locale, words: LocalisedMessage, notes: readonly LocalisedMessage[] = []): string {
  return [words, ...notes].map((message) => t(locale, message.key, message.params)).join('\n');
}

/** Why the free voice speaks: the paid voice refused for money, or the service failing to answer. */
export type FallbackCause = Refusal | StandIn['cause'];

/** Why the paid voice did not speak, as the channel may read it (in the reader's language, as a message's part). */
export function fallbackReason(cause: FallbackCause): LocalisedMessage {
  if (cause === 'service-failed') return { key: 'fallback.reason.service' };
  if (cause === 'month-used-up') return { key: 'fallback.reason.month' };
  if (cause === 'engine-failed') return { key: 'fallback.reason.engine' };
  // The service's figure leaves some characters, too few for this text: said with it, never "used up".
  const { reason } = cause;
  if (reason.code === 'quota-too-few-left' && reason.left > 0)
    return { key: 'fallback.reason.tooFewLeft', params: { left: reason.left, needed: reason.needed } };
  if (reason.code === 'budget-member-day') return { key: 'fallback.reason.member' };
  return { key: reason.code === 'budget-guild-month' ? 'fallback.reason.server' : 'fallback.reason.month' };
}

/** The voice a reply names: the free voice and why, after the characters paid in the paid voice first, if any. */
export function fallbackVoiceLabel(
  locale: string | null | undefined,
  voice: string,
  cause: FallbackCause,
  paidBefore = 0,
  /** The credit the voice's engine asks for (`VOICEVOX:<speaker>`), said with its name. */
  credit?: string,
): string {
  return wordsText(locale, fallbackVoice({ voice, cause, paidBefore }, credit));
}

/** The free voice and why, after the characters paid in the paid voice first, if any: words for any language. */
function fallbackVoice({ voice, cause, paidBefore = 0 }: StandIn, credit?: string): LocalisedMessage {
  const params = { voice: namedVoice(voice, credit), reason: fallbackReason(cause) };
  if (paidBefore > 0) return { key: 'voice.fallbackAfterPaid', params: { ...params, paid: paidBefore } };
  return { key: 'voice.fallback', params };
}

/** A files outcome's parts as attachments, and their format(s) for the reply's words ("wav", "mp3+wav"). */
export function audioFiles(
  outcome: Extract<SpeechOutcome, { kind: 'files' }>,
  voiceId: string,
  credit?: string,
): { files: AttachmentPayload[]; format: string } {
  const voice = outcome.standIn?.voice ?? voiceId;
  const files = outcome.files.map((part, index) => ({
    attachment: part.data,
    name: fileName(voice, part.format, outcome.files.length > 1 ? index + 1 : undefined),
    ...described(credit),
  }));
  return { files, format: [...new Set(outcome.files.map((p) => p.format))].join('+') };
}

/** A voice message's Ogg Opus as a file: where it cannot be posted as one, or a file would be too large. */
export function oggFile(
  outcome: Extract<SpeechOutcome, { kind: 'voice-message' }>,
  voiceId: string,
  credit?: string,
): AttachmentPayload {
  return {
    attachment: outcome.message.ogg,
    name: fileName(outcome.standIn?.voice ?? voiceId, 'ogg'),
    ...described(credit),
  };
}

/** The longest part of a voice's ID a file's name keeps. */
const MAX_VOICE_IN_NAME = 64;

/** `saybot-<voice>[-<n>].<format>`, safe on every file system: odd characters as `-`, bounded, never reserved. */
function fileName(voice: string, format: string, index?: number): string {
  const stem = voice.replace(/[^A-Za-z0-9._()+-]/g, '-').slice(0, MAX_VOICE_IN_NAME);
  return `saybot-${stem}${index === undefined ? '' : `-${index}`}.${format}`;
}

/** A file's own words (its alt text): the credit its voice's engine asks for, where it asks for one. */
const described = (credit: string | undefined) => (credit === undefined ? {} : { description: credit });

/** Bytes as the replies' megabytes ("7.9"). */
export const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
