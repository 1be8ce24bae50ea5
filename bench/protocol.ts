// What the benchmark driver (parent, with the bot) asks the servers process (fake Discord + sandbox) and what
// it gets back. Every time in here is the servers process's performance.now(): latencies are measured between
// two events that both happen there (INTERACTION_CREATE out, first packet in), so the clocks never mix.
import type { Pacing } from '@saybot/voice-sandbox';
import type { DaveMode } from '@saybot/local-discord/types.ts';

/** How the fake Discord treats DAVE in a servers process: its mode and the one-way delay on each DAVE message. */
export interface DaveSetting {
  mode: DaveMode;
  handshakeDelayMs: number;
}

/** Network delays the fake Discord adds (see FakeDiscordOptions); all 0 on loopback. */
export interface NetworkDelays {
  restRoundTripMs: number;
  gatewayLatencyMs: number;
  voiceUdpLatencyMs: number;
}

export interface ServersInfo {
  restUrl: string;
  sandboxUrl: string;
  apiKey: string;
  token: string;
  applicationId: string;
  caCertificatePem: string;
  /** Helper bots' tokens (start's `seats.helpers`), each invited to every guild: HELPER_BOT_TOKENS. */
  helperTokens?: string[];
}

export interface CommandSpec {
  guildId: string;
  userId: string;
  name: string;
  /** A sub-command (`/scene new`): `options` are then its own. */
  subcommand?: string;
  options?: Record<string, string>;
}

export interface Dispatched {
  interactionId: string;
  dispatchedAtMs: number;
}

/** A response to an interaction, as the fake received it. */
export interface Reply {
  content: string;
  /** When the servers process saw it (performance.now(), as dispatchedAtMs). */
  atMs: number;
  /** The message it created or changed, and the custom_id of each button on it. */
  messageId: string;
  customIds: string[];
}

export interface GuildHeard {
  guildId: string;
  seconds: number;
  /** receivedAtMs of every audio (non-silence) packet, in arrival order. */
  arrivals: number[];
  /** receivedAtMs of every silence frame (a clip's closing ones, and those that stand in for a late packet). */
  silences: number[];
  decryptFailures: number;
  decodeFailures: number;
  /** With DAVE: frames sent without end-to-end encryption, and frames no listener could decrypt (glitches). */
  plaintextFrames: number;
  daveFailures: number;
  /** Its frames were decrypted and decoded (else only timed: the fake's hearInFull sample). */
  inFull: boolean;
}

export interface ProcessUsage {
  /** process.cpuUsage() since the last reset, in microseconds (user + system). */
  cpuUs: number;
  /** Since the last reset. */
  wallMs: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  rssBytes: number;
}

/** The four front-ends figure 20's flood uses (bench/flood-drive.ts). */
export type FloodFrontEnd = 'say' | 'speak' | 'autoread' | 'button' | 'say-file';

/** Figure 20: members of one guild flood it through four front-ends in turn, at a steady rate. */
export interface FloodPlan {
  guildId: string;
  /** The text channel auto-read reads there. */
  channelId: string;
  /** Who floods, in turn. */
  members: string[];
  /** Interactions and messages a second, all front-ends together. */
  perSecond: number;
  seconds: number;
  /** "Play in my voice channel" buttons on file replies the members made before: pressed in turn. */
  buttons: Array<{ userId: string; messageId: string; customId: string }>;
  /** The front-ends used, in turn (default: all four). */
  frontEnds?: FloodFrontEnd[];
  /** Words of its own in every line, so that no flood repeats another's lines (the cache). */
  tag: string;
  /** How long to wait for each interaction's first response once the flood ends. */
  settleMs: number;
  /**
   * Another guild's member asks for something answered at once (/myvoice show) every `everyMs` while the flood
   * runs (and with `perSecond` 0, alone): how long their answers take beside the flood.
   */
  probe?: { guildId: string; userId: string; everyMs: number };
  /** The voice `say-file` asks for (default: the member's own). */
  voice?: string;
  /**
   * Once every first response came, how long each interaction may still take to be answered in words (its deferral
   * edited, or followed up) before its last answer is counted: figure 21 counts those left deferred. Default: none.
   */
  wordsWithinMs?: number;
}

export interface FloodCounts {
  sent: Record<FloodFrontEnd, number>;
  /** Sends the fake refused (a member's client could not have sent it). */
  failedToSend: number;
  /** Interactions with no callback within Discord's 3 s ("The application did not respond"). */
  didNotRespond: number;
  /** Responses the bot made to the interactions (callbacks, edits, follow-ups, deletions), all together. */
  responses: number;
  /** Each interaction's last answer by kind (its digits blurred), counted. */
  answers: Record<string, number>;
  /** From INTERACTION_CREATE leaving the fake to the bot's first response to it, per interaction answered. */
  firstResponseMs: number[];
  /** How long sending took (the flood's own schedule kept, or not). */
  elapsedMs: number;
  /** The probe's answers: from INTERACTION_CREATE leaving the fake to the bot's first response, each. */
  probeMs: number[];
  /** Probes with no first response within Discord's 3 s. */
  probeDidNotRespond: number;
}

/** One entry per operation: its parameters and its result. */
export interface Calls {
  /** `floodMembers`: FLOOD_GUILD's flooders (bench/guilds.ts guildSpecs). */
  start: {
    params: {
      guilds: number;
      dave?: DaveSetting;
      delays?: NetworkDelays;
      floodMembers?: number;
      /** One more guild with `channels` voice channels and a listener each (bench/guilds.ts seatsGuild), and helpers. */
      seats?: { channels: number; helpers: number };
    };
    result: ServersInfo;
  };
  setPacing: { params: { pacing: Partial<Pacing> }; result: null };
  expectedSeconds: { params: { text: string }; result: number };
  command: { params: CommandSpec; result: Dispatched };
  /** As `command`, with a file on the local Discord's CDN as its attachment option `option` (/scene new script:). */
  commandWithFile: {
    params: { spec: CommandSpec; option: string; fileName: string; text: string; contentType: string };
    result: Dispatched;
  };
  /** The servers process's performance.now(): where a window of the driver's begins or ends in the arrivals' clock. */
  now: { params: Record<string, never>; result: number };
  /** Sends them back to back, in one turn of the servers' event loop: "N guilds speaking at once". */
  commandMany: { params: { commands: CommandSpec[] }; result: Dispatched[] };
  /** Waits for a response to the interaction whose content matches `pattern` (a RegExp source). */
  waitResponse: { params: { interactionId: string; pattern: string; timeoutMs: number }; result: string };
  /** As waitResponse, with when it came, its message and that message's buttons. */
  waitReply: { params: { interactionId: string; pattern: string; timeoutMs: number }; result: Reply };
  /** Once the bot answered `interactionId` with a modal: the member submits it with these Text Input values. */
  submitModal: {
    params: { interactionId: string; values: Record<string, string>; timeoutMs: number };
    result: Dispatched;
  };
  /** A member presses the button `customId` on the bot's message `messageId`. */
  pressButton: {
    params: { guildId: string; userId: string; messageId: string; customId: string };
    result: Dispatched;
  };
  /** The first audio packet the guild heard at or after `sinceMs`. */
  firstPacket: { params: { guildId: string; sinceMs: number; timeoutMs: number }; result: number };
  /**
   * The first audio a listener could play at or after `sinceMs`: with DAVE the first frame a listening member
   * decrypted (plaintext frames are dropped by real clients), without DAVE the first packet.
   */
  firstHeard: { params: { guildId: string; sinceMs: number; timeoutMs: number }; result: number };
  clearAudio: { params: { guildIds: string[] }; result: null };
  waitAudio: {
    params: { guildIds: string[]; minSeconds: number; quietMs: number; timeoutMs: number };
    result: GuildHeard[];
  };
  /** As waitAudio, for one voice channel of a guild (the seats figure's channels, each heard apart). */
  waitChannelAudio: {
    params: { guildId: string; channelId: string; quietMs: number; timeoutMs: number };
    result: GuildHeard;
  };
  botVoiceChannel: { params: { guildId: string }; result: string | null };
  /**
   * A moderator server-mutes (or unmutes) a member where they are in voice: VOICE_STATE_UPDATE to the bot. The result
   * is when it was sent, in the servers' clock.
   */
  moderate: { params: { guildId: string; userId: string; mute: boolean }; result: number };
  /** Until the guild heard `count` audio packets since its audio was last cleared: when the last of them came. */
  packetsHeard: { params: { guildId: string; count: number; timeoutMs: number }; result: number };
  /**
   * Discord moves the bot's voice server mid-call (FakeDiscord.moveVoiceServer: a new VOICE_SERVER_UPDATE, the old voice
   * socket closed and its UDP session ended; with `updateAfterMs`, the session ended that much before the update). The
   * result is when, in the servers' clock.
   */
  moveVoiceServer: { params: { guildId: string; updateAfterMs?: number }; result: number };
  /** RTP packets the bot sent to the guild's ended voice sessions so far (never heard). */
  packetsToEndedSession: { params: { guildId: string }; result: number };
  /** Gateway messages the bot sent in the last `withinMs` (at most 60,000), as the fake received them. */
  gatewayMessages: { params: { withinMs: number }; result: number };
  /**
   * Takes the bot out of these guilds' voice channels on the server's side (as a moderator's disconnect). For a bot
   * started after another one stopped: the voice states the first left behind would make its joins no-ops.
   */
  botOutOfVoice: { params: { guildIds: string[] }; result: null };
  /**
   * Call before the command that makes the bot join: when the fake applied the bot's voice state update (op 4 arrived)
   * and when the bot's DAVE group was ready (the fake sent the transition), in the servers' clock. DAVE off: ready = op 4.
   */
  watchJoin: { params: { guildId: string; timeoutMs: number }; result: { voiceStateAtMs: number; readyAtMs: number } };
  /** Until the bot can send end-to-end encrypted audio in the guild (at once when DAVE is off). */
  daveReady: { params: { guildId: string; timeoutMs: number }; result: null };
  usage: { params: { reset: boolean }; result: ProcessUsage };
  /** `userId` imports `json` as the guild's dictionary (/dictionary import, the file on the local CDN). */
  importDictionary: { params: { guildId: string; userId: string; json: string }; result: Dispatched };
  /** Figure 20: a flood through four front-ends, sent from the servers process; resolves once it settled. */
  flood: { params: FloodPlan; result: FloodCounts };
  problems: { params: Record<string, never>; result: string[] };
  /** Requests the sandbox has answered so far (to tell cache hits from calls). */
  requestCount: { params: Record<string, never>; result: number };
  /** Of those, the speech requests (tts and emotion-tts): one per line or clip that was not cached. */
  speechRequestCount: { params: Record<string, never>; result: number };
  /**
   * Figure 25: doubles of a VOICEVOX engine and an OpenAI-compatible speech server (packages/engine-doubles, tones) in
   * this process, as an owner's engines run apart from the bot; their faults and request logs are read over their own
   * HTTP (`/__double/fault`, `/__double/requests`). Closed with the servers.
   */
  startEngines: { params: Record<string, never>; result: { voicevoxUrl: string; speechServerUrl: string } };
  close: { params: Record<string, never>; result: null };
}

export type Op = keyof Calls;

export interface RequestMessage<K extends Op = Op> {
  id: number;
  op: K;
  params: Calls[K]['params'];
}

export type ReplyMessage = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
