// Posts a command's answer (one job: answering the member), as outcome-words.ts worded its outcome: words with the
// reply's buttons, files, a file too large sent as a voice message, or a voice message (voice-message-reply.ts).
import type { Logger } from '../../core/log.ts';
import type { AnsweredInteraction } from '../../core/interactions/command.ts';
import { showContent } from '../../core/interactions/replies.ts';
import { wordsText } from './outcome-words.ts';
import type { OutcomeAnswer } from './outcome-types.ts';
import { replyButtons, type ReplyButtonSource } from './reply-button-row.ts';
import type { ChosenTarget } from './target-choice.ts';
import { showTooLargeFile, showVoiceMessage, showWithFiles } from './voice-message-reply.ts';
import type { VoiceMessageRights } from './voice-message-rights.ts';

/** Posts what the worder (outcome-words.ts) made of the outcome. */
export async function showAnswer(
  interaction: AnsweredInteraction<'cached'>,
  log: Logger,
  answer: OutcomeAnswer,
  target: ChosenTarget,
  privateReply: boolean,
  /** The reply's buttons (reply-buttons.ts), where the answer carries them. */
  source: ReplyButtonSource | undefined,
  /** The core's rights asker: whether a file too large may be posted as the member's voice message here. */
  rights: VoiceMessageRights,
): Promise<void> {
  switch (answer.answer) {
    case 'reply': {
      const row = source && answer.buttons && replyButtons(interaction.locale, answer.buttons, source, answer.seconds);
      if (answer.files.length > 0)
        return showWithFiles(interaction, answer.words, answer.files, row && [row], answer.notes, privateReply);
      return showContent(interaction, wordsText(interaction.locale, answer.words, answer.notes), [], row && [row]);
    }
    case 'too-large':
      return showTooLargeFile(interaction, log, answer, privateReply, rights);
    case 'voice-message':
      return showVoiceMessage(
        interaction,
        log,
        answer,
        target.kind === 'voice-message' ? target.bar : undefined,
        answer.buttons && source,
      );
    case 'refused':
      throw answer.error;
    default:
      throw new Error(`a command cannot post a ${answer.answer} answer`);
  }
}
