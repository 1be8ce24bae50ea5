import { engineOf } from '../src/core/voice-catalogue/voices.ts';
import {
  answerSpeechAutocomplete,
  SPEAKING_COMMAND_USES,
  speakingCommand,
  speakingHandler,
  outsideServerHandler,
} from '../src/features/speaking/index.ts';
import type { CommandModule } from '../src/core/interactions/command.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import type { SpeechRequest } from '../src/core/order/pipeline.ts';
import { effectsOf, sentSettingsOf } from '../src/core/sourcing/part-request.ts';
import type { ResolvedSettings } from '../src/core/settings/speech-request.ts';

export const uses = SPEAKING_COMMAND_USES;
type Uses = (typeof uses)[number];

const DEFAULT_EXAGGERATION = 0.5;

export const data = speakingCommand('emote', ['exaggeration', 'voice'], { exaggeration: { description: 'emote' } });

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

/** The emotion request of the command's text, its exaggeration checked before any API call. */
function emotionRequest(text: string, settings: ResolvedSettings): SpeechRequest {
  const exaggeration = settings.exaggeration ?? DEFAULT_EXAGGERATION;
  // Discord enforces min/max for its own clients; a crafted request (or a preset's stored value) is refused here.
  if (!(exaggeration >= 0 && exaggeration <= 1))
    throw new UserError('error.input.exaggeration', { value: String(exaggeration) });
  // An engine speaks words, not emotions: said, rather than heard plain.
  if (engineOf(settings.voice)) throw new UserError('error.input.emotionEngineVoice', { voice: settings.voice });
  return { kind: 'emotion', text, ...sentSettingsOf(settings, 'emotion'), exaggeration, ...effectsOf(settings) };
}

// Voice and exaggeration: the options, the chosen preset, the member's default, the server's default preset, then
// the built-in defaults: the voice as /say's (the server's language, outside a server the member's), exaggeration 0.5.
export const execute = speakingHandler(emotionRequest);
export const executeOutsideServer = outsideServerHandler(emotionRequest);

export const autocomplete: CommandModule<Uses>['autocomplete'] = answerSpeechAutocomplete;
