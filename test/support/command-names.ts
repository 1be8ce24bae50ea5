/**
 * SayBot's seventeen slash commands and its Speak menu by name, in sort order: what its features give and deploy
 * registers.
 */
export const SAYBOT_COMMAND_NAMES: readonly string[] = [
  'Speak',
  'autoread',
  'budget',
  'clone',
  'dictionary',
  'emote',
  'join',
  'leave',
  'myvoice',
  'output',
  'preset',
  'privacy',
  'say',
  'scene',
  'skip',
  'stop',
  'usage',
  'voices',
];
