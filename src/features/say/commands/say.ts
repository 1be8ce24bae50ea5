import { answerSpeechAutocomplete } from '../../../core/frontend/autocomplete.ts';
import { speakingCommand, speakingHandlers } from '../../../core/frontend/speaking-command.ts';
import type { CommandModule } from '../../../core/interactions/command.ts';
import { ttsRequest } from '../../../core/speech/settings.ts';
import '../strings.ts';

export const data = speakingCommand('say', ['voice', 'language', 'format', 'tone']);

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const { execute, executeOutsideServer } = speakingHandlers(ttsRequest);

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
