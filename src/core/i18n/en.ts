/**
 * English, the source of the catalogue: its keys are the catalogue's keys, and ko.ts and ja.ts must give every
 * one of them (the type checks; test/bot/catalogue.test.ts checks the {placeholders} match).
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
  'error.voice.busyElsewhere': 'I am speaking in {channel} right now. Join that channel, or try again when I am done.',
  'error.voice.notInVoice': 'Join a voice channel first.',
  'error.voice.notConnected': 'I am not in a voice channel in this server.',
  'error.voice.memberMuted':
    'A moderator has server-muted you, so I will not speak for you in {channel}. Nothing was spent.',
  'error.voice.memberSuppressed':
    'You are in the audience of the Stage {channel}: I speak for you there only once you are made a speaker. Nothing was spent.',
  'error.voice.memberMayNotSpeak':
    'You may not speak in {channel}, so I will not speak there for you. Nothing was spent.',
  'error.voice.streamFailed': 'The audio stopped part-way ({detail}). Please try again.',
  'error.audio.unsupported': 'The voice service sent audio in a format I cannot play ({format}).',
  'error.discord.uploadFailed': 'I could not post the audio file here. Check that I may attach files in this channel.',
  // Input problems
  'error.input.emptyText': 'Please give some text to speak.',
  'error.input.unknownVoice': 'There is no voice "{voice}". Pick one from the list.',
  'error.input.voiceDeleted':
    'The voice `{voice}` was deleted from this server, so nothing more is said with it and no characters were spent for this.',
  'error.input.guildOnly': 'This command works only in a server.',
  'error.input.exaggeration': 'Exaggeration must be a number from 0 to 1; got {value}.',
  'error.input.speed': 'Speed must be a number from 0.5 to 2; got {value}.',
  'error.input.volume': 'Volume must be a number of dB from -20 to 6; got {value}.',
  'error.audio.busy':
    'I am preparing too much audio right now (files, speed and volume). Please try again in a minute (nothing was charged twice).',
  'error.audio.guildBusy':
    'This server already has {limit} pieces of audio being prepared (files, speed and volume), the most one server may. Please try again once they are done (nothing was charged twice).',
  'error.input.unknownLanguage':
    '"{language}" is not a language code. Pick one from the list (for example en, ko, ja).',
  'error.internal': 'Something went wrong on my side. The operator has been told; please try again.',
  'error.shuttingDown': 'I am restarting. Please try again in a minute.',
  'error.guildNotAllowed': "SayBot's owner has not chosen this server, so SayBot does not work here.",
  // A private reply sent by DM once the interaction's token is gone: which command in which server it answers.
  'reply.direct': 'About {command} in {server}:',
  // /clone reference clips
  'clone.error.consent':
    'Cloning a voice needs the consent of the person speaking. Set consent to True only if they agreed.',
  'clone.error.nameInvalid': "A voice name is 1 to {max} letters or digits (spaces, - _ . and ' allowed between them).",
  'clone.error.nameTaken':
    'This server already has a voice called "{name}". Choose another name, or delete that voice first.',
  'clone.error.textTooLong': 'The first line of a new voice can be at most {max} characters.',
  'clone.error.libraryFull': 'This server already has {limit} cloned voices. Delete one with /voices delete first.',
  'clone.voiceLabel': 'the new voice "{name}" (`{id}`, from a {seconds} s clip)',
  'clone.audioLost':
    'The new voice "{name}" (`{id}`) is ready and its characters were spent, but its first line broke off on the way, so it was not played. Try it with /say and the voice {name}.',
  'voices.deleted': 'Deleted the voice "{name}" (`{id}`).',
  'voices.notFound': 'This server has no cloned voice "{name}".',
  'error.permission.deleteVoice':
    'Only the member who cloned this voice, or someone with Manage Server, can delete it.',
  'clone.error.host':
    'Attach the clip to the command itself; I only download attachments from Discord (not from {host}).',
  'clone.error.tooLarge': 'The clip is {size} MB; the limit is {limit} MB. Attach a shorter clip (3 to 60 seconds).',
  'clone.error.download': 'I could not download the clip ({detail}). Please attach it again.',
  'clone.error.format':
    'The clip is {found}, not WAV, MP3 or M4A (whatever its name says). Please attach one of those.',
  'clone.error.corrupt': 'The clip is damaged or cut short. Please export it again and attach the new file.',
  'clone.error.checkBusy': 'Too many clips are being checked right now. Please attach yours again in a minute.',
  'clone.error.duration': 'The clip lasts {seconds} s; it must last {min} to {max} seconds.',
  'clone.error.silent': 'The clip is silent ({level} dBFS). Attach a recording of the person speaking.',
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
  // /say and playback
  'say.queued': 'Queued: {voice}, {count} part(s). I will start after the {ahead} clip(s) ahead.',
  'say.speaking': 'Speaking in {channel} with {voice}…',
  'say.spoke': 'Spoke {seconds} s in {channel} with {voice}.',
  'say.skipped': 'Skipped after {seconds} s ({voice}).',
  'say.stopped': 'Stopped ({voice}).',
  'say.cutOff':
    'The reply was cut off after {seconds} s ({voice}): I lost the voice connection in {channel}. Use /say again and I will rejoin.',
  'say.file': 'Here is {voice}, {seconds} s ({format}).',
  'say.fileBecauseNoVoice':
    'You are not in a voice channel, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'userInstall.file':
    'There is no voice channel here, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'userInstall.off':
    'SayBot works only in servers it is a member of: its owner has not enabled it in direct messages or other servers.',
  'userInstall.notAllowed':
    "SayBot's owner lets only some people use it outside its servers, and you are not one of them.",
  'userInstall.noAttachFiles':
    'Files cannot be sent here (apps may not attach files in this channel), so SayBot cannot answer with audio. Nothing was spent.',
  'userInstall.voiceMessageAsFile':
    'The voice message could not be the reply here, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'buttons.play': 'Play in my voice channel',
  'buttons.again': 'Again',
  'buttons.sound': 'Save as sound',
  'buttons.notYours': 'Only {member}, who asked for this audio, can use these buttons.',
  'buttons.expired':
    'These buttons no longer work (SayBot restarted since, or the reply is too old). Use the command again.',
  'buttons.notCached':
    "This audio is no longer in SayBot's cache, and replaying it would cost characters again, so nothing was done. Use the command again if you want it.",
  'buttons.played': 'Played it again in {channel} ({seconds} s), from the cache: no characters spent.',
  'buttons.voiceMessage':
    'Your voice message above: {voice}, {seconds} s. These buttons are yours alone and use the cache: no characters spent.',
  'buttons.posted': 'Posted the voice message again in this channel, from the cache: no characters spent.',
  'buttons.postedHeader': '{member} asked for this voice message again:',
  'sound.saved': 'Saved as "{name}" on this server\'s soundboard ({seconds} s).',
  'sound.tooLong':
    'A soundboard sound can be at most {max} s long and this audio is {seconds} s, so it was not saved. Try a shorter text.',
  'sound.tooLarge': 'A soundboard sound can be at most {max} KB and this audio is {size} KB, so it was not saved.',
  'sound.memberPermission':
    'Saving a soundboard sound needs the Create Expressions permission, which you do not have here.',
  'sound.botPermission':
    'I need the Create Expressions permission in this server to save a soundboard sound. Ask a server admin.',
  'sound.full': "This server's soundboard is full: remove a sound first, then try again.",
  'sound.refused': 'Discord did not take the sound: {reason}',
  // Player commands
  'join.joined': 'Joined {channel}.',
  'join.already': 'I am already in {channel}.',
  'leave.left': 'Left {channel}.',
  'skip.skipped': 'Skipped the current clip.',
  'skip.nothing': 'Nothing is playing.',
  'stop.stopped': 'Stopped and cleared {count} queued clip(s).',
  'player.notInChannel':
    "You are not in {channel}, where I am speaking, so nothing changed. Members there may stop or skip their own requests; stopping or skipping others' needs Mute Members, Move Members or Manage Server.",
  'stop.own':
    "Stopped what you asked for and cleared {count} of your queued clip(s). Others' requests go on: stopping them needs Mute Members, Move Members or Manage Server.",
  'stop.nothingOwn':
    "Nothing you asked for is playing or queued, so nothing was stopped. Stopping others' requests needs Mute Members, Move Members or Manage Server.",
  'skip.notYours':
    "The clip playing is not yours, so it plays on. Skipping others' requests needs Mute Members, Move Members or Manage Server.",
  // Which voice, and why (replies name it when the caller did not choose it)
  'voice.why.preset': '{voice} (preset "{preset}")',
  'voice.why.member': '{voice} (your default)',
  'voice.why.server': '{voice} (server default preset "{preset}")',
  'voice.why.builtin': "{voice} (the default for this server's language)",
  'voice.why.commandDefault': '{voice} (the default voice of this command)',
  'settings.tone': 'tone {tone}',
  'settings.exaggeration': 'exaggeration {value}',
  'settings.speed': 'speed {value}×',
  'settings.volume': 'volume {value} dB',
  'choices.cloned': 'cloned voice',
  // Presets, member defaults, the catalogue
  'error.preset.unknown': 'There is no preset "{name}" in this server. /preset list shows them.',
  'error.preset.badName': "A name is 1 to 32 letters or digits; spaces, -, _, . and ' may go between them.",
  'error.preset.full': 'This server already has {limit} presets. Delete one first.',
  'error.permission.manageServer':
    "Changing this server's presets needs the Manage Server permission, which you do not have here. Ask a server admin. Anyone can list and use presets.",
  'error.myvoice.nothing': 'Give at least one of voice, language, tone, format, speed, volume, name or read_me.',
  'error.myvoice.badName': "A name to be read is 1 to 32 letters or digits, with spaces, -, _, . or ' between them.",
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
  'preset.list.default': '(server default)',
  'list.more': '…and {count} more.',
  'myvoice.set': 'Your defaults in this server: {settings}.',
  'myvoice.cleared': 'Your defaults in this server are cleared.',
  'myvoice.none': 'You had no defaults in this server.',
  'myvoice.clear.name': 'Auto-read names you by your display name in this server again.',
  'myvoice.clear.voice':
    'Your voice settings in this server are cleared (how auto-read names you and whether it reads you stay).',
  'myvoice.clear.none.name': 'You had set no name for auto-read in this server.',
  'myvoice.clear.none.voice': 'You had no voice settings in this server.',
  'myvoice.name': 'auto-read names you "{name}"',
  'myvoice.readMe.on': 'auto-read reads you',
  'myvoice.readMe.off': 'auto-read does not read you',
  'privacy.show.none': 'SayBot keeps nothing about you in this server.',
  'privacy.show.header': 'What SayBot keeps about you in this server (records):',
  'privacy.show.footer':
    'Spend records count characters for budgets and /usage. `/privacy delete` deletes your own records and removes your ID from the rest (spends stay anonymised so the totals add up).',
  'privacy.trace.member_defaults': 'Your voice defaults (/myvoice)',
  'privacy.trace.member_output_defaults': 'Your output default (/output)',
  'privacy.trace.presets': 'Presets you saved (as their author)',
  'privacy.trace.voice_library': 'Voices you cloned',
  'privacy.trace.clone_name_reservations': 'A clone of yours under way',
  'privacy.trace.spends': 'Spend records (characters per request)',
  'privacy.trace.budget_holds': 'Characters held for your requests under way',
  'privacy.trace.guild_budgets': 'Server budgets you set (as their author)',
  'privacy.trace.auto_read': 'Auto-read you started or set up (as its author)',
  'privacy.trace.dictionary_entries': 'Dictionary entries you wrote (as their author)',
  'privacy.trace.guild_output_defaults': 'The server output default you set (as its author)',
  'privacy.trace.other': 'Other records ({table})',
  'privacy.deleted':
    'Deleted what SayBot kept about you in this server: {deleted} records removed, {anonymised} records no longer name you (spend records stay, anonymised, so the server totals add up).',
  'privacy.deleted.voices': 'Voices you cloned, deleted with their audio purged from the cache: {names}.',
  'privacy.outside.none': 'SayBot keeps nothing about you from its use outside servers.',
  'privacy.outside.header':
    'What SayBot keeps about you from its use outside servers (direct messages, group DMs, servers it is not in), in records:',
  'privacy.outside.deleted':
    'Deleted what SayBot kept about you from its use outside servers: {deleted} records removed, {anonymised} records no longer name you (spend records stay, anonymised; what you spent today still counts against your daily budget).',
  'privacy.server.outside':
    '`/privacy server` deletes the data of a server SayBot is in, and there is none here. `/privacy delete` deletes yours.',
  'privacy.server.confirm':
    "This deletes ALL of SayBot's data for this server: presets, cloned voices, dictionary, settings, budgets, auto-read and every member's defaults (spend records stay, anonymised). To confirm within {minutes} minutes, run `/privacy server confirm:{code}`.",
  'privacy.server.deleted':
    "All of SayBot's data for this server is deleted: {deleted} records removed, {anonymised} spend records anonymised, {voices} cloned voices deleted.",
  'error.privacy.badCode':
    'That confirmation code is wrong or has expired. Run `/privacy server` without a code for a new one.',
  'voices.presetVoices': 'Preset voices',
  'voices.cloned': 'Cloned voices in this server',
  'voices.presets': 'Presets in this server',
  'voices.none': '(none)',
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
  'budget.name.guildMonthlyChars': "the server's monthly characters",
  'budget.name.memberDailyChars': "a member's daily characters",
  'budget.name.memberCooldownSeconds': 'the cooldown in seconds',
  'budget.aboveOperator':
    "For {budget}, this server can set at most {limit}: that is the operator's limit, and a server may only lower it.",
  'budget.nothing': "Give at least one of the three budgets (0 removes this server's own limit).",
  'budget.updated': 'Budgets in this server now: {summary}.',
  'budget.line': '{name}: {value}',
  'budget.fromOperator': '{value} (operator)',
  'budget.fromServer': '{value} (this server; operator: {operator})',
  'budget.noLimit': 'no limit',
  'error.permission.budget':
    "Changing this server's budgets needs the Manage Server permission. Anyone can see them with /usage.",
  'usage.title': '**Usage in {month}** (resets {reset})',
  'usage.guild': 'This server: {spent} characters spent, {saved} saved by the cache; {budget}.',
  'usage.guildBudget': 'monthly budget {limit}, {left} left',
  'usage.noGuildBudget': 'no monthly budget',
  'usage.bot':
    'Whole bot: {used} of {limit} used{source}, {remaining} left; SayBot sent {spent}, the cache saved {saved}.',
  'usage.fromService': " (the service's count)",
  'usage.botBudget':
    "Bot-wide budget (every server and user install together): {limit} characters a month, {left} left; the rest of the plan stays for the owner's own use.",
  'usage.noBotBudget': 'Bot-wide budget: none (SayBot may use the whole plan).',
  'usage.member': 'You today: {spent} characters; {budget}.',
  'usage.outside.where': 'Your use of SayBot outside servers (direct messages, group DMs, servers it is not in):',
  'usage.outside.shared': 'All use outside servers shares one monthly budget: {left} of {limit} characters left.',
  'usage.memberBudget': 'daily budget {limit}, {left} left, resets {reset}',
  'usage.noMemberBudget': 'no daily budget',
  'usage.cooldown':
    'Cooldown: {seconds} s between requests that spend characters (audio from the cache is free and never waits).',
  'usage.queue':
    'Voice queue: at most {clips} clips and about {seconds} s of speech per server, {member} requests waiting per member.',
  'usage.exhausted':
    'The voice service said the monthly quota is used up: one request at a time goes out to see whether it is back (a plan upgrade or a top-up ends this at once); it resets {reset} at the latest.',
  'usage.chart.title': 'Characters in {month} (UTC)',
  'usage.chart.perDay': 'Per day',
  'usage.chart.monthToDate': 'Spent this month',
  'usage.chart.spent': 'Spent',
  'usage.chart.saved': 'Saved by the cache',
  'usage.chart.budget': 'Monthly budget',
  'usage.chart.topMembers': 'Top members',
  'usage.chart.noData': 'Nothing yet',
  'usage.chart.formerMember': 'A former member',
  'usage.chart.alt':
    "Chart of this server's characters in {month}: per day, spent and saved by the cache, the month so far against its budget, and the top members",
  // Voice messages (src/core/frontend/voice-message-post.ts) and the Speak menu
  'voiceMessage.posted': 'Sent as a voice message below: {voice}, {seconds} s.',
  'voiceMessage.fallback.no-permission':
    'I may not send voice messages in this channel (Send Voice Messages), so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'voiceMessage.fallback.not-allowed-here':
    'Discord does not take voice messages in this channel, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'voiceMessage.fallback.too-large':
    'The voice message would be {size} MB, over the {limit} MB this channel takes, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'voiceMessage.fallback.refused':
    'Discord did not accept the voice message (the operator has been told), so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'voiceMessage.fallback.member-no-permission':
    'You may not send voice messages in this channel (it takes View Channel, Send Messages, Attach Files and Send Voice Messages), so here is the audio for you alone as a file: {voice}, {seconds} s ({format}).',
  'voiceMessage.fallback.slowmode':
    'This channel is in slowmode and your last message here was too recent, so here is the audio for you alone as a file: {voice}, {seconds} s ({format}).',
  'voiceMessage.header': '{member} asked for this voice message with /{command}:',
  'say.fileTooLarge.voiceMessage':
    'The {format} file would be {size} MB, over the {limit} MB Discord takes here, so I posted it as a voice message instead: {voice}, {seconds} s.',
  'say.fileTooLarge.compressed':
    'The {format} file would be {size} MB, over the {limit} MB Discord takes here, and a voice message cannot be posted here, so here it is compressed (Ogg Opus, {compressed} MB): {voice}, {seconds} s.',
  'speak.nothing': 'There is nothing in that message I can read aloud.',
  // What Discord shows for each command (src/core/interactions/command-builder.ts builds the definitions from these).
  // command.<name>[.<subcommand>]: its name (the English one is what the code routes by), and .description.
  // option.<name>: an option's name, one wherever the option is used; .description, or .description.<variant>
  // where commands describe the same option differently. choice.<option>.<value>: a fixed choice's name.
  // menu.<name>: a message context menu's name (it has no description); the English one is what the code routes by.
  'command.budget': 'budget',
  'command.budget.description':
    "Lower the operator's character budgets for this server (needs Manage Server); /usage shows them",
  'command.clone': 'clone',
  'command.clone.description': "Make a new voice for this server from a clip of someone's voice, with their consent",
  'command.emote': 'emote',
  'command.emote.description': 'Speak text with emotion',
  'command.join': 'join',
  'command.join.description': 'Join your voice channel',
  'command.leave': 'leave',
  'command.leave.description': 'Stop speaking and leave the voice channel',
  'command.myvoice': 'myvoice',
  'command.myvoice.description': 'Your own default voice settings in this server',
  'command.myvoice.set': 'set',
  'command.myvoice.set.description': 'Set your defaults; options you leave out keep their current value',
  'command.myvoice.clear': 'clear',
  'command.myvoice.clear.description':
    'Forget your defaults in this server: all of them, or only the voice settings or the name',
  'command.privacy': 'privacy',
  'command.privacy.description': 'What SayBot keeps about you in this server, and deleting it',
  'command.privacy.show': 'show',
  'command.privacy.show.description': 'Show what SayBot keeps about you in this server',
  'command.privacy.delete': 'delete',
  'command.privacy.delete.description': 'Delete what SayBot keeps about you in this server',
  'command.privacy.server': 'server',
  'command.privacy.server.description': "Delete all of this server's data (Manage Server; asks to confirm)",
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
  'command.say': 'say',
  'command.say.description': 'Speak text with one of the voices',
  'command.skip': 'skip',
  'command.skip.description': 'Skip the clip that is playing; the queue goes on',
  'command.stop': 'stop',
  'command.stop.description': 'Stop speaking and clear the queue',
  'command.usage': 'usage',
  'command.usage.description': "This month's characters: this server, the whole bot, and yours today",
  'command.voices': 'voices',
  'command.voices.description': "The voices on offer: preset voices, this server's cloned voices and presets",
  'command.voices.list': 'list',
  'command.voices.list.description': "The voices on offer: preset voices, this server's cloned voices and presets",
  'command.voices.delete': 'delete',
  'command.voices.delete.description': "Delete one of this server's cloned voices (its creator, or Manage Server)",
  'menu.speak': 'Speak',
  'option.server_monthly_chars': 'server_monthly_chars',
  'option.server_monthly_chars.description':
    "Characters this server may spend per month (0: remove the server's own limit)",
  'option.member_daily_chars': 'member_daily_chars',
  'option.member_daily_chars.description':
    "Characters each member may spend per day, UTC (0: remove the server's own limit)",
  'option.cooldown_seconds': 'cooldown_seconds',
  'option.cooldown_seconds.description': 'Seconds a member waits between requests that spend characters (0: remove)',
  'option.audio': 'audio',
  'option.audio.description': 'The voice sample: 3 to 60 seconds of one person speaking (WAV, MP3 or M4A)',
  'option.text': 'text',
  'option.text.description.clone': 'What the new voice says first',
  'option.text.description': 'What to say',
  'option.name': 'name',
  'option.name.description.clone': 'What this server will call the voice',
  'option.name.description.preset': 'The preset name',
  'option.name.description.myvoice': 'How auto-read names you (up to 32 letters or digits); else your display name',
  'option.consent': 'consent',
  'option.consent.description': 'I confirm the person speaking in the clip agreed to have their voice cloned',
  'option.output': 'output',
  'option.output.description': 'Play in your voice channel, post a file, or post a voice message',
  'option.exaggeration': 'exaggeration',
  'option.exaggeration.description.emote': 'How strong the emotion is, from 0 (flat) to 1 (intense); default 0.5',
  'option.exaggeration.description.preset': 'How strongly /emote shows emotion, 0 to 1',
  'option.voice': 'voice',
  'option.voice.description': 'Which voice speaks',
  'option.voice.description.voices': 'The cloned voice, by name or ID',
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
  'option.format': 'format',
  'option.format.description': 'Audio format of a posted file',
  'option.read_me': 'read_me',
  'option.read_me.description': 'Whether auto-read reads your messages in this server (default True)',
  'option.what': 'what',
  'option.what.description':
    'What to forget: everything (default), only the voice settings, or only the name auto-read says',
  'option.confirm': 'confirm',
  'option.confirm.description': 'The confirmation code the first /privacy server showed',
  'choice.output.voice': 'voice channel',
  'choice.output.file': 'file',
  'choice.output.voice-message': 'voice message',
  'choice.what.all': 'everything',
  'choice.what.voice': 'voice settings',
  'choice.what.name': 'name for auto-read',
  'choice.format.wav': 'WAV',
  'choice.format.mp3': 'MP3',
  // Voice messages: /output, the outside-voice defaults (src/core/frontend/speech-delivery.ts chooseTarget)
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
  // Auto-read and its dictionary.
  'command.autoread': 'autoread',
  'command.autoread.description': 'Read a text channel aloud in voice (needs Manage Server)',
  'command.autoread.start': 'start',
  'command.autoread.start.description': 'Read this channel (or the one given) aloud in your voice channel',
  'command.autoread.stop': 'stop',
  'command.autoread.stop.description': 'Stop reading aloud',
  'command.autoread.settings': 'settings',
  'command.autoread.settings.description': 'How messages are read; with no options, shows the current settings',
  'command.dictionary': 'dictionary',
  'command.dictionary.description': "This server's pronunciation dictionary for auto-read",
  'command.dictionary.add': 'add',
  'command.dictionary.add.description': 'Add a word and how to say it, or change its reading (needs Manage Server)',
  'command.dictionary.remove': 'remove',
  'command.dictionary.remove.description': 'Remove a word (needs Manage Server)',
  'command.dictionary.list': 'list',
  'command.dictionary.list.description': 'List the words and how they are read',
  'command.dictionary.export': 'export',
  'command.dictionary.export.description': 'The whole dictionary as a JSON file',
  'command.dictionary.import': 'import',
  'command.dictionary.import.description':
    'Replace the whole dictionary with a JSON file from /dictionary export (needs Manage Server)',
  'command.dictionary.move': 'move',
  'command.dictionary.move.description':
    'Move a word or pattern to another place in the order entries apply in (needs Manage Server)',
  'option.channel': 'channel',
  'option.channel.description': "The text channel to read, or a voice channel's chat (default: this channel)",
  'option.say_name': 'say_name',
  'option.say_name.description': "Say the author's name before a message, not again within 60 s (default on)",
  'option.max_length': 'max_length',
  'option.max_length.description': 'Longest message read, in characters; longer ones are cut (default 200)',
  'option.read_bots': 'read_bots',
  'option.read_bots.description': 'Read messages of bots and webhooks too (default off)',
  'option.role': 'role',
  'option.role.description': 'Read only members with this role; @everyone reads everyone (the default)',
  'option.only_voice_members': 'only_voice_members',
  'option.only_voice_members.description': "Read only members who are in the bot's voice channel (default on)",
  'option.announce': 'announce',
  'option.announce.description': 'Say when members join or leave the voice channel (default off)',
  'option.skip_prefix': 'skip_prefix',
  'option.skip_prefix.description':
    'Never read messages starting with this (up to 8 characters); "none" removes it (default none)',
  'option.read_silent': 'read_silent',
  'option.read_silent.description': 'Read @silent messages too (default on)',
  'option.read_attachments': 'read_attachments',
  'option.read_attachments.description': 'Say that a message came with files, such as "image" (default on)',
  'option.autojoin': 'autojoin',
  'option.autojoin.description':
    'When a member joins the voice channel read into and SayBot is not there, join and read (default off)',
  'option.faster_after': 'faster_after',
  'option.faster_after.description': 'Read faster when more than this many messages wait; 0 never (default 3)',
  'option.max_speed': 'max_speed',
  'option.max_speed.description': 'The fastest a backlog is read, 1 to 2 (default 1.5)',
  'option.skip_after': 'skip_after',
  'option.skip_after.description': 'Skip to the newest when more than this many messages wait; 0 never (default 10)',
  'option.word': 'word',
  'option.word.description': 'The word as it is written',
  'option.reading': 'reading',
  'option.reading.description': 'How to say it',
  'option.file': 'file',
  'option.file.description': 'A JSON file made by /dictionary export',
  'option.pattern': 'pattern',
  'option.pattern.description': 'Instead of a word: a pattern (RE2 syntax, e.g. (\\d+)km), its reading may use $1, $2…',
  'option.position': 'position',
  'option.position.description': 'Its place in the order, from 1 (the top applies first)',
  'autoread.permission':
    'Auto-read changes what the whole voice channel hears, so it needs the Manage Server permission, which you do not have here. Ask a server admin.',
  'autoread.unavailable':
    'Auto-read is off in this bot: Discord does not give it the text of messages. The bot owner must enable Message Content in the {where}, then restart SayBot.',
  'autoread.notTextChannel': '{channel} has no chat to read: choose a text channel or a voice channel.',
  'autoread.cannotSee': 'I cannot read {channel}: give me View Channel and Send Messages there, then try again.',
  'autoread.memberCannotSee':
    'You cannot read {channel} yourself (View Channel and Read Message History), so I will not read it aloud for you.',
  'autoread.guard.leave':
    'I am reading {channel} aloud in {voice} for this server; only members with Manage Server can make me leave.',
  'autoread.guard.move':
    'I am reading {channel} aloud in {voice} for this server; only members with Manage Server can move me.',
  'autoread.guard.elsewhere':
    'I am reading {channel} aloud in {voice}, so I cannot come to your channel. Join {voice}, or choose output: file.',
  'autoread.pausedByLeave':
    'Left {voice}. Reading {channel} is paused, its settings kept: /join in {voice} (Manage Server) or /autoread start resumes it; /autoread stop ends it.',
  'autoread.resumed': 'Joined {voice} and resumed reading {channel} aloud.',
  'autoread.started': 'Reading {channel} aloud in {voice}. {settings}. /autoread stop stops it.',
  'autoread.stopped': 'Stopped reading aloud.',
  'autoread.notReading': 'Auto-read is not on in this server.',
  'voiceStatus.reading': 'Reading {channel} aloud',
  'autoread.paused':
    'Auto-read skipped a message from {member}: {reason} Until a message can be read again, the ones that cannot are skipped without a notice.',
  'autoread.behind':
    'Auto-read is behind: messages arrive faster than they can be read, so the oldest unread ones are skipped (nothing is spent on them) until it catches up.',
  'autoread.refused.memberDay': 'their daily character budget in this server is used up until {reset}.',
  'autoread.pausedRights.text':
    'Auto-read of {channel} is paused: I may no longer read it (I need View Channel, Send Messages and Read Message History there). Give them back, then /autoread start resumes it.',
  'autoread.pausedRights.voice':
    'Auto-read of {channel} is paused: I may no longer speak in {voice} (I need Connect and Speak there). Give them back, then /autoread start resumes it.',
  'autoread.skippedToNewest':
    'Auto-read fell {count} messages behind, so it skipped to the newest (nothing is spent on skipped ones).',
  'autoread.status.reading': 'Reading {channel} in {voice}.',
  'autoread.status.off': 'Not reading now.',
  'autoread.settings.current': '{status} Settings: {settings}.',
  'autoread.settings.updated': 'Auto-read settings changed: {settings}.',
  'autoread.setting.sayName': "say the author's name: {value}",
  'autoread.setting.maxLength': 'longest message: {value} characters',
  'autoread.setting.readBots': 'read bots and webhooks: {value}',
  'autoread.setting.role': 'required role: {value}',
  'autoread.setting.onlyVoiceMembers': 'only members in voice: {value}',
  'autoread.setting.announce': 'announce joins and leaves: {value}',
  'autoread.setting.skipPrefix': 'skip messages starting with: {value}',
  'autoread.setting.readSilent': 'read @silent messages: {value}',
  'autoread.setting.readAttachments': 'say files: {value}',
  'autoread.setting.autojoin': 'join when a member joins: {value}',
  'autoread.setting.backlog': 'faster past {faster} waiting (up to {speed}×), skip to the newest past {skip}',
  'autoread.value.on': 'on',
  'autoread.value.off': 'off',
  'autoread.value.none': 'none',
  'autoread.maxLengthRange': 'The longest message must be from {min} to {max} characters.',
  'autoread.skipPrefixBad':
    'The skip prefix is 1 to 8 characters without spaces, <, >, @ or backticks; "none" removes it.',
  'autoread.backlogRange': 'faster_after and skip_after must be from {min} to {max}, max_speed from 1 to 2.',
  // Auto-read's distinct voices and the managers' ignore list.
  'command.autoread.show': 'show',
  'command.autoread.show.description':
    'Show the status, the settings, the voice pool, who has which voice and who is not read',
  'command.autoread.ignore': 'ignore',
  'command.autoread.ignore.description': "Never read this member's messages aloud",
  'command.autoread.unignore': 'unignore',
  'command.autoread.unignore.description': "Read this member's messages aloud again",
  'command.autoread.voice_add': 'voice_add',
  'command.autoread.voice_add.description': 'Add a voice to the pool members are given voices from (voices: distinct)',
  'command.autoread.voice_remove': 'voice_remove',
  'command.autoread.voice_remove.description': 'Take a voice out of the pool; members who had it are given another',
  'command.myvoice.show': 'show',
  'command.myvoice.show.description': 'Show your defaults and the voice auto-read reads you in',
  'option.member': 'member',
  'option.member.description': 'The member',
  'option.voices': 'voices',
  'option.voices.description': 'One voice for everyone (default), or each member a voice of their own from the pool',
  'choice.voices.one': 'one voice for everyone',
  'choice.voices.distinct': 'a voice per member',
  'autoread.setting.voices': 'voices: {value}',
  'autoread.value.voicesOne': 'one for everyone',
  'autoread.value.voicesDistinct': 'a voice of the pool per member',
  'autoread.voicesBad': 'Choose voices: one or distinct.',
  'autoread.ignore.added': 'Auto-read no longer reads {member}. /autoread unignore reads them again.',
  'autoread.ignore.already': 'Auto-read already does not read {member}.',
  'autoread.ignore.full': 'Auto-read ignores at most {max} members in a server. Unignore some first.',
  'autoread.unignore.done': 'Auto-read reads {member} again.',
  'autoread.unignore.none': '{member} was not ignored.',
  'autoread.pool.added': 'Added {voice} to the voice pool. Pool: {pool}.',
  'autoread.pool.already': '{voice} is already in the voice pool. Pool: {pool}.',
  'autoread.pool.full': 'The voice pool holds at most {max} voices. Remove some first.',
  'autoread.pool.removed':
    'Took {voice} out of the voice pool; members who had it are given another at their next message. Pool: {pool}.',
  'autoread.pool.notIn': '{voice} is not in the voice pool. Pool: {pool}.',
  'autoread.pool.default': "none chosen, so the documented voices of the server's language: {voices}",
  'autoread.show.pool': 'Voice pool: {pool}.',
  'autoread.show.memberVoices': "Members' voices: {list}.",
  'autoread.show.memberVoicesNone': "Members' voices: none given yet (a member is given one when first read).",
  'autoread.show.ignored': 'Not read: {list}.',
  'autoread.show.ignoredNone': 'Not read: nobody.',
  'autoread.list.more': 'and {count} more',
  'myvoice.show.none': 'You have no defaults in this server.',
  'myvoice.show.autoread.own': 'Auto-read reads you in your own voice, {voice}.',
  'myvoice.show.autoread.pool': "Auto-read reads you in {voice}, your voice from the server's pool.",
  'myvoice.show.autoread.pending': "Auto-read gives you a voice from the server's pool when it first reads you.",
  'myvoice.show.autoread.server': "Auto-read reads you in the server's voice, {voice}.",
  'privacy.trace.auto_read_voice_pool': "Voices you added to auto-read's pool (as who added them)",
  'privacy.trace.auto_read_member_voices': "Your voice from auto-read's pool",
  'privacy.trace.auto_read_ignored':
    "Auto-read's list of members it does not read (you on it, or as who added someone)",
  'dictionary.permission':
    "Changing this server's dictionary needs the Manage Server permission, which you do not have here. Ask a server admin. Anyone can list and export it.",
  'dictionary.added': 'Added "{word}": read as "{reading}".',
  'dictionary.replaced': '"{word}" is now read as "{reading}".',
  'dictionary.removed': 'Removed "{word}".',
  'dictionary.unknown': '"{word}" is not in the dictionary.',
  'dictionary.empty': 'The dictionary is empty. A member with Manage Server can add words with /dictionary add.',
  'dictionary.list.header': 'Dictionary ({count} in all):',
  'dictionary.exported': 'The dictionary is attached ({count} in all).',
  'dictionary.imported': 'Imported the file ({count} in all): the dictionary holds exactly these now.',
  'dictionary.refused': 'Nothing was changed: {problem}',
  'dictionary.import.notJsonFile': 'Attach a .json file made by /dictionary export.',
  'dictionary.import.tooLarge': 'The file is {size} bytes; a dictionary file is at most {max} bytes.',
  'dictionary.import.download': 'I could not download the file. Please attach it again.',
  'dictionary.problem.emptyWord': 'the word is empty.',
  'dictionary.problem.wordTooLong': 'the word is longer than {max} characters.',
  'dictionary.problem.emptyReading': 'the reading is empty.',
  'dictionary.problem.readingTooLong': 'the reading is longer than {max} characters.',
  'dictionary.problem.controlCharacter': 'it contains control characters.',
  'dictionary.problem.full': 'the dictionary is full ({max} words). Remove some first.',
  'dictionary.problem.duplicate': 'entry {entry} repeats "{word}" (entry {first}).',
  'dictionary.problem.notJson': 'the file is not JSON.',
  'dictionary.problem.unsupportedVersion': 'the file is version {version}; this SayBot reads version {supported}.',
  'dictionary.problem.badShape': 'the file does not look like a dictionary ({path}: {detail}).',
  'dictionary.problem.tooManyEntries': 'the file has {count} entries; at most {max} are allowed.',
  'dictionary.problem.badEntry': 'entry {entry}: {reason}',
  'dictionary.wordOrPattern': 'Give either a word or a pattern (not both).',
  'dictionary.list.pattern': 'pattern {pattern}',
  'dictionary.added.pattern':
    'Added {pattern}: what it matches is read as "{reading}". Entries apply from the top of /dictionary list; it is last.',
  'dictionary.replaced.pattern': '{pattern} is now read as "{reading}".',
  'dictionary.removed.pattern': 'Removed {pattern}.',
  'dictionary.unknown.pattern': '{pattern} is not in the dictionary.',
  'dictionary.moved': '{entry} is now number {position} of {count}. Entries apply from the top.',
  'dictionary.problem.emptyPattern': 'the pattern is empty.',
  'dictionary.problem.patternTooLong': 'the pattern is longer than {max} characters.',
  'dictionary.problem.badPattern': 'the pattern cannot be used: {syntax}',
  'dictionary.problem.unknownGroup':
    'the reading uses {group}, a group the pattern does not have (groups are $1, $2… in the order of their "(", $& is the whole match, $$ a dollar sign).',
  'dictionary.problem.patternsFull': 'the dictionary already holds {max} patterns, the most it may. Remove one first.',
  'dictionary.problem.tooManyPatterns': 'the file has {count} patterns; at most {max} are allowed.',
  'dictionary.pattern.backReference':
    'back-references such as {part} are not supported: patterns run on RE2, which never backtracks.',
  'dictionary.pattern.lookAround':
    'look-ahead and look-behind such as {part} are not supported: patterns run on RE2, which never backtracks.',
  'dictionary.pattern.missingBracket': 'a [ is not closed.',
  'dictionary.pattern.missingParen': 'a ( is not closed.',
  'dictionary.pattern.unexpectedParen': 'a ) has no ( before it.',
  'dictionary.pattern.trailingBackslash': 'it ends with a lone \\.',
  'dictionary.pattern.badEscape': 'the escape {part} is not one RE2 knows.',
  'dictionary.pattern.badGroupName': 'the group name in {part} is not valid, or is used twice.',
  'dictionary.pattern.badRepetition': '{part} repeats nothing, or repeats a repetition.',
  'dictionary.pattern.badRepeatCount': 'the count in {part} is not valid (1000 at most).',
  'dictionary.pattern.badRange': 'the range {part} is not valid.',
  'dictionary.pattern.unsupported': '{part} is not RE2 syntax.',
  'dictionary.pattern.tooComplex': 'it is too complex (its repetitions multiply too far).',
  'dictionary.pattern.other': 'RE2 refused it ({part}).',
} as const;

export type MessageKey = keyof typeof en;
/** A language's catalogue: a text for every key English has. */
export type Catalogue = Record<MessageKey, string>;
