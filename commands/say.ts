import {
  answerSpeechAutocomplete,
  SPEAKING_COMMAND_USES,
  speakingCommand,
  speakingHandler,
  outsideServerHandler,
} from '../src/features/speaking/index.ts';
import type { CommandModule } from '../src/core/interactions/command.ts';
import { ttsRequest } from '../src/core/sourcing/part-request.ts';

export const uses = SPEAKING_COMMAND_USES;
type Uses = (typeof uses)[number];

export const data = speakingCommand('say', ['voice', 'language', 'format', 'tone']);

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute = speakingHandler(ttsRequest);
export const executeOutsideServer = outsideServerHandler(ttsRequest);

export const autocomplete: CommandModule<Uses>['autocomplete'] = answerSpeechAutocomplete;
