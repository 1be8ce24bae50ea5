// Where a member's audio goes: their voice channel, the output chosen outside voice, a file or a voice message.
import './strings.ts';
export {
  allowedHere,
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
} from './speaking-command.ts';
export { postVoiceMessage, voiceMessagePlace } from './voice-message-post.ts';
