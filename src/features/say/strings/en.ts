/**
 * /say, /emote and /output: this feature's own strings in English, the source of its part of the catalogue
 * (src/core/i18n/catalogue.ts). ./ko.ts and ./ja.ts must give every key (the type checks; test/core/i18n/catalogue.test.ts
 * checks the {placeholders} match).
 */
export const en = {
  'error.input.exaggeration': 'Exaggeration must be a number from 0 to 1; got {value}.',
  'command.emote': 'emote',
  'command.emote.description': 'Speak text with emotion',
  'command.say': 'say',
  'command.say.description': 'Speak text with one of the voices',
  'option.exaggeration.description.emote': 'How strong the emotion is, from 0 (flat) to 1 (intense); default 0.5',
  // Voice messages: /output, the outside-voice defaults (src/features/speaking/speech-delivery.ts chooseTarget)
  'command.output': 'output',
  'command.output.description': 'How you are answered outside voice: a voice message or a file',
  'command.output.server': 'server',
  'command.output.server.description': "This server's default for members outside voice (needs Manage Server)",
  'command.output.me': 'me',
  'command.output.me.description': "Your own default outside voice in this server; it comes before the server's",
  'command.output.show': 'show',
  'command.output.show.description': 'Which default applies to you outside voice',
  'option.outside_voice': 'outside_voice',
  'option.outside_voice.description':
    "A voice message, a file, or reset (yours: follow the server; the server's: a file)",
  'choice.outside_voice.voice-message': 'voice message',
  'choice.outside_voice.file': 'file',
  'choice.outside_voice.reset': 'reset',
  'output.server.set':
    "Members outside voice now get a {output} by default in this server (a member's own /output me comes first).",
  'output.server.reset':
    'This server has no default of its own now: members outside voice get a {output} unless they chose otherwise.',
  'output.me.set':
    'Outside voice, /say, /emote and /clone now answer you with a {output} in this server (their output option still decides when given).',
  'output.me.reset': "You follow this server's default now: outside voice you get a {output}.",
  'output.show': 'Outside voice you get a {output} ({why}). Server default: {server}; yours: {member}.',
  'output.why.member': 'your own default',
  'output.why.server': "the server's default",
  'output.why.builtin': 'built-in',
  'output.unset': 'none',
  'say.textTooLong':
    'That text is **{characters}** characters as the voice service counts them (after Unicode normalisation); at most {max} are spoken at once.',
} as const;
