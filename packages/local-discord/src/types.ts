// Public shapes of the fake Discord. Field names that mirror Discord payloads keep Discord's snake_case.

export interface FakeMemberSpec {
  id: string;
  username: string;
  /** Guild-wide permissions given through a role of their own; default: only what @everyone has. */
  permissions?: bigint;
  voiceChannelId?: string;
  /** The member's client locale, used as the interaction locale unless a command gives one. */
  locale?: string;
  bot?: boolean;
  /** The member accepts no direct messages from the bot: a DM is refused with 403 50007 (fake.setDirectMessages). */
  dmsClosed?: boolean;
  /** The member has an avatar (the local CDN draws it, pictures.ts); default: none, as a new account. */
  avatar?: boolean;
}

/** A channel permission overwrite: `id` a role's (the guild's ID for @everyone; type 0) or a member's (type 1). */
export interface FakeOverwrite {
  id: string;
  type: 0 | 1;
  allow?: bigint;
  deny?: bigint;
}

export interface FakeGuildSpec {
  id: string;
  name: string;
  preferredLocale?: string;
  textChannelId: string;
  voiceChannels: Array<{ id: string; name: string; overwrites?: FakeOverwrite[] }>;
  /** Stage channels (type 13): a member entering one is suppressed (the audience) until made a speaker. */
  stageChannels?: Array<{ id: string; name: string; overwrites?: FakeOverwrite[] }>;
  /** More text channels beside textChannelId ("general"), e.g. a private one or one with slowmode. */
  textChannels?: Array<{ id: string; name: string; overwrites?: FakeOverwrite[]; rateLimitPerUser?: number }>;
  members: FakeMemberSpec[];
  /** The guild has an icon (the local CDN draws it, pictures.ts); default: none. */
  icon?: boolean;
  /** Who owns the guild; default: a synthetic owner member (`owner-<guild id>` is its username) in no voice channel. */
  ownerId?: string;
  /** @everyone's permissions; default: view, send, embed, attach, history, connect, speak, use VAD, use commands. */
  everyonePermissions?: bigint;
  /** The bot's role permissions in this guild; default: the same set as @everyone's default. */
  botPermissions?: bigint;
}

export interface FakeDiscordOptions {
  token: string;
  applicationId: string;
  /** Default: the application id (as for real applications). */
  botUserId?: string;
  botUsername?: string;
  guilds: FakeGuildSpec[];
  /** What the voice gateway offers in READY; default ['aead_aes256_gcm_rtpsize']. */
  encryptionModes?: string[];
  /** DAVE end-to-end encryption on the voice gateway (see DaveMode); default DEFAULT_DAVE_MODE. */
  dave?: DaveMode;
  /** Who commits the MLS group: the bot (listeners are welcomed), or a listening member (the bot is welcomed); default 'bot'. */
  daveCommitter?: 'bot' | 'listener';
  /** One-way network delay (ms) added to each DAVE message, both ways, once DAVE starts; default 0. */
  daveHandshakeDelayMs?: number;
  /**
   * Network delays, for benchmarks (default 0: loopback). `restRoundTripMs`: added before every REST request is
   * handled (one round trip); `gatewayLatencyMs`: one way, on every gateway and voice gateway message, both ways
   * (DAVE messages included); `voiceUdpLatencyMs`: one way, on every voice datagram, both ways.
   */
  restRoundTripMs?: number;
  gatewayLatencyMs?: number;
  voiceUdpLatencyMs?: number;
  /**
   * The voice media socket in a thread of its own that stamps each datagram as it arrives (default false): for
   * benchmarks, whose arrival times must not wait for this process's busy event loop.
   */
  udpReceiveThread?: boolean;
  /**
   * Guilds whose voice is fully heard: transport-decrypted, DAVE-decrypted by each listener and Opus-decoded (default:
   * every guild). The others' datagrams are only timed (RTP header, size, arrival; a 3-byte frame is silence), for
   * benchmarks with hundreds of voices, where the fake's own per-packet work on the same cores would starve the bot.
   */
  hearInFull?: (guildId: string) => boolean;
  /**
   * IDENTIFYs each bot token may make in a day (GET /gateway/bot's session_start_limit.total); one more resets that
   * token, as Discord does: its sessions closed with 4004. Default 1,000, as Discord's.
   */
  identifyLimit?: number;
  /**
   * Requests answered 401, 403 or 429 that this host (every token on it) may make in 10 minutes before every
   * request is refused for a while, as Discord's invalid request limit (per IP); default 10,000, as Discord's.
   */
  invalidRequestLimit?: number;
  /** Recommended shard count from GET /gateway/bot; default 1. */
  shards?: number;
  /**
   * The application's Public Bot switch (`bot_public` of GET /applications/@me). Discord turns it on for every new
   * application; default false here, as the owners' guide's set-up (docs/guide-owners.md) leaves it (a test of the warning turns it on).
   */
  botPublic?: boolean;
  /** The user who owns the application (`owner` of GET /applications/@me); default a user of its own, in no guild. */
  applicationOwnerId?: string;
  /** Privileged intents enabled for the application (bitfield); others close the gateway with 4014. Default 0. */
  allowedPrivilegedIntents?: number;
  /** How long an interaction may wait for its first callback before it is unknown (10062); default 3000, 0 = never. */
  interactionTimeoutMs?: number;
  /**
   * How much to keep of what was seen, for a local Discord that runs until stopped (the playground): the newest
   * `entries` messages, interactions, hosted files, sent messages and log entries, and `heardSeconds` of each guild's
   * heard audio. Default: everything, as tests read it all back.
   */
  retain?: { entries: number; heardSeconds: number };
  /**
   * How long an interaction token works for its webhook (edit, follow-up) after the interaction was created; then
   * 401 50027 Invalid Webhook Token, as Discord answers. Default 15 minutes, as Discord's; 0 = never expires.
   */
  interactionTokenLifetimeMs?: number;
  /**
   * How far the host's wall clock runs ahead of Discord's (a VM back from sleep, no time sync): interaction IDs
   * (real snowflakes) carry a time this many ms before Date.now(). Discord's own judging of the 3 s and the
   * token's life is unaffected; it runs on its own clock (fake.advanceClock). Default 0.
   */
  hostClockAheadMs?: number;
  /** Where protocol problems are reported (unknown routes, refused requests, malformed messages); default console.warn. */
  log?: (line: string) => void;
  /** The application's OAuth2 settings (client secret, redirect URIs) for a website's Discord login; see oauth2.ts. */
  oauth2?: FakeOAuth2Options;
}

/**
 * 'off': dave_protocol_version 0 (transport encryption only); 'offered': version 1 to clients that offer it;
 * 'required': as real Discord since March 2026, IDENTIFY without max_dave_protocol_version >= 1 is closed with 4017.
 */
export type DaveMode = 'off' | 'offered' | 'required';

export interface InteractionOption {
  name: string;
  /** Application command option type; inferred from `value` when absent (string 3, integer 4, number 10, boolean 5). */
  type?: number;
  value?: string | number | boolean;
  focused?: boolean;
  options?: InteractionOption[];
}

/** A file served by the fake's CDN; shaped as Discord's attachment object. */
export interface FakeAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
  duration_secs?: number;
  /** Its alt text: `description` in the message's `attachments` metadata (what a screen reader says of a picture). */
  description?: string;
  /** An upload of a modal's File Upload: Discord hosts it as an ephemeral attachment. */
  ephemeral?: boolean;
}

/** An attachment option of a command: an already hosted attachment, or bytes the fake hosts for the command. */
export type FakeAttachmentInput =
  | { option: string; attachment: FakeAttachment }
  | { option: string; data: Uint8Array; filename: string; contentType?: string; durationSecs?: number };

export interface FakeCommandInput {
  guildId: string;
  userId: string;
  name: string;
  options?: InteractionOption[];
  /** Default: the member's locale, else 'en-US'. */
  locale?: string;
  /** Default: the guild's text channel. */
  channelId?: string;
  /** Attachment options (type 11), resolved in data.resolved.attachments. */
  attachments?: FakeAttachmentInput[];
}

/** A file a member picks in a modal's File Upload. */
export interface FakeUpload {
  data: Uint8Array;
  filename: string;
  contentType?: string;
}

/** What a member enters in a modal field: a Text Input's text, a Checkbox's state, a File Upload's files. */
export type FakeModalValue = string | boolean | FakeUpload[];

/**
 * A member submits the modal the bot answered an interaction with (callback type 9), as Discord's client does:
 * the same member, server and channel. Fields left out keep their pre-filled value or default.
 */
export interface FakeModalSubmitInput {
  /** The interaction the bot answered with the modal. */
  on: InteractionHandle;
  values: Record<string, FakeModalValue>;
  /** Default: the locale of the interaction that opened the modal. */
  locale?: string;
  /** Submit what the client would have refused (a file type not accepted, an empty required field): what gets through. */
  unchecked?: boolean;
}

/** A member presses a button (by its custom_id) on a message the bot posted. */
export interface FakeButtonInput {
  guildId: string;
  userId: string;
  messageId: string;
  customId: string;
  /** Default: the member's locale, else 'en-US'. */
  locale?: string;
}

/**
 * A user-installed slash command used where SayBot is no member: in SayBot's DM (context 1), a DM or group DM
 * between users (context 2, a channel SayBot is not in), or a server SayBot is not in (context 0, `guild`).
 */
export interface FakePrivateCommandInput {
  userId: string;
  name: string;
  context: 0 | 1 | 2;
  options?: InteractionOption[];
  /** Default: 'en-US'. */
  locale?: string;
  /** Context 0 or 2: the channel's ID (default: a new one); context 2: a group DM (type 3) rather than a DM (type 1). */
  channelId?: string;
  groupDm?: boolean;
  /** Context 0: the server, which must not be one of the fake's guilds (SayBot is not in it). */
  guild?: FakeForeignGuild;
}

/** A server SayBot is not a member of, as far as an interaction from it tells: its ID and the rights there. */
export interface FakeForeignGuild {
  id: string;
  /** Default: 'en-US'. */
  locale?: string;
  /** The invoking member's permissions in the channel, overwrites included (the interaction's member.permissions). */
  memberPermissions: bigint;
  /** What @everyone may do in the channel, overwrites included: an app that is no member gets these (app_permissions). */
  everyonePermissions: bigint;
}

/** A message context menu used on a message: the interaction carries the message in `data.resolved.messages`. */
export interface FakeMessageCommandInput {
  guildId: string;
  userId: string;
  /** The menu's name as registered ("Speak"). */
  name: string;
  /** The chosen message, in the interaction's channel (its id defaults to a fresh snowflake). */
  message: Omit<ChatMessage, 'id' | 'channelId' | 'guildId'> & { id?: string };
  /** Default: the member's locale, else 'en-US'. */
  locale?: string;
  /** Default: the guild's text channel. */
  channelId?: string;
}

export interface FakeAutocompleteInput {
  guildId: string;
  userId: string;
  name: string;
  /** One of them (possibly nested in a sub-command) has focused: true. */
  options: InteractionOption[];
  locale?: string;
  channelId?: string;
  /** How long to wait for the type 8 callback; default 5000. */
  timeoutMs?: number;
}

export interface FakeFile {
  name: string;
  contentType?: string;
  data: Buffer;
}

export interface Mentioned {
  users: string[];
  roles: string[];
  everyone: boolean;
}

export interface InteractionResponse {
  kind: 'callback' | 'edit-original' | 'follow-up' | 'edit-follow-up' | 'delete';
  /** The callback type (4, 5, 6, 7, 8, 9); only for kind 'callback'. */
  type?: number;
  content?: string;
  /** The flags sent; for an edit, the edited message's flags (Ephemeral kept from its first response). */
  flags?: number;
  embeds?: unknown[];
  allowedMentions?: unknown;
  files: FakeFile[];
  /** The JSON the bot sent (payload_json for multipart). */
  raw: unknown;
  /** The message this response created or changed, as the fake answered it. */
  message?: Record<string, unknown>;
  /** Who the message would really ping, given its content and allowed_mentions. */
  mentioned: Mentioned;
}

export interface InteractionHandle {
  id: string;
  token: string;
  /** The application it went to, whose bot answers it: the main one's, but for a button on a helper's message. */
  readonly applicationId: string;
  /**
   * performance.now() just before INTERACTION_CREATE was written to the bot's gateway socket: the start of
   * latency measurements (benchmarks) that end at a HeardPacket.receivedAtMs of the same process.
   */
  readonly dispatchedAtMs: number;
  responses: ReadonlyArray<InteractionResponse>;
  /** Requests the fake refused for this interaction (late or repeated callbacks, invalid bodies), in order. */
  problems: ReadonlyArray<string>;
  /** The bot used this interaction's token after its lifetime (interactionTokenLifetimeMs) and was refused. */
  readonly tokenExpired: boolean;
  /**
   * Discord's 3 s (interactionTimeoutMs, on its own clock) passed without a callback: the member's client shows
   * "The application did not respond" (for a component, "This interaction failed").
   */
  readonly didNotRespond: boolean;
  /** The modal the bot answered with (callback type 9: custom_id, title, components), until it is submitted. */
  readonly modal: Record<string, unknown> | undefined;
  waitFor(predicate: (r: InteractionResponse) => boolean, timeoutMs?: number): Promise<InteractionResponse>;
  /** The first response that is not a bare defer (a type 5/6 callback without content). */
  waitForFinal(timeoutMs?: number): Promise<InteractionResponse>;
}

export interface HeardPacket {
  sequence: number;
  timestamp: number;
  /** performance.now() when the datagram arrived. */
  receivedAtMs: number;
  /** Size of the decrypted Opus frame (of the still sealed frame in a guild only timed: FakeDiscordOptions.hearInFull). */
  bytes: number;
  /** An Opus silence frame (F8 FF FE): kept here, left out of the PCM. */
  silence: boolean;
  ssrc: number;
}

export interface HeardAudio {
  /** 48 kHz stereo interleaved s16; silence frames excluded. */
  pcm: Int16Array;
  seconds: number;
  packets: HeardPacket[];
  encryptionMode: string | undefined;
  /** Datagrams that failed authentication/decryption or Opus decoding. */
  decryptFailures: number;
  decodeFailures: number;
  /** Datagrams whose transport nonce was not above every earlier one with the session's key: a reused nonce. */
  nonceRepeats: number;
  /** Present while the bot's voice session uses DAVE: then only frames a listening member decrypted are heard. */
  dave?: DaveHeardReport;
}

export interface DaveHeardReport {
  /** Frames that arrived end-to-end encrypted (ending in the 0xFAFA marker), silence excluded. */
  e2eeFrames: number;
  /** Non-silence frames without E2EE: a real listener in a DAVE call drops them. */
  plaintextFrames: number;
  /** Of those, the ones that arrived after the bot's first transition was executed (it should encrypt by then). */
  plaintextAfterTransition: number;
  /** E2EE frames no listening member could decrypt although one had decrypted before. */
  decryptFailures: number;
  /** From the first non-silence packet to the first frame a listener could decrypt; undefined until both happened. */
  firstPacketToFirstDecryptableMs: number | undefined;
}

export interface RestLogEntry {
  method: string;
  /** Path and query as received, e.g. '/api/v10/webhooks/1/tok/messages/%40original'. */
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The status the fake answered. */
  status: number;
}

/** A message the bot sent to a member's DM channel. */
export interface SentDirectMessage {
  userId: string;
  channelId: string;
  message: Record<string, unknown>;
  files: FakeFile[];
  raw: unknown;
}

export interface SentChannelMessage {
  channelId: string;
  message: Record<string, unknown>;
  files: FakeFile[];
  raw: unknown;
}

/** A member's chat message as the local Discord dispatches it (message-create.ts). */
export interface ChatAuthor {
  id: string;
  username: string;
  global_name?: string | null;
  bot?: boolean;
}

export interface ChatMessage {
  id: string;
  channelId: string;
  guildId: string;
  author: ChatAuthor;
  /** The author's guild member (absent for webhooks). */
  member?: { nick?: string | null; roles: string[] };
  content: string;
  mentions?: ChatAuthor[];
  mentionRoles?: string[];
  attachments?: { id: string; filename: string; content_type?: string; size: number; url: string }[];
  stickers?: { id: string; name: string; format_type: number }[];
  embeds?: unknown[];
  webhookId?: string;
  reference?: { message_id: string; channel_id: string; guild_id: string; type?: 0 | 1 };
  /** Message flags as Discord sends them (e.g. SUPPRESS_NOTIFICATIONS 1 << 12 for `@silent`); default 0. */
  flags?: number;
}

/** The OAuth2 scopes the local Discord models (others are refused with error=invalid_scope). */
export type OAuth2Scope = 'identify' | 'email' | 'guilds' | 'applications.commands.permissions.update';

/** The application's OAuth2 settings, as its owner sets them in the Developer Portal (OAuth2 page). */
export interface FakeOAuth2Options {
  /** The client secret; default a random one (read it from `fake.oauth2.clientSecret`). */
  clientSecret?: string;
  /** OAuth2 > Redirects: `redirect_uri` must equal one exactly; more with `fake.oauth2.registerRedirectUri()`. */
  redirectUris?: string[];
  /** Servers the bot is not in: they appear only in their members' own lists (GET /users/@me/guilds). */
  otherGuilds?: FakeOtherGuildSpec[];
  /**
   * Whom the consent page lets a browser authorize as: `anyone` the local Discord knows (the default: a test picks
   * its user there), or only the user `signed-in` in that browser, as on Discord (where one authorizes as oneself);
   * a browser with nobody signed in may then only Cancel. For a local Discord others may reach (the playground).
   */
  consentAs?: 'anyone' | 'signed-in';
}

/** A server without the bot, known only to its members' guild lists. Members not in any bot guild need a username. */
export interface FakeOtherGuildSpec {
  id: string;
  name: string;
  ownerId?: string;
  members: Array<{ id: string; username?: string; permissions?: bigint }>;
}

/** One request to the OAuth2 routes: which route, its status; never a code, token, secret or state. */
export interface OAuth2LogEntry {
  method: string;
  route: 'authorize' | 'consent' | 'token' | 'revoke' | 'oauth2/@me' | 'users/@me' | 'users/@me/guilds';
  status: number;
  /** For the token endpoint: the grant_type asked for; for a refusal: Discord's `error` or message. */
  grantType?: string;
  error?: string;
}
