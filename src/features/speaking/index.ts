// The speaking feature's public surface: the way from a member's wish to audio and words (and the commands that only
// speak: /say, /emote, /output), as the command modules (commands/), the app and the other features use it.
// Everything else in this folder is its own.
import './strings.ts';
import './speaking-context.ts';
export { answerSpeechAutocomplete } from './autocomplete.ts';
export { describeFailure, refusalAfterPaying } from './failure-words.ts';
export { requesterOf, commandRequester, handOver, type DeclaredOrder, type HandedOver } from './hand-over.ts';
export { EFFECT_RIGHTS, gatePort, leftBarred, rightsFor, voicePlace } from './gate.ts';
export type { Effect, Effects, Place } from './gate-types.ts';
export { mayNotReadAloud, missingReadingRight, noticeChannel, type MissingReadingRight } from './gate-reading.ts';
export { fallbackReason, type FallbackCause } from './fallback-words.ts';
export { FileShares } from './file-shares.ts';
export { fitLines } from './listing.ts';
export { OutcomeMismatchError, wordOutcome, wordsText } from './outcome-words.ts';
export type { Front, OutcomeAnswer } from './outcome-types.ts';
export { OUTSIDE_VOICE } from './outside-voice-setting.ts';
export { ReplyAudioRegistry } from './reply-audio.ts';
export { answerButtonFailure, handleReplyButton } from './reply-buttons.ts';
export { soundRemover } from './soundboard.ts';
export {
  SPEAKING_COMMAND_USES,
  SPEAKING_USES,
  speakAndReply,
  speakForCommand,
  speakingCommand,
  speakingHandlers,
  type SpeakingServices,
} from './speaking-command.ts';
export {
  admitted,
  chooseDestination,
  chooseTarget,
  effectsAt,
  memberStillSpeaks,
  memberVoiceChannel,
  outsideVoiceOutput,
  placeOf,
  type ChosenTarget,
  type MemberPlace,
  type OutputChoice,
} from './target-choice.ts';
export { describeSettings, presetLine, settingsForCommand, voiceLabel } from './speech-settings.ts';
export { USER_INSTALL_GUILD, requireUserInstall, settingsOutsideServer, speakOutsideServer } from './user-install.ts';
export { postVoiceMessage, voiceMessagePlace } from './voice-message-post.ts';
export { claimMemberVoiceMessage } from './voice-message-rights.ts';
