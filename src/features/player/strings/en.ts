/** The player commands (/join, /leave, /skip, /stop) in English; ./ko.ts and ./ja.ts give every key. */
export const en = {
  'error.voice.notConnected': 'I am not in a voice channel in this server.',
  // Player commands
  'join.joined': 'Joined {channel}.',
  'join.credits': 'Free voices here: {credits}.',
  'join.already': 'I am already in {channel}.',
  'join.joinedAs': '{bot} joined {channel}.',
  'join.alreadyAs': '{bot} is already in {channel}.',
  'leave.left': 'Left {channel}.',
  'leave.othersQueued':
    "Others' requests are playing or queued in {channel}, so I stay and nothing was stopped. Making me leave now needs Mute Members, Move Members or Manage Server; /stop ends your own requests.",
  'skip.skipped': 'Skipped the current clip.',
  'skip.nothing': 'Nothing is playing.',
  'stop.stopped': 'Stopped and cleared {count} queued clip(s).',
  'player.notInChannel':
    "You are not in {channel}, where I am speaking, so nothing changed. Members there may stop or skip their own requests; stopping or skipping others' needs Mute Members, Move Members or Manage Server.",
  'stop.own':
    "Stopped what you asked for and cleared {count} of your queued clip(s). Others' requests go on: stopping them needs Mute Members, Move Members or Manage Server.",
  'stop.files':
    "Stopped {count} of your files or voice messages being made: nothing more of them is sent to the voice service, and nothing is posted. Each one's own reply says what it cost.",
  'stop.clones':
    'Stopped {count} of your voice clones being made: one still waiting at the voice service is closed (it may have counted its characters, so they are counted as spent), and a voice it already made is kept, its first line neither played nor posted.',
  'stop.nothing': 'Nothing is playing or queued in voice, so nothing was stopped.',
  'stop.nothingOwn':
    "Nothing you asked for is playing or queued, so nothing was stopped. Stopping others' requests needs Mute Members, Move Members or Manage Server.",
  'skip.notYours':
    "The clip playing is not yours, so it plays on. Skipping others' requests needs Mute Members, Move Members or Manage Server.",
  'command.join': 'join',
  'command.join.description': 'Join your voice channel',
  'command.leave': 'leave',
  'command.leave.description': 'Stop speaking and leave the voice channel',
  'command.skip': 'skip',
  'command.skip.description': 'Skip the clip that is playing; the queue goes on',
  'command.stop': 'stop',
  'command.stop.description': 'Stop speaking and clear the queue',
  'autoread.guard.leave':
    'I am reading {channel} aloud in {voice} for this server; only members with Manage Server can make me leave.',
  'autoread.pausedByLeave':
    'Left {voice}. Reading {channel} is paused, its settings kept: /join in {voice} (Manage Server) or /autoread start resumes it once one of my bots is not busy in another channel; /autoread stop ends it.',
  'autoread.resumed': 'Joined {voice} and resumed reading {channel} aloud.',
} as const;
