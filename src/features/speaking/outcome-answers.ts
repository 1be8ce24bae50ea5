// The building blocks of an outcome's answer (outcome-types.ts), which only outcome-words.ts chooses among.
import type { SpeechOutcome } from '../../core/order/pipeline.ts';
import { fallbackVoiceLabel } from './fallback-words.ts';
import { oggFile, oggFileParams } from './reply-files.ts';
import { t, type LocalisedMessage } from './strings.ts';
import type { Flavour, Front, Locale, OutcomeAnswer } from './outcome-types.ts';

/** An outcome its order's target cannot produce: SayBot's own bug, answered as an internal error. */
export class OutcomeMismatchError extends Error {
  constructor(flavour: Flavour, kind: SpeechOutcome['kind']) {
    super(`a ${flavour} order cannot end as ${kind}`);
    this.name = 'OutcomeMismatchError';
  }
}

/** The answer to an outcome its order cannot end as. */
export const mismatch = (front: Front, kind: SpeechOutcome['kind']): OutcomeAnswer => ({
  answer: 'refused',
  error: new OutcomeMismatchError(front.flavour, kind),
});

/** Words to say, with nothing more unless `more` says so. */
export const reply = (
  words: LocalisedMessage,
  seconds: number,
  more: Partial<Extract<OutcomeAnswer, { answer: 'reply' }>> = {},
): OutcomeAnswer => ({ answer: 'reply', words, notes: [], files: [], seconds, ...more });

/** The voice a reply names: the free voice that spoke for the failing service (and why), else the front's. */
export function spokenBy(voice: string, outcome: SpeechOutcome, locale: Locale, credit?: string): string {
  const free = outcome.freeVoice;
  return free === undefined ? voice : fallbackVoiceLabel(locale, free.voice, free.cause, free.paidBefore, credit);
}

/** A voice message's answer: its Ogg Opus as the file it goes as where it cannot go as a voice message. */
export function voiceMessageAnswer(
  outcome: Extract<SpeechOutcome, { kind: 'voice-message' }>,
  voice: string,
  fileParams: { voiceId: string; sizeLimit: number; named?: string; credit?: string | undefined },
  more: Partial<Extract<OutcomeAnswer, { answer: 'voice-message' }>> = {},
): OutcomeAnswer {
  const { credit } = fileParams;
  const message = credit === undefined ? outcome.message : { ...outcome.message, description: credit };
  const stoodIn: LocalisedMessage | undefined =
    outcome.freeVoice === undefined ? undefined : { key: 'voiceMessage.freeVoiceStoodIn', params: { voice } };
  const params = oggFileParams(voice, outcome.seconds, message.ogg, fileParams.sizeLimit);
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
    ...(stoodIn === undefined ? {} : { stoodIn }),
    ...more,
  };
}

/** Words and their notes as one text in `locale`, a line each. */
export function wordsText(locale: Locale, words: LocalisedMessage, notes: readonly LocalisedMessage[] = []): string {
  return [words, ...notes].map((message) => t(locale, message.key, message.params)).join('\n');
}
