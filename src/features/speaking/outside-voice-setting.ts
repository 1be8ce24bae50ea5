// How a member outside voice is answered when a command does not say (a voice message or a file), declared with the
// settings kit (src/core/settings/): the server's and each member's default, set by /output (commands/output.ts) and
// kept by the output defaults area (src/core/store/areas/output-defaults.ts).
import type { OutsideVoiceOutput } from '../../core/store/output-defaults-store.ts';
import type { ChoiceSetting } from '../../core/settings/setting-types.ts';

export const OUTSIDE_VOICE: ChoiceSetting<OutsideVoiceOutput> = {
  kind: 'choice',
  values: ['voice-message', 'file'],
  // `reset` clears it: the member's own default falls back to the server's, the server's to a file.
  none: 'reset',
  column: 'output',
  option: 'outside_voice',
  words: { 'voice-message': 'choice.output.voice-message', file: 'choice.output.file' },
  shown: { as: 'choice' },
};
