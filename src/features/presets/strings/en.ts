/**
 * /preset and /myvoice: this feature's own strings in English, the source of its part of the catalogue
 * (src/core/i18n/catalogue.ts). ./ko.ts and ./ja.ts must give every key (the type checks; test/core/i18n/catalogue.test.ts
 * checks the {placeholders} match).
 */
export const en = {
  'error.preset.badName': "A name is 1 to 32 letters or digits; spaces, -, _, . and ' may go between them.",
  'error.preset.full': 'This server already has {limit} presets. Delete one first.',
  'error.myvoice.nothing': 'Give at least one of voice, language, tone, format, speed, volume, pitch, name or read_me.',
  'error.myvoice.badWhat': 'Choose what to clear: all, voice settings or name.',
  'preset.saved': 'Saved preset "{name}": {settings}.',
  'preset.updated': 'Updated preset "{name}": {settings}.',
  'preset.deleted': 'Deleted preset "{name}".',
  'preset.deletedDefault':
    'Deleted preset "{name}". It was the server default, so /say now falls back to the voice for the server\'s language.',
  'preset.defaultSet': 'Preset "{name}" is now the server default ({settings}).',
  'preset.defaultCleared': 'This server has no default preset now.',
  'preset.list.empty': 'This server has no presets yet. A member with Manage Server can add one with /preset save.',
  'preset.list.header': 'Presets in this server ({count}):',
  'myvoice.set': 'Your defaults in this server: {settings}.',
  'myvoice.cleared': 'Your defaults in this server are cleared.',
  'myvoice.none': 'You had no defaults in this server.',
  'myvoice.clear.name': 'Auto-read names you by your display name in this server again.',
  'myvoice.clear.voice':
    'Your voice settings in this server are cleared (how auto-read names you and whether it reads you stay).',
  'myvoice.clear.none.name': 'You had set no name for auto-read in this server.',
  'myvoice.clear.none.voice': 'You had no voice settings in this server.',
  'command.myvoice': 'myvoice',
  'command.myvoice.description': 'Your own default voice settings in this server',
  'command.myvoice.set': 'set',
  'command.myvoice.set.description': 'Set your defaults; options you leave out keep their current value',
  'command.myvoice.clear': 'clear',
  'command.myvoice.clear.description':
    'Forget your defaults in this server: all of them, or only the voice settings or the name',
  'command.preset': 'preset',
  'command.preset.description': "This server's voice presets",
  'command.preset.save': 'save',
  'command.preset.save.description': 'Save a preset (needs Manage Server); a preset of the same name is replaced',
  'command.preset.delete': 'delete',
  'command.preset.delete.description': 'Delete a preset (needs Manage Server)',
  'command.preset.list': 'list',
  'command.preset.list.description': "List this server's presets",
  'command.preset.default': 'default',
  'command.preset.default.description':
    "Set the server's default preset, or clear it when no name is given (needs Manage Server)",
  'option.name.description.preset': 'The preset name',
  'option.exaggeration.description.preset': 'How strongly /emote shows emotion, 0 to 1',
  'option.what': 'what',
  'option.what.description':
    'What to forget: everything (default), only the voice settings, or only the name auto-read says',
  'choice.what.all': 'everything',
  'choice.what.voice': 'voice settings',
  'choice.what.name': 'name for auto-read',
  'command.myvoice.show': 'show',
  'command.myvoice.show.description': 'Show your defaults and the voice auto-read reads you in',
  'myvoice.show.none': 'You have no defaults in this server.',
} as const;
