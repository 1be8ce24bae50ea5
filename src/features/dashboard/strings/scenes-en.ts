/**
 * The studio's Scenes page in English (its own part of the catalogue, src/features/dashboard/scenes-strings.ts):
 * ./scenes-ko.ts and ./scenes-ja.ts give every key. Texts the page's script shows carry {placeholders} it fills.
 */
export const en = {
  'studio.scenes.nav': 'Scenes',
  'studio.scenes.title': 'Scenes · {server}',
  'studio.scenes.intro':
    "Write a scene one turn a line: the speaker's name, a colon, then what they say. Nothing is paid until you press a button showing its price.",
  'studio.scenes.script': 'Script',
  'studio.scenes.scriptOk':
    'The script reads well: {lines, plural, one {# line} other {# lines}}, {speakers, plural, one {# speaker} other {# speakers}}.',
  'studio.scenes.lineError': 'Line {line}: {message}',
  'studio.scenes.cast': 'Cast',
  'studio.scenes.speaker': 'Speaker',
  'studio.scenes.voice': 'Voice',
  'studio.scenes.from.cast': 'from the cast line',
  'studio.scenes.from.member': "the member's own voice",
  'studio.scenes.from.distinct': 'a distinct voice',
  'studio.scenes.change': 'Change',
  'studio.scenes.hearVoice': 'Hear {name} ({characters, plural, one {# character} other {# characters}})',
  'studio.scenes.hearVoiceFree': 'Hear {name} (free)',
  'studio.scenes.lines': 'Lines',
  'studio.scenes.hearLine': 'Hear line {line} ({characters, plural, one {# character} other {# characters}})',
  'studio.scenes.hearLineFree': 'Hear line {line} (free)',
  'studio.scenes.cost': 'Cost',
  'studio.scenes.costPaid':
    '{characters, plural, one {# character} other {# characters}} to pay; {cached} of {lines, plural, one {# line} other {# lines}} already made (free). About {seconds} s.',
  'studio.scenes.costFree': 'Nothing to pay: every line is already made or free. About {seconds} s.',
  'studio.scenes.budgetMember': 'Your budget today leaves {left} of {limit} characters.',
  'studio.scenes.budgetGuild': "The server's budget this month leaves {left} of {limit} characters.",
  'studio.scenes.budgetNone': 'No character budget is set for you here.',
  'studio.scenes.budgetOver': 'This is more than a budget leaves: it cannot be made now.',
  'studio.scenes.format': 'File format',
  'studio.scenes.makeIdle': 'Make the file',
  'studio.scenes.playIdle': 'Play it in my voice channel',
  'studio.scenes.make': 'Make the file ({characters, plural, one {# character} other {# characters}})',
  'studio.scenes.makeFree': 'Make the file (free)',
  'studio.scenes.play': 'Play it in my voice channel ({characters, plural, one {# character} other {# characters}})',
  'studio.scenes.playFree': 'Play it in my voice channel (free)',
  'studio.scenes.working': 'Working on it…',
  'studio.scenes.priceChanged':
    'The price changed since it was shown (lines left the cache): nothing was paid. Press again to pay the new price.',
  'studio.scenes.downloadAudio': 'Download the audio',
  'studio.scenes.downloadSrt': 'Download the subtitles (.srt)',
  'studio.scenes.failed': 'That did not work: {status}.',
  'studio.scenes.saved': 'Saved scenes',
  'studio.scenes.savedNone': 'No scene is saved in this server yet.',
  'studio.scenes.savedBy': 'saved by {member}',
  'studio.scenes.open': 'Open {name}',
  'studio.scenes.name': 'Name to save it as',
  'studio.scenes.save': 'Save the scene',
  'studio.scenes.savedAdded': 'Saved the scene "{name}" ({lines, plural, one {# line} other {# lines}}).',
  'studio.scenes.savedReplaced': 'Replaced the scene "{name}" ({lines, plural, one {# line} other {# lines}}).',
  'studio.scenes.otherShard':
    "This server's voice is played by another of SayBot's processes: play the scene from Discord with /scene.",
  'studio.scenes.unknown': 'There is no saved scene "{name}" in this server.',
  'studio.scenes.exampleTitle': 'A scene, for example',
  'studio.scenes.example':
    'cast: Ann = voice-b-en-f-01, Ben = voice-b-en-m-01\nAnn: Good morning! Did you sleep well?\n[pause 1s]\nBen (sleepy) [0.6]: Not really. The cat sang all night.',
  'studio.scenes.helpCast':
    "gives speakers voices: a voice from the Voices page, or a member's mention (<@ID>) for their own voice. A speaker left out gets a voice of their own.",
  'studio.scenes.helpPause': 'on a line of its own: a silence, up to 5 s.',
  'studio.scenes.helpTone': 'after a name, before the colon: how the line is said, and how strongly (0 to 1).',
  'studio.scenes.costNone': 'Type a script: what it costs shows here.',
  'studio.scenes.hear': 'Hear',
  'studio.scenes.madeAudio': 'The scene made',
  'studio.scenes.lineAudio': 'The line heard alone',
} as const;
