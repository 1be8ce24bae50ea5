/**
 * The speaking feature's strings in English, the source of its part of the catalogue (src/core/i18n/catalogue.ts);
 * ./ko.ts and ./ja.ts give every key (test/core/i18n/catalogue.test.ts checks the {placeholders} match).
 */
export const en = {
  // Where it plays, and when it could not
  'error.voice.busyElsewhere':
    'I am speaking in {channel} right now. Join that channel, try again when I am done, or ask with `output: file`. Nothing was spent.',
  'error.voice.seatLost':
    'The bot speaking in that voice channel lost its connection to Discord, so the rest was not said. Ask again: another bot takes the channel if one is free.',
  'error.voice.busyElsewhere.voiceOnly':
    'I am speaking in {channel} right now. Join that channel, or try again when I am done. Nothing was spent.',
  'error.voice.noSeat.voiceOnly':
    'Every one of my bots here is busy in another channel ({channels}): someone listens there or it is speaking, and none leaves them. Join one of those channels, or try again when one is free. Nothing was spent.',
  'error.voice.noSeat':
    'Every one of my bots here is busy in another channel ({channels}): someone listens there or it is speaking, and none leaves them. Join one of those channels, try again when one is free, or ask with `output: file`. Nothing was spent.',
  'error.voice.botMuted': 'A moderator has server-muted me, so nobody would hear me in {channel}. Nothing was spent.',
  'error.voice.botMuted.helper':
    'A moderator has server-muted {bot}, so nobody would hear it in {channel}. Nothing was spent.',
  'error.voice.botStageAudience.helper':
    'On the Stage {channel} {bot} would be in the audience, and nobody would hear it: let it speak there (the Mute Members permission on that Stage makes it a speaker by itself; or /join, and a Stage moderator invites it to speak). Nothing was spent.',
  'error.voice.joinFailed.helper':
    '{bot} could not join {channel}. Check that it may connect and speak there, then try again.',
  'error.voice.botStageAudience':
    'On the Stage {channel} I would be in the audience, and nobody would hear me: let me speak there (the Mute Members permission on that Stage makes me a speaker by myself; or /join, and a Stage moderator invites me to speak). Nothing was spent.',
  'error.voice.stageAudienceNow':
    'On the Stage {channel} I am in the audience and may not make myself a speaker now, so nobody heard this. Let me speak there (the Mute Members permission on that Stage, or a Stage moderator inviting me), then try again.',
  'error.voice.stageAudienceNow.helper':
    'On the Stage {channel} {bot} is in the audience and may not make itself a speaker now, so nobody heard this. Let it speak there (the Mute Members permission on that Stage, or a Stage moderator inviting it), then try again.',
  'error.voice.streamFailed': 'The audio stopped part-way. {detail}',
  'error.voice.audioStalled': 'The audio stopped arriving and did not resume. Please try again.',
  'error.discord.uploadFailed': 'I could not post the audio file here. Check that I may attach files in this channel.',
  'error.discord.uploadFailed.spent':
    "I could not post the audio file here: Discord did not take it. The voice service had already made it and counted its {paid, plural, one {# character} other {# characters}}, which are spent; asking again costs nothing if the bot's audio cache still holds it.",
  'autoread.guard.move':
    'I am reading {channel} aloud in {voice} for this server; only members with Manage Server can move me.',
  'autoread.guard.elsewhere':
    'I am reading {channel} aloud in {voice}, so I cannot come to your channel. Join {voice}, or choose output: file.',
  'autoread.guard.elsewhere.voiceOnly':
    'I am reading {channel} aloud in {voice}, so I cannot come to your channel. Join {voice}.',
  // /say and playback
  'say.queued': 'Queued: {voice}, {count} part(s). I will start after the {ahead} clip(s) ahead.',
  'say.postedPrivately': 'You may not post files in this channel, so this is here, for you only.',
  'say.speaking': 'Speaking in {channel} with {voice}…',
  'say.spoke': 'Spoke {seconds} s in {channel} with {voice}.',
  'say.spokeMoved': 'Spoke {seconds} s with {voice}, ending in {channel}: a moderator moved me there from {from}.',
  'say.spokeMoved.helper':
    'Spoke {seconds} s with {voice}, ending in {channel}: a moderator moved {bot} there from {from}.',
  'say.spokePartWay': 'Spoke part of this in {channel} with {voice}; it stopped before the end.',
  'say.skipped': 'Skipped after {seconds} s ({voice}).',
  'say.stopped': 'Stopped ({voice}).',
  'say.stoppedSpent': 'What the voice service was asked to make of it counts as spent, heard or not; /usage shows it.',
  'say.cutOff':
    'The reply was cut off after {seconds} s ({voice}): I lost the voice connection in {channel}. Use /say again and I will rejoin.',
  'say.cutOff.helper':
    'The reply was cut off after {seconds} s ({voice}): {bot} lost the voice connection in {channel}. Use /say again and a bot will rejoin.',
  'say.file': 'Here is {voice}, {seconds} s ({format}).',
  'say.fileBecauseNoVoice':
    'You are not in a voice channel, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  'say.fileTooLarge.voiceMessage':
    'The {format} file would be {size} MB, over the {limit} MB Discord takes here, so I posted it as a voice message instead: {voice}, {seconds} s.',
  'say.fileTooLarge.compressed':
    'The {format} file would be {size} MB, over the {limit} MB Discord takes here, and a voice message cannot be posted here, so here it is compressed (Ogg Opus, {compressed} MB): {voice}, {seconds} s.',
  // The user install (src/features/speaking/user-install.ts)
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
  // A reply's buttons and the soundboard
  'buttons.play': 'Play in my voice channel',
  'buttons.again': 'Again',
  'buttons.sound': 'Save as sound',
  'buttons.notYours': 'Only {member}, who asked for this audio, can use these buttons.',
  'buttons.expired':
    'These buttons no longer work (SayBot restarted since, or the reply is too old). Use the command again.',
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
  // Which voice, and why (replies name it when the caller did not choose it)
  'voice.why.preset': '{voice} (preset "{preset}")',
  'voice.why.member': '{voice} (your default)',
  'voice.why.server': '{voice} (server default preset "{preset}")',
  'voice.why.builtin': "{voice} (the default for this server's language)",
  'voice.why.deleted': '{voice} (the server\'s default: your saved voice "{name}" was deleted)',
  'voice.why.builtinOutside': '{voice} (the default for your language)',
  'voice.fallback': '{voice}, the free voice: {reason}',
  'voice.fallbackAfterPaid':
    '{voice}, the free voice, after {paid, plural, one {# character} other {# characters}} in the paid voice (counted): {reason}',
  'fallback.reason.month': "this month's characters are used up",
  'fallback.reason.tooFewLeft':
    'too few characters are left this month for this text ({left, number} left, it needs {needed, number})',
  'fallback.reason.server': "the server's budget for this month is reached",
  'fallback.reason.member': 'your budget for today is reached',
  'fallback.reason.engine': "the bot's own speech engine could not speak it",
  'fallback.reason.service': 'the voice service is not answering',
  'preset.list.default': '(server default)',
  'list.more': '…and {count} more.',
  'sample.freeVoiceStoodIn': 'Spoken by {voice}.',
  // Voice messages (src/features/speaking/voice-message-post.ts)
  'voiceMessage.freeVoiceStoodIn': 'Your voice message above was spoken by {voice}.',
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
  // Failures, in words of their own (failure-words.ts): the Voice API
  'error.api.badRequest':
    'The voice service refused this request: {detail}. Check the text and the options, then try again.',
  'error.api.voiceRefused':
    'The voice service refused this request in the voice {voice}: {said}. Pick another: /myvoice set changes your default, /preset save (Manage Server) a preset.',
  'error.api.unauthorized':
    "The bot's Voice API key is invalid or deactivated. Please tell the server owner; nothing was spent.",
  'error.api.forbidden':
    "The bot's Voice API plan does not include API access. Please tell the server owner (a Creator plan or higher is needed).",
  'error.api.quota': 'The monthly character quota of the voice service is used up. It resets {reset}.',
  'error.api.rateLimited': 'The voice service is busy right now. Please try again in a few seconds.',
  'error.api.server.said':
    'The voice service is failing right now ({status}) and said: {said}. Nothing was charged; please try again later.',
  'error.api.server': 'The voice service is failing right now ({status}). Please try again later.',
  'error.api.timeout': 'The voice service took too long to answer. Please try again.',
  'error.api.connection': 'The bot could not reach the voice service. Please try again later.',
  'error.api.unexpected': 'The voice service sent something the bot could not use. Please try again later.',
  'error.api.sharedCallFailed':
    "This was being made for an identical request asked just before, and that request failed after it left, so this one failed with it. What the voice service may have counted was that request's; nothing of yours was spent. Please try again.",
  'error.api.undelivered':
    'The audio for this broke off before all of it arrived, so this request failed. It was made for an identical request asked just before, whose characters the voice service counted; nothing of yours was counted. Please try again.',
  'error.api.undelivered.paid':
    'The voice service accepted this and counted {paid, plural, one {# character for it, which is} other {# characters for it, which are}} spent, but its audio broke off before all of it arrived. Please try again.',
  'error.api.oversized':
    'The voice service sent far more audio than this text can take (a fault on its side), so I stopped it and kept none of it. It counted the characters all the same; please try again later.',
  'error.api.cloneWithoutVoiceId':
    'The voice service accepted this clone and counted its characters, but did not say which voice it made, so SayBot has no voice ID to use. The voice may exist at the service, and its characters are spent; cloning again would pay again.',
  'error.api.aborted': 'The request was cancelled.',
  'error.api.chargedNotAudio':
    'The voice service accepted this request and counted its characters, but what came back was not audio (a page from a gateway in front of it, for instance), so there is nothing to play. Those characters may have been charged and are counted as spent here. Ask again only if you still want it.',
  'error.api.refusedOnTheWay':
    "The voice service, or something in front of it, refused this request ({status}) without the service's own word on why, so nothing was made and nothing was spent. The owner has been told; please try again later.",
  'error.api.refusedOnTheWay.maybeCharged':
    'The voice service, or something in front of it, refused this request ({status}), and the bot cannot tell which, nor whether its characters were counted: they are counted as spent here. The owner has been told; ask again only if you still want it.',
  'error.api.maybeCharged.service':
    'The voice service answered {status} and said: {said}. It failed after taking the request, so the bot cannot tell whether it counted its characters: they are counted as spent here. Ask again only if you still want it.',
  'error.api.maybeCharged.gateway':
    'The voice service did not answer this request itself: {status} came back without its own words (from a gateway in front of it, for instance), so the bot cannot tell whether it made it. It may have counted its characters, so they are counted as spent here. Ask again only if you still want it.',
  'error.api.maybeCharged.timeout':
    'The voice service took too long to answer, after the request had left. It may have made it and counted its characters all the same, so they are counted as spent here. Ask again only if you still want it.',
  'error.api.maybeCharged.connection':
    'The connection to the voice service broke after the request had left, before its answer came. The service may have made it and counted its characters, so they are counted as spent here. Ask again only if you still want it.',
  // Paid part-way, then refused for money or for the key (src/core/quota/money.ts)
  'error.paidPartWay.quota':
    'The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. It has too few characters left this month for the rest, so the rest was not sent; the quota resets {reset}.',
  'error.paidPartWay.tooFewLeft':
    'The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. It has only {left, plural, one {# character} other {# characters}} left this month and the next part needs {needed, number}, so the rest was not sent; the quota resets {reset}.',
  'error.paidPartWay.budget':
    'The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. The rest would go past a character budget here, so it was not sent; /usage shows what is left.',
  'error.paidPartWay.keyRefused':
    "The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. It then refused the bot's Voice API key (invalid or deactivated), so the rest was not sent and cost nothing. Please tell the server owner.",
  'error.paidPartWay.planRefused':
    "The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. It then refused the rest because the bot's Voice API plan does not include API access, so the rest was not sent and cost nothing. Please tell the server owner (a Creator plan or higher is needed).",
  'error.paidPartWay.failing':
    'The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. It is failing right now ({status}), so the rest was not made and cost nothing; ask for it again later.',
  'error.maybePaid.voiceDeleted':
    'The voice `{voice}` was deleted from this server while this was made, so it is not said; the voice service may have counted its {unconfirmed, plural, one {# character, which is} other {# characters, which are}} counted as spent here.',
  'error.paidPartWay.voiceDeleted':
    'The voice `{voice}` was deleted from this server while this was made, so it is not said; the voice service had already counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent.',
  'error.paidPartWay.refused':
    'The voice service made part of this and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. The bot could not send the rest right now, so the rest was not sent and cost nothing; the operator has been told.',
  // A file or voice message its member stopped while it was made (RenderStoppedError)
  'error.renderStopped':
    'Stopped as you asked before it was finished: nothing of it was charged, and nothing is posted.',
  'error.renderStopped.paid':
    'Stopped as you asked before it was finished: the voice service had already made part of it and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. Nothing more was sent, and nothing is posted.',
  'error.renderStopped.closed':
    'Stopped as you asked before it was finished. The part the voice service was making was closed before it answered, but it may have counted its {unconfirmed, plural, one {# character, so it is} other {# characters, so they are}} counted as spent here. Nothing more was sent, and nothing is posted.',
  'error.renderStopped.paidClosed':
    'Stopped as you asked before it was finished: the voice service had already made part of it and counted its {paid, plural, one {# character, which is} other {# characters, which are}} spent. The part it was making then was closed before it answered, but it may have counted its {unconfirmed, plural, one {# character, so it is} other {# characters, so they are}} counted as spent here. Nothing more was sent, and nothing is posted.',
  // Voice channel failures
  'error.voice.joinFailed': 'I could not join {channel}. Check that I may connect and speak there, then try again.',
  'error.voice.daveRequired':
    'I could not join {channel}: Discord requires end-to-end encrypted voice (DAVE) there and my voice connection did not offer it. The bot operator has been told.',
  'error.voice.daveRequired.helper':
    '{bot} could not join {channel}: Discord requires end-to-end encrypted voice (DAVE) there and its voice connection did not offer it. The bot operator has been told.',
  'error.voice.rateLimited':
    'Discord refused my voice connection to {channel} for now (rate limited). Please wait a minute before asking me to speak there again.',
  'error.voice.rateLimited.helper':
    'Discord refused the voice connection of {bot} to {channel} for now (rate limited). Please wait a minute before asking it to speak there again.',
  'error.voice.leftWhileJoining': 'I was asked to leave {channel} while I was joining it, so I did not stay there.',
  'error.voice.leftWhileJoining.helper':
    '{bot} was asked to leave {channel} while it was joining it, so it did not stay there.',
  'error.voice.callTerminated':
    'Discord ended the voice call in {channel}, so I left it. Ask again with /say or /join to start a new one.',
  'error.voice.callTerminated.helper':
    'Discord ended the voice call in {channel}, so {bot} left it. Ask again with /say or /join to start a new one.',
  // Rights taken away while speech waited (src/core/order/rights.ts): the rest of it was dropped
  'error.revoked.not-in-voice': 'You left {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.muted':
    'A moderator server-muted you in {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.suppressed':
    'You are no longer a speaker on the Stage {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.may-not-speak':
    'You may no longer speak in {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.may-not-view':
    'You may no longer view {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.may-not-connect':
    'You may no longer connect to {channel}, so I stopped speaking for you there; the rest was dropped.',
  'error.revoked.timed-out':
    'You were timed out in this server, so I stopped speaking for you in {channel}; the rest was dropped.',
  'error.revoked.bot-unheard':
    "Nobody can hear me in {channel} any more (a moderator server-muted me, or sent me to the Stage's audience where I may not speak), so I stopped; the rest was dropped.",
  'error.revoked.bot-unheard.helper':
    "Nobody can hear {bot} in {channel} any more (a moderator server-muted it, or sent it to the Stage's audience where it may not speak), so it stopped; the rest was dropped.",
  'error.revoked.ignored': "The server's managers asked auto-read not to read you; the rest was dropped.",
  'error.revoked.not-served': 'I no longer serve this server; the rest was dropped.',
  'error.revoked.notStarted.not-in-voice':
    'You left {channel}, so your request was not played there: none of it had started.',
  'error.revoked.notStarted.muted':
    'A moderator server-muted you in {channel}, so your request was not played there: none of it had started.',
  'error.revoked.notStarted.suppressed':
    'You are no longer a speaker on the Stage {channel}, so your request was not played there: none of it had started.',
  'error.revoked.notStarted.may-not-speak':
    'You may no longer speak in {channel}, so your request was not played there: none of it had started.',
  'error.revoked.notStarted.may-not-view':
    'You may no longer view {channel}, so your request was not played there: none of it had started.',
  'error.revoked.notStarted.may-not-connect':
    'You may no longer connect to {channel}, so your request was not played there: none of it had started.',
  'error.revoked.notStarted.timed-out':
    'You were timed out in this server, so your request was not played in {channel}: none of it had started.',
  'error.revoked.notStarted.bot-unheard':
    "Nobody can hear me in {channel} any more (a moderator server-muted me, or sent me to the Stage's audience where I may not speak), so your request was not played: none of it had started.",
  'error.revoked.notStarted.bot-unheard.helper':
    "Nobody can hear {bot} in {channel} any more (a moderator server-muted it, or sent it to the Stage's audience where it may not speak), so your request was not played: none of it had started.",
  'error.revoked.notStarted.ignored':
    "The server's managers asked auto-read not to read you, so your request was not played: none of it had started.",
  'error.revoked.notStarted.not-served':
    'I no longer serve this server, so your request was not played: none of it had started.',
  // Taken away after paid parts left (RightsRevokedError.spent): the reason, and that what was paid for counts
  'error.revoked.spent':
    '{reason} {paid, plural, =0 {What the voice service was asked to make of it counts} other {The voice service counted # characters for it, which count}} as spent, heard or not; /usage shows it.',
  // Audio, input, and SayBot's own bugs
  'error.audio.unsupported': 'The voice service sent audio in a format I cannot play ({format}).',
  'error.audio.busy':
    'I am preparing too much audio right now (files, speed and volume). Please try again in a minute (nothing was charged twice).',
  'error.busy':
    'I am too busy to do that right now (it could not be done in time). Please try again in a moment; nothing was charged.',
  'error.audio.guildBusy':
    'This server already has {limit} pieces of audio being prepared (files, speed and volume), the most one server may. Please try again once they are done (nothing was charged twice).',
  'error.input.emptyText': 'Please give some text to speak.',
  'error.input.unknownVoice': 'There is no voice "{voice}". Pick one from the list.',
  'error.input.voiceUnlisted':
    'The voice "{voice}" is not one this bot lists, so it is not saved. Pick one from the list (/voices list), or ask the bot\'s owner to add it.',
  'error.input.voiceDeleted':
    'The voice `{voice}` was deleted from this server, so nothing more is said with it and no characters were spent for this.',
  'error.input.engineVoiceUnknown':
    'The voice "{voice}" is not offered now: its speech engine does not list it, or is not set up. Pick one from the list.',
  'error.input.savedVoiceNotOffered':
    'The voice {voice} is not offered now: its speech engine does not list it, or is not set up. Pick another: /myvoice set changes your default, /preset save (Manage Server) a preset.',
  'error.input.engineVoiceNotAnswering':
    'The voice "{voice}" was not saved: its speech engine is not answering now, so SayBot cannot tell whether it offers it. Try again once it answers, or pick another voice.',
  'error.input.freeVoiceUnavailable':
    'The free voice `{voice}` is not available on this SayBot (its owner turned it off or did not install it). Choose another voice; nothing was charged.',
  'error.preset.unknown': 'There is no preset "{name}" in this server. /preset list shows them.',
  'buttons.notCached':
    "This audio is no longer in SayBot's cache, and replaying it would cost characters again, so nothing was done. Use the command again if you want it.",
  'error.payload.missingId':
    "Discord's request lacked an ID I need (or it was not a valid one), so I did nothing with it. Please try again.",
  'error.internal': 'Something went wrong on my side. The operator has been told; please try again.',
  // The books: the month, the budgets, the queue
  'quota.exhaustedChecking':
    'The monthly character quota of the voice service was used up (the service said so on {marked}). Another request is checking right now whether it is back, so I sent nothing: try again in a moment. Audio already in the cache still plays.',
  'quota.tooFewLeft':
    'The voice service has only {left, plural, one {# character} other {# characters}} left this month and this needs {needed, number}, so it sent nothing. Try a shorter text; the quota resets {reset}.',
  'quota.tooFewLeftForMember':
    'The voice service has too few characters left this month for this text, so it sent nothing. Try a shorter text; the quota resets {reset}.',
  'quota.tooFewLeftSaid':
    'As of {at} the voice service said it had only {left, plural, one {# character} other {# characters}} left this month and this needs {needed, number}. Another request is asking it right now whether more were bought, so I sent nothing: try again in a moment. The quota resets {reset}.',
  'quota.tooFewLeftSaidForMember':
    'As of {at} the voice service said it had too few characters left this month for this text. Another request is asking it right now whether more were bought, so I sent nothing: try again in a moment. The quota resets {reset}.',
  'quota.recordFailed':
    'I cannot write down what the voice service bills right now (the bot cannot save to its storage), so I am sending no request that spends characters until it can. The operator has been told. Audio already in the cache still plays.',
  'quota.storageUnavailable':
    "I could not reach the bot's storage in time, so I sent nothing and nothing was spent. Please try again in a moment; the operator has been told.",
  'budget.refused.outsideMonth':
    'All use outside servers shares one monthly budget of {limit, plural, one {# character} other {# characters}}: {used, plural, one {# is} other {# are}} used and this needs {needed}. It resets {reset}.',
  'budget.refused.guildMonth':
    "This server's monthly budget is {limit, plural, one {# character} other {# characters}}: {used, plural, one {# is} other {# are}} used and this needs {needed}. It resets {reset}.",
  'budget.refused.memberDayOutside':
    'Your daily budget outside servers is {limit} characters: you used {used} today and this needs {needed}. It resets {reset}.',
  'budget.refused.memberDay':
    'Your daily budget in this server is {limit} characters: you used {used} today and this needs {needed}. It resets {reset}.',
  'budget.refused.cooldownOutside':
    'Please wait {seconds} s, then you can use SayBot again: outside servers it spends characters for you once every {limit} s.',
  'budget.refused.cooldown':
    'Please wait {seconds} s: in this server a member may spend characters once every {limit} s.',
  'budget.refused.botMonth':
    'SayBot has reached the monthly limit its owner set for all servers together. It resets {reset}.',
  'queue.refused.guildClips':
    "This voice channel's queue is full ({queued, plural, one {# clip} other {# clips}} waiting, at most {limit}). Try again once some have played, or ask for a file.",
  'queue.refused.guildSeconds':
    "This voice channel's queue is full (about {queued} s of speech waiting, at most {limit} s). Try again once some has played, or ask for a file.",
  'queue.refused.member':
    'You already have {limit, plural, one {# request} other {# requests}} waiting in this server, the most one member may have. Try again once one has played.',
  'budget.refused.freeRate':
    "You asked within a minute for {limit, plural, one {# thing that costs} other {# things that cost}} no characters, the most one member may: lines in a free voice (eSpeak NG or this bot's own speech engines, also where one spoke in place of the paid voice), replays, other speeds or volumes, audio already made, scene previews and /usage charts drawn. Try again in {seconds} s.",
  // Caps on the audio's length, and the free voice itself
  'error.tooLong.freeLine':
    'The free voice would speak this for longer than {max} s, the most one of its lines may last, so it said nothing. Nothing was charged; try a shorter text.',
  'error.tooLong.freeLineEstimate':
    'A line in the free voice would last about {seconds} s; one of its lines may last at most {max} s. Its length is known only once it is spoken, so SayBot speaks lines estimated at up to {ceiling} s (a {margin}% margin). Shorten it or split it; nothing was made or charged.',
  'error.tooLong.scene':
    'This scene would last longer than {max} s, the most a scene may, so it was not made. Try fewer or shorter lines.',
  'error.freeVoice.missing':
    'The free voice is not installed on this SayBot, so it cannot speak. Choose another voice; the operator has been told.',
  // What the member lacks (src/core/interactions/preconditions.ts: Unmet)
  'error.input.guildOnly': 'This command works only in a server.',
  'error.permission.manageServer':
    "Changing this server's presets needs the Manage Server permission, which you do not have here. Ask a server admin. Anyone can list and use presets.",
  'error.voice.notInVoice': 'Join a voice channel first.',
  'refusal.nothingSpent': 'Nothing was spent.',
  'error.voice.memberMuted':
    'A moderator has server-muted you, so I will not speak for you in {channel}. Nothing was spent.',
  'error.voice.memberSuppressed':
    'You are in the audience of the Stage {channel}: I speak for you there only once you are made a speaker. Nothing was spent.',
  'error.voice.memberMayNotView':
    'You may not view {channel} (View Channel), so I will not speak there for you. Nothing was spent.',
  'error.voice.memberMayNotConnect':
    'You may not connect to {channel}, so I will not speak there for you. Nothing was spent.',
  'error.voice.memberTimedOut': 'You are timed out in this server, so I will not speak for you. Nothing was spent.',
  'error.voice.authorLeft':
    '{member} is no longer a member of this server, so I will not read their message. Nothing was spent.',
  'error.voice.authorMayNotSpeak':
    '{member} may not speak in {channel} (server-muted, timed out or denied Speak there), so I will not read their message there. Nothing was spent.',
  'error.voice.memberMayNotSpeak':
    'You may not speak in {channel}, so I will not speak there for you. Nothing was spent.',
  // Audio work and the free voice failing on a line of their own
  'error.audio.failed':
    'Preparing this audio failed: the audio worker stopped on it or took too long. Only this request was affected; please try again (nothing was charged twice).',
  'error.freeVoice.stopped':
    'The free voice could not speak this text: eSpeak NG stopped on it. Only this line failed, and it cost nothing.',
  'error.freeVoice.timeout':
    'The free voice took too long on this text and was stopped. Only this line failed, and it cost nothing.',
  'error.files.guildBusy':
    'This server already has {limit} files or voice messages being made, the most one server may have at once. Please try again once they are done (nothing was charged).',
  'error.files.busy':
    'I am making as many files and voice messages as I may at once right now. Please try again in a minute (nothing was charged).',
  'error.files.memberBusy':
    'You already have {limit} files or voice messages being made in this server, the most one member may have at once. Please try again once they are done (nothing was charged).',
  'error.files.userBusy':
    'You already have {limit} files or voice messages being made, the most one person may have at once outside servers. Please try again once they are done (nothing was charged).',
  'error.audio.memberBusy':
    'You already have a long piece of audio being made (a scene or a long file), the most one member may at once, even when it costs nothing. Please try again once it is done.',
  // How a scene ended (outcome-words.ts): /scene's "Play it", and the studio's
  'scene.played': '🎬 Played the scene in {channel}: {seconds} s.',
  'scene.stopped': 'The scene was stopped after {seconds} s. Only what was made was charged.',
  'scene.skipped': 'The scene was skipped after {seconds} s. Only what was made was charged.',
  'scene.cutOff': 'The scene was cut off after {seconds} s (SayBot left {channel}).',
  'scene.posted': '🎬 Posted the scene: {seconds} s.',
  'scene.postedPrivately': 'You may not post files in this channel, so the scene is here, for you only: {seconds} s.',
  'scene.freeVoiceStoodIn': 'Some lines were spoken by the free voice: {reason}.',
  'scene.header': "🎬 {member}'s scene: {speakers, plural, one {# voice} other {# voices}}, {seconds} s",
  'scene.voiceLabel': 'the scene in {speakers, plural, one {# voice} other {# voices}}',
  'scene.voiceMessagePosted': '🎬 Posted the scene as a voice message: {seconds} s. Its subtitles are attached here.',
  'outcome.failedAfterPaying':
    'The voice service counted {paid, plural, one {# character for this, which is} other {# characters for this, which are}} spent. {detail}',
  'outcome.freeVoiceFailed': '{refused} The free voice could not speak it in its place either. {detail}',
  'outcome.partWay.standIn': 'Part of this was spoken by {voice}; the rest could not be made. {detail}',
  'outcome.failedMaybePaid':
    'The voice service may have counted its {unconfirmed, plural, one {# character} other {# characters}}: spent here. {detail}',
  'outcome.partWay.only': 'Only the part of your text made before a later part failed is in it; the rest is missing.',
  'freeLine.cutAtCap':
    'Its audio came out longer than estimated, so the free voice cut it at {max} s, the longest one of its lines may last.',
  'scene.cutAtCap':
    'It came out longer than estimated, so it was cut at {max} s, the longest a scene may last: {heard} of {lines} lines are in it, and the lines after the cut were not made nor charged.',
  'scene.tooLong':
    'This scene would last about {seconds} s; a scene may last at most {max} s. Its length is known only once it is paid for, so SayBot makes scenes estimated at up to {ceiling} s (a {margin}% margin). Shorten it or split it in two; nothing was charged.',
  'studio.scenes.made': 'The scene is made: {seconds} s.',
  'studio.scenes.cut': 'Its audio ran past {max} s and was cut there.',
  'studio.scenes.played': 'Played the scene in your voice channel: {seconds} s.',
  'studio.scenes.stopped': 'The scene was stopped after {seconds} s.',
  // The commands that speak their text (/say, /emote: speaking-command.ts) and /output
  'error.input.emotionEngineVoice':
    "{voice} comes from the bot's own speech engine, which has no emotions: use /say with it, or pick a voice of the service for /emote.",
  'error.engine.failed':
    "This bot's own speech engine could not speak this line (it is not answering, or answered with something that is not audio). This line cost nothing; try again later or pick another voice.",
  'error.engine.timeout':
    "This bot's own speech engine did not send this line's audio within its deadline (it is too slow, or stalled). This line cost nothing; try again later or pick another voice.",
  'error.engine.busy':
    "This bot's speech engine is busy with this server's other lines. This line cost nothing; try again in a moment.",
  'error.input.exaggeration': 'Exaggeration must be a number from 0 to 1; got {value}.',
  'command.emote': 'emote',
  'command.emote.description': 'Speak text with emotion',
  'command.say': 'say',
  'command.say.description': 'Speak text with one of the voices',
  'option.exaggeration.description.emote': 'How strong the emotion is, from 0 (flat) to 1 (intense); default 0.5',
  // Voice messages: /output, the outside-voice defaults (src/features/speaking/speaking-command.ts chooseTarget)
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
  'say.textTooLong':
    'That text is **{characters}** characters as the voice service counts them (after Unicode normalisation); at most {max} are spoken at once.',
} as const;
