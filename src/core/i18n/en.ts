/**
 * The core's English strings, the source of its catalogue part (src/core/i18n/catalogue.ts); ./ko.ts and ./ja.ts
 * give every key (test/core/i18n/catalogue.test.ts checks placeholders).
 */
export const en = {
  // A setting's refusals (declared with it, src/core/settings/setting-declarations.ts), start-up, the servers served
  'error.input.speed': 'Speed must be a number from 0.5 to 2; got {value}.',
  'error.input.volume': 'Volume must be a number of dB from -20 to 6; got {value}.',
  'error.input.pitch': 'Pitch must be a whole number of semitones from -12 to 12; got {value}.',
  'error.input.unknownLanguage':
    '"{language}" is not a language code. Pick one from the list (for example en, ko, ja).',
  'error.shuttingDown': 'I am restarting. Please try again in a minute.',
  'error.guildNotAllowed': "SayBot's owner has not chosen this server, so SayBot does not work here.",
  // A private reply sent by DM once the interaction's token is gone: which command in which server it answers.
  'reply.direct': 'About {command} in {server}:',
  // Settings as shown
  'setting.value.on': 'on',
  'setting.value.off': 'off',
  'setting.value.none': 'none',
  'settings.tone': 'tone {tone}',
  'settings.exaggeration': 'exaggeration {value}',
  'settings.speed': 'speed {value}×',
  'settings.volume': 'volume {value} dB',
  'settings.pitch': 'pitch {value} semitones',
  'choices.cloned': 'cloned voice',
  'choices.free': 'free voice, no characters',
  // Options and choices
  'option.text': 'text',
  'option.text.description': 'What to say',
  'option.name': 'name',
  'option.output': 'output',
  'option.output.description': 'Play in your voice channel, post a file, or post a voice message',
  'option.exaggeration': 'exaggeration',
  'option.voice': 'voice',
  'option.voice.description': 'Which voice speaks',
  'option.preset': 'preset',
  'option.preset.description': "One of this server's voice presets",
  'option.language': 'language',
  'option.language.description': 'Language of the text (detected when left out)',
  'option.tone': 'tone',
  'option.tone.description': 'How to speak, e.g. "whispering", "cheerful"',
  'option.speed': 'speed',
  'option.speed.description': 'How fast to speak, 0.5 to 2 (1 = normal); the voice keeps its pitch',
  'option.volume': 'volume',
  'option.volume.description': 'Louder or quieter in dB, -20 to +6 (0 = normal); never clips',
  'option.pitch': 'pitch',
  'option.pitch.description': 'Higher or lower in semitones, -12 to +12 (0 = the voice as it is); length kept',
  'option.format': 'format',
  'option.format.description': 'Audio format of a posted file',
  'choice.output.voice': 'voice channel',
  'choice.output.file': 'file',
  'choice.output.voice-message': 'voice message',
  'choice.format.wav': 'WAV',
  'choice.format.mp3': 'MP3',
} as const;
