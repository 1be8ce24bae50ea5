/**
 * The core's strings in English, the source of its part of the catalogue (src/core/i18n/catalogue.ts): the ones the
 * core renders itself or several features share. ./ko.ts and ./ja.ts must give every key (the type checks;
 * test/core/i18n/catalogue.test.ts checks the {placeholders} match). A feature's own strings are its part, in
 * src/features/<feature>/strings/.
 */
export const en = {
  // Voice API failures
  'error.api.badRequest':
    'The voice service refused this request: {detail}. Check the text and the options, then try again.',
  'error.api.unauthorized':
    "The bot's Voice API key is invalid or deactivated. Please tell the server owner; nothing was spent.",
  'error.api.forbidden':
    "The bot's Voice API plan does not include API access. Please tell the server owner (a Creator plan or higher is needed).",
  'error.api.quota': 'The monthly character quota of the voice service is used up. It resets {reset}.',
  'error.api.rateLimited': 'The voice service is busy right now. Please try again in a few seconds.',
  'error.api.server': 'The voice service is failing right now ({status}). Please try again later.',
  'error.api.timeout': 'The voice service took too long to answer. Please try again.',
  'error.api.connection': 'The bot could not reach the voice service. Please try again later.',
  'error.api.unexpected': 'The voice service sent something the bot could not use. Please try again later.',
  'error.api.undelivered':
    'The voice service accepted this request and counted its characters, but the audio broke off before it arrived, so nothing was played. Those characters are spent; please try again.',
  'error.api.oversized':
    'The voice service sent far more audio than this text can take (a fault on its side), so I stopped it and kept none of it. It counted the characters all the same; please try again later.',
  'error.api.aborted': 'The request was cancelled.',
  // Voice channel failures
  'error.voice.joinFailed': 'I could not join {channel}. Check that I may connect and speak there, then try again.',
  'error.voice.daveRequired':
    'I could not join {channel}: Discord requires end-to-end encrypted voice (DAVE) there and my voice connection did not offer it. The bot operator has been told.',
  'error.voice.rateLimited':
    'Discord refused my voice connection to {channel} for now (rate limited). Please wait a minute before asking me to speak there again.',
  'error.voice.callTerminated':
    'Discord ended the voice call in {channel}, so I left it. Ask again with /say or /join to start a new one.',
  'error.voice.notInVoice': 'Join a voice channel first.',
  'error.voice.memberMuted':
    'A moderator has server-muted you, so I will not speak for you in {channel}. Nothing was spent.',
  'error.voice.memberSuppressed':
    'You are in the audience of the Stage {channel}: I speak for you there only once you are made a speaker. Nothing was spent.',
  'error.voice.memberMayNotSpeak':
    'You may not speak in {channel}, so I will not speak there for you. Nothing was spent.',
  // Rights taken away while speech waited (src/core/speech/revocation.ts): the rest of it was dropped.
  'error.revoked.not-in-voice': 'You left {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.muted':
    'A moderator server-muted you in {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.suppressed':
    'You are no longer a speaker on the Stage {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.may-not-speak':
    'You may no longer speak in {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.ignored': "The server's managers asked auto-read not to read you; the rest was dropped.",
  'error.revoked.not-served': 'I no longer serve this server; the rest was dropped.',
  'error.audio.unsupported': 'The voice service sent audio in a format I cannot play ({format}).',
  // Input problems
  'error.input.emptyText': 'Please give some text to speak.',
  'error.input.unknownVoice': 'There is no voice "{voice}". Pick one from the list.',
  'error.input.voiceDeleted':
    'The voice `{voice}` was deleted from this server, so nothing more is said with it and no characters were spent for this.',
  'error.input.freeVoiceUnavailable':
    'The free voice `{voice}` is not available on this SayBot (its owner turned it off or did not install it). Choose another voice; nothing was charged.',
  'error.input.guildOnly': 'This command works only in a server.',
  'error.input.speed': 'Speed must be a number from 0.5 to 2; got {value}.',
  'error.input.volume': 'Volume must be a number of dB from -20 to 6; got {value}.',
  'error.input.pitch': 'Pitch must be a whole number of semitones from -12 to 12; got {value}.',
  'error.audio.busy':
    'I am preparing too much audio right now (files, speed and volume). Please try again in a minute (nothing was charged twice).',
  'error.audio.failed':
    'Preparing this audio failed: the audio worker stopped on it or took too long. Only this request was affected; please try again (nothing was charged twice).',
  'error.freeVoice.stopped':
    'The free voice could not speak this text: eSpeak NG stopped on it. Only this line failed; nothing was charged.',
  'error.freeVoice.timeout':
    'The free voice took too long on this text and was stopped. Only this line failed; nothing was charged.',
  'error.audio.memberBusy':
    'You already have a long piece of audio being made (a scene or a long file), the most one member may at once, even when it costs nothing. Please try again once it is done.',
  'error.audio.guildBusy':
    'This server already has {limit} pieces of audio being prepared (files, speed and volume), the most one server may. Please try again once they are done (nothing was charged twice).',
  'error.input.unknownLanguage':
    '"{language}" is not a language code. Pick one from the list (for example en, ko, ja).',
  'error.internal': 'Something went wrong on my side. The operator has been told; please try again.',
  'error.shuttingDown': 'I am restarting. Please try again in a minute.',
  'error.guildNotAllowed': "SayBot's owner has not chosen this server, so SayBot does not work here.",
  // A private reply sent by DM once the interaction's token is gone: which command in which server it answers.
  'reply.direct': 'About {command} in {server}:',
  // A reply's buttons: replays come from the cache only
  'buttons.notCached':
    "This audio is no longer in SayBot's cache, and replaying it would cost characters again, so nothing was done. Use the command again if you want it.",
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
  // Presets, member defaults, the catalogue
  'error.preset.unknown': 'There is no preset "{name}" in this server. /preset list shows them.',
  'error.permission.manageServer':
    "Changing this server's presets needs the Manage Server permission, which you do not have here. Ask a server admin. Anyone can list and use presets.",
  // Quota, budgets, /usage, /budget
  'quota.exhaustedChecking':
    'The monthly character quota of the voice service was used up (the service said so on {marked}). Another request is checking right now whether it is back, so I sent nothing: try again in a moment. Audio already in the cache still plays.',
  'quota.tooFewLeft':
    'The voice service has only {left} characters left this month and this needs {needed}, so it sent nothing. Try a shorter text; the quota resets {reset}.',
  'quota.tooFewLeftForMember':
    'The voice service has too few characters left this month for this text, so it sent nothing. Try a shorter text; the quota resets {reset}.',
  'quota.recordFailed':
    'I cannot write down what the voice service bills right now (the bot cannot save to its storage), so I am sending no request that spends characters until it can. The operator has been told. Audio already in the cache still plays.',
  'quota.storageUnavailable':
    "I could not reach the bot's storage in time, so I sent nothing and nothing was spent. Please try again in a moment; the operator has been told.",
  'budget.refused.guildMonth':
    "This server's monthly budget is {limit} characters: {used} are used and this needs {needed}. It resets {reset}.",
  'budget.refused.memberDay':
    'Your daily budget in this server is {limit} characters: you used {used} today and this needs {needed}. It resets {reset}.',
  'budget.refused.cooldown':
    'Please wait {seconds} s: in this server a member may spend characters once every {limit} s.',
  'budget.refused.botMonth':
    'SayBot has reached the monthly limit its owner set for all servers together. It resets {reset}.',
  'queue.refused.guildClips':
    "This server's voice queue is full ({queued} clips waiting, at most {limit}). Try again once some have played, or ask for a file.",
  'queue.refused.guildSeconds':
    "This server's voice queue is full (about {queued} s of speech waiting, at most {limit} s). Try again once some has played, or ask for a file.",
  'queue.refused.member':
    'You already have {limit} requests waiting in this server, the most one member may have. Try again once one has played.',
  'budget.refused.freeRate':
    'You asked for {limit} things that cost no characters (replays, other speeds or volumes, audio already made) within a minute, the most one member may. Try again in {seconds} s.',
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
