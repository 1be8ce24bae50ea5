/** /voices and /clone in English; ./ko.ts and ./ja.ts give every key. */
export const en = {
  // /clone
  'clone.error.consent':
    'Cloning a voice needs the consent of the person speaking. Set consent to True only if they agreed.',
  'clone.error.nameInvalid': "A voice name is 1 to {max} letters or digits (spaces, - _ . and ' allowed between them).",
  'clone.error.nameTaken':
    'This server already has a voice called "{name}". Choose another name, or delete that voice first.',
  'clone.error.textTooLong': 'The first line of a new voice can be at most {max} characters.',
  'clone.error.memberShare':
    "You have made {share} of this server's {limit} cloned voices, the most one member may keep so that the others have room. Delete one of yours with /voices delete first, or ask a manager.",
  'clone.error.libraryFull': 'This server already has {limit} cloned voices. Delete one with /voices delete first.',
  'clone.voiceLabel': 'the new voice "{name}" ({id}, from a {seconds} s clip)',
  'clone.madeLineFailed':
    'The new voice "{name}" ({id}) is made and saved, and its characters were spent. Its first line was not spoken: {reason} Use the voice with /say and the voice {name}.',
  'clone.audioLost':
    'The new voice "{name}" ({id}) is ready and its characters were spent, but its first line broke off on the way, so it was not played. Try it with /say and the voice {name}.',
  'clone.madeStopped':
    'The new voice "{name}" ({id}) is made and saved, and its characters were spent. Stopped as you asked: its first line is neither played nor posted. Use the voice with /say and the voice {name}.',
  'clone.stoppedClosed':
    'Stopped as you asked before the voice service answered: its request was closed, and no voice is saved. The service may have counted its {characters} characters, so they are counted as spent here. Clone again only if you still want it.',
  'clone.stoppedUnsent':
    'Stopped as you asked before anything was sent to the voice service: no voice was made, and nothing was charged.',
  'voices.deleted': 'Deleted the voice "{name}" ({id}).',
  'voices.deleted.presets': '{count, plural, one {Its preset went too} other {Its # presets went too}}: {names}.',
  'voices.deleted.members':
    "{count, plural, one {# member had it as their voice (/myvoice)} other {# members had it as their voice (/myvoice)}}: they now hear the server's default voice, and will be told so once.",
  'voices.deleted.more': '{count} more',
  'voices.notFound': 'This server has no cloned voice "{name}".',
  'error.permission.deleteVoice':
    'Only the member who cloned this voice, or someone with Manage Server, can delete it.',
  // /clone as a form (a modal: Labels of 45 characters at most, descriptions of 100)
  'clone.form.title': 'Clone a voice',
  'clone.form.guide':
    'A good sample: one person speaking clearly for {min} to {max} seconds (10 to 30 is best), in a quiet room, with no music or other voices.',
  'clone.form.name': 'Voice name',
  'clone.form.text': 'First line',
  'clone.form.clip': 'Clip of the voice',
  'clone.form.consent': 'Consent of the person speaking',
  'clone.error.consentBox':
    'Cloning a voice needs the consent of the person speaking. Tick the box only if they agreed.',
  'clone.error.fileType': '{name} is not a WAV, MP3 or M4A file. Please upload one of those.',
  'clone.error.noClip': 'Upload a clip of the voice (WAV, MP3 or M4A).',
  'clone.error.incomplete':
    'With a clip, give its name, text and consent too; or run /clone without options to fill in a form.',
  'voices.presetVoices': 'Preset voices',
  'voices.engineVoices': "Free voices from this bot's own speech engines",
  'voices.cloned': 'Cloned voices in this server',
  'voices.presets': 'Presets in this server',
  'voices.none': '(none)',
  'command.clone': 'clone',
  'command.clone.description': "Make a new voice for this server from a clip of someone's voice, with their consent",
  'command.voices': 'voices',
  'command.voices.description': "The voices on offer: preset voices, this server's cloned voices and presets",
  'command.voices.list': 'list',
  'command.voices.list.description': "The voices on offer: preset voices, this server's cloned voices and presets",
  'command.voices.delete': 'delete',
  'command.voices.delete.description': "Delete one of this server's cloned voices (its creator, or Manage Server)",
  'option.audio': 'audio',
  'option.audio.description': 'The voice sample: 3 to 60 seconds of one person speaking (WAV, MP3 or M4A)',
  'option.text.description.clone': 'What the new voice says first',
  'option.name.description.clone': 'What this server will call the voice',
  'option.consent': 'consent',
  'option.consent.description': 'I confirm the person speaking in the clip agreed to have their voice cloned',
  'option.voice.description.voices': 'The cloned voice, by name or ID',
  // Reference clips (src/features/voices/reference-clip.ts)
  'clone.error.host':
    'Attach the clip to the command itself; I only download attachments from Discord (not from {host}).',
  'clone.error.tooLarge': 'The clip is {size} MB; the limit is {limit} MB. Attach a shorter clip (3 to 60 seconds).',
  'clone.error.download': 'I could not download the clip ({detail}). Please attach it again.',
  'clone.error.format':
    'The clip is {found}, not WAV, MP3 or M4A (whatever its name says). Please attach one of those.',
  'clone.error.corrupt': 'The clip is damaged or cut short. Please export it again and attach the new file.',
  'clone.error.checkBusy': 'Too many clips are being checked right now. Please attach yours again in a minute.',
  'clone.error.checkBusyServer':
    'This server already has {limit, plural, one {# clip} other {# clips}} being checked. Wait for their answers, then attach yours again.',
  'clone.error.duration': 'The clip lasts {seconds} s; it must last {min} to {max} seconds.',
  'clone.error.silent': 'The clip is silent ({level} dBFS). Attach a recording of the person speaking.',
} as const;
