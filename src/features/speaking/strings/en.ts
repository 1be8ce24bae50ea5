/**
 * The speaking feature's strings in English (how an order's outcome, its refusals and its buttons are worded for the
 * member), the source of its part of the catalogue (src/core/i18n/catalogue.ts). ./ko.ts and ./ja.ts must give every
 * key (the type checks; test/core/i18n/catalogue.test.ts checks the {placeholders} match).
 */
export const en = {
  // Where it plays, and when it could not
  'error.voice.busyElsewhere': 'I am speaking in {channel} right now. Join that channel, or try again when I am done.',
  'error.voice.botStageAudience':
    'On the Stage {channel} I would be in the audience, and nobody would hear me: let me speak there (the Mute Members permission on that Stage makes me a speaker by myself; or /join, and a Stage moderator invites me to speak). Nothing was spent.',
  'error.voice.streamFailed': 'The audio stopped part-way ({detail}). Please try again.',
  'error.discord.uploadFailed': 'I could not post the audio file here. Check that I may attach files in this channel.',
  'autoread.guard.move':
    'I am reading {channel} aloud in {voice} for this server; only members with Manage Server can move me.',
  'autoread.guard.elsewhere':
    'I am reading {channel} aloud in {voice}, so I cannot come to your channel. Join {voice}, or choose output: file.',
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
  'voice.why.commandDefault': '{voice} (the default voice of this command)',
  'voice.fallback': '{voice}, the free voice: {reason}',
  'fallback.reason.month': "this month's characters are used up",
  'fallback.reason.server': "the server's budget for this month is reached",
  'fallback.reason.member': 'your budget for today is reached',
  'fallback.reason.service': 'the voice service is not answering',
  'preset.list.default': '(server default)',
  'list.more': '…and {count} more.',
  // Voice messages (src/features/speaking/voice-message-post.ts)
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
} as const;
