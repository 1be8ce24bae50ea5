// The speaking feature's public surface for commands, the app and other features; where the audio goes
// (index-targets.ts) and what is said (index-words.ts) have their own. Everything else in this folder is its own.
import './strings.ts';
export { answerSpeechAutocomplete } from './autocomplete.ts';
export { gatePort, leftBarred } from './gate.ts';
export { mayNotReadAloud, missingReadingRight, noticeChannel } from './gate-reading.ts';
import { FileShares } from './file-shares.ts';
import { ReplyAudioRegistry } from './reply-audio.ts';
export { FileShares, ReplyAudioRegistry };
export { answerButtonFailure, handleReplyButton } from './reply-buttons.ts';
export { soundRemover } from './soundboard.ts';
export {
  handOver,
  noSeatError,
  requesterOf,
  SPEAKING_COMMAND_USES,
  SPEAKING_USES,
  speakAndReply,
  speakingCommand,
  speakingHandler,
  voiceLabel,
  type DeclaredOrder,
} from './speaking-command.ts';
export { outsideServerHandler, USER_INSTALL_GUILD, requireUserInstall } from './user-install.ts';
export { claimMemberVoiceMessage } from './voice-message-rights.ts';

// What the feature adds to the commands' context (declaration merging), so the core names no feature.
declare module '../../core/interactions/command.ts' {
  interface CommandContext {
    /** What a reply's buttons replay (reply-buttons.ts); absent: replies carry no buttons. */
    replyAudio?: ReplyAudioRegistry;
    /** The bot's files and voice messages under way (file-shares.ts): each front-end that posts one takes a share. */
    fileShares: FileShares;
  }
}
