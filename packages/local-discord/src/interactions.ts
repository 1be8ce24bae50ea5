// Interactions the fake sends, and what the bot answered: callbacks, @original edits and follow-ups.
import type { ParsedBody } from './body.ts';
import type { Cdn } from './cdn.ts';
import type { DiscordClock } from './clock.ts';
import type { CommandStore } from './commands.ts';
import {
  ATTACHMENT_SIZE_LIMIT,
  MessageFlag,
  apiError,
  asObject,
  checkMessageBody,
  mentionedBy,
  type ApiError,
  type Json,
  type MessageStore,
} from './messages.ts';
import { checkOptions } from './option-checks.ts';
import { DiscordRefusal, checkSeenBy } from './api-error.ts';
import { commandAccess, commandContexts, type CommandPermissionStore } from './command-permissions.ts';
import { randomToken, snowflake } from './snowflake.ts';
import { IS_VOICE_MESSAGE } from './voice-message.ts';
import { PermissionFlagsBits } from 'discord.js';
import {
  channelPayload,
  dmChannelPayload,
  memberPayload,
  userPayload,
  type GuildRecord,
  type UserRecord,
} from './state.ts';
import type { BotApplication, World } from './world.ts';
import { customIdsOf } from './components.ts';
import { FormRefusal, acceptsFile } from './file-types.ts';
import { checkModal, submitModal } from './modals.ts';
import type {
  FakeAttachmentInput,
  FakeButtonInput,
  FakeCommandInput,
  FakeModalSubmitInput,
  FakePrivateCommandInput,
  InteractionHandle,
  InteractionOption,
  InteractionResponse,
} from './types.ts';
import { WAIT_MS, type Waits } from './waits.ts';
import { keepNewest } from './retention.ts';

export const InteractionType = { ApplicationCommand: 2, MessageComponent: 3, Autocomplete: 4, ModalSubmit: 5 } as const;
/** data.type of an application command interaction: a slash command, or a message context menu. */
export const CommandType = { ChatInput: 1, Message: 3 } as const;
const OptionType = {
  SubCommand: 1,
  SubCommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;
/** What an interaction response can use of an app's permissions where the app is no member (Discord's change log, 2022-06-29). */
const RESPONSE_PERMISSIONS =
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.MentionEveryone |
  PermissionFlagsBits.UseExternalEmojis;
/** app_permissions in a DM or group DM between users (receiving-and-responding: app_permissions). */
const PRIVATE_CHANNEL_APP_PERMISSIONS =
  PermissionFlagsBits.AttachFiles | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.MentionEveryone;

export interface Answer {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
}

function answer(error: ApiError): Answer {
  return { status: error.status, json: error.body };
}

export class Interaction implements InteractionHandle {
  readonly id: string;
  readonly token = `aW50ZXJhY3Rpb24.${randomToken(48)}`;
  readonly type: number;
  /** None in a DM or group DM (a user-installed command there). */
  readonly guild: GuildRecord | undefined;
  readonly user: UserRecord;
  readonly channelId: string;
  readonly commandName: string;
  /** On Discord's own clock (DiscordClock): the token's 15 minutes count from here. */
  readonly createdAt: number;
  /** performance.now() when INTERACTION_CREATE went out (markDispatched), for latency measurements. */
  dispatchedAtMs = Number.NaN;
  /** The same moment on Discord's own clock: the 3 s to the first callback count from here. */
  dispatchedAt = Number.NaN;
  readonly responses: InteractionResponse[] = [];
  readonly problems: string[] = [];
  acknowledged = false;
  /** The bot used the token after its lifetime (and was answered 401 50027). */
  tokenExpired = false;
  /** The modal the bot answered with (callback type 9), until the member submits it. */
  modal: Json | undefined;
  /** The interaction's locale (the member's client). */
  locale = 'en-US';
  originalMessageId: string | undefined;
  /** A component interaction's: the message its component is on, which a type 6 or 7 callback makes @original. */
  componentMessageId: string | undefined;
  /** A modal submit's: the interaction the bot answered with the modal (its messages say how the form was opened). */
  openedBy: Interaction | undefined;
  /** A slash command's name as Discord's client shows it, with its sub-command group and sub-command ("scene save"). */
  shownName: string;
  /** A message context menu's: the message it was used on. */
  targetMessageId: string | undefined;
  readonly followUpIds = new Set<string>();
  /** The application it was sent to: its bot answers it (the main one, but for a button on a helper's message). */
  application: BotApplication;

  get applicationId(): string {
    return this.application.applicationId;
  }
  /**
   * Where the app is no member (a user install): what its responses may use, its app_permissions (Discord: an app
   * without a bot user there "depends on @everyone"); a file needs ATTACH_FILES. Undefined in the bot's servers.
   */
  responsePermissions: bigint | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly waits: Waits;
  private readonly clock: DiscordClock;
  /** Discord's time to the first callback (0: none). */
  private readonly timeoutMs: number;

  private readonly report: (line: string) => void;

  constructor(
    type: number,
    guild: GuildRecord | undefined,
    user: UserRecord,
    channelId: string,
    commandName: string,
    deps: {
      waits: Waits;
      report: (line: string) => void;
      clock: DiscordClock;
      hostClockAheadMs: number;
      timeoutMs: number;
      world: World;
    },
  ) {
    this.application = deps.world.main;
    this.report = deps.report;
    this.clock = deps.clock;
    this.timeoutMs = deps.timeoutMs;
    this.createdAt = deps.clock.now();
    // A real snowflake, from Discord's wall clock: behind the host's when the host's runs ahead.
    this.id = snowflake(Date.now() - deps.hostClockAheadMs);
    this.type = type;
    this.guild = guild;
    this.user = user;
    this.channelId = channelId;
    this.commandName = commandName;
    this.shownName = commandName;
    this.waits = deps.waits;
  }

  /** Called right before INTERACTION_CREATE is written to the bot's gateway session. */
  markDispatched(): void {
    this.dispatchedAtMs = performance.now();
    this.dispatchedAt = this.clock.now();
  }

  /** Milliseconds on Discord's clock since it sent the interaction: its 3 s to the first callback count from there. */
  sinceSent(): number {
    return this.clock.now() - (Number.isNaN(this.dispatchedAt) ? this.createdAt : this.dispatchedAt);
  }

  /** Discord's 3 s passed with no callback: the member's client says "The application did not respond". */
  get didNotRespond(): boolean {
    return !this.acknowledged && this.timeoutMs > 0 && this.sinceSent() > this.timeoutMs;
  }

  record(response: InteractionResponse): void {
    this.responses.push(response);
    for (const listener of [...this.listeners]) listener();
  }

  problem(text: string): void {
    this.problems.push(text);
    this.report(`interaction /${this.commandName} (${this.id}): ${text}`);
  }

  waitFor(predicate: (r: InteractionResponse) => boolean, timeoutMs = WAIT_MS): Promise<InteractionResponse> {
    return this.waits.wait(
      () => this.responses.find(predicate),
      (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      timeoutMs,
      () =>
        `no matching response to /${this.commandName} (${this.id}); got [${this.responses.map((r) => r.kind + (r.type ? ` ${r.type}` : '')).join(', ')}]` +
        (this.problems.length > 0 ? `; refused: ${this.problems.join(' | ')}` : ''),
    );
  }

  waitForFinal(timeoutMs = WAIT_MS): Promise<InteractionResponse> {
    return this.waitFor(
      (r) => !(r.kind === 'callback' && (r.type === 5 || r.type === 6) && r.content === undefined),
      timeoutMs,
    );
  }
}

/** The sub-command group and sub-command chosen, in order (none for a command without them). */
function subCommandPath(options: Json[]): string[] {
  const only = options.length === 1 ? options[0] : undefined;
  if (only === undefined || (only.type !== OptionType.SubCommand && only.type !== OptionType.SubCommandGroup))
    return [];
  return [String(only.name), ...subCommandPath(Array.isArray(only.options) ? (only.options as Json[]) : [])];
}

/**
 * interaction_metadata as Discord puts it on the messages that answer an interaction: who used it and how (its
 * type), with a command's name, a component's interacted_message_id, or a modal submit's
 * triggering_interaction_metadata (the interaction that opened the form).
 */
function metadataOf(interaction: Interaction): Json {
  return {
    id: interaction.id,
    type: interaction.type,
    ...(interaction.type === InteractionType.ApplicationCommand ? { name: interaction.shownName } : {}),
    ...(interaction.targetMessageId === undefined ? {} : { target_message_id: interaction.targetMessageId }),
    user: userPayload(interaction.user),
    authorizing_integration_owners: interaction.guild ? { 0: interaction.guild.id } : {},
    ...(interaction.type === InteractionType.MessageComponent && interaction.componentMessageId !== undefined
      ? { interacted_message_id: interaction.componentMessageId }
      : {}),
    ...(interaction.openedBy === undefined
      ? {}
      : { triggering_interaction_metadata: metadataOf(interaction.openedBy) }),
  };
}

function inferType(option: InteractionOption): number {
  if (option.type !== undefined) return option.type;
  if (option.options !== undefined && option.value === undefined) return OptionType.SubCommand;
  if (typeof option.value === 'boolean') return OptionType.Boolean;
  if (typeof option.value === 'number') return Number.isInteger(option.value) ? OptionType.Integer : OptionType.Number;
  return OptionType.String;
}

export interface InteractionsDeps {
  world: World;
  messages: MessageStore;
  cdn: Cdn;
  commands: CommandStore;
  /** The servers' command permissions (who may use which command where). */
  commandPermissions: CommandPermissionStore;
  waits: Waits;
  /** How long the first callback may take; 0 = no limit. */
  timeoutMs: number;
  /** How long the token works for webhook edits and follow-ups; 0 = forever. */
  tokenLifetimeMs: number;
  /** Discord's own clock, which judges both. */
  clock: DiscordClock;
  /** How far the host's wall clock runs ahead of Discord's: interaction IDs are that much older than Date.now(). */
  hostClockAheadMs: number;
  report: (line: string) => void;
}

export class Interactions {
  /** Interactions kept (FakeDiscordOptions.retain); a forgotten one's token no longer works. */
  retain = Infinity;
  private readonly byId = new Map<string, Interaction>();
  private readonly byToken = new Map<string, Interaction>();
  private readonly world: World;
  private readonly messages: MessageStore;
  private readonly cdn: Cdn;
  private readonly deps: InteractionsDeps;

  constructor(deps: InteractionsDeps) {
    this.deps = deps;
    ({ world: this.world, messages: this.messages, cdn: this.cdn } = deps);
  }

  /** Every interaction sent so far (their tokens and responses), oldest first. */
  all(): Interaction[] {
    return [...this.byId.values()];
  }

  /**
   * A new interaction and its INTERACTION_CREATE payload: a slash command or autocomplete, or with `target` (a
   * message payload) a message context menu used on that message.
   */
  create(type: number, input: FakeCommandInput, target?: Json): { interaction: Interaction; payload: Json } {
    const guild = this.world.guild(input.guildId);
    const member = guild.members.get(input.userId);
    if (!member) throw new Error(`FakeDiscord: ${input.userId} is not a member of guild ${guild.id}`);
    const channelId = input.channelId ?? guild.textChannelId;
    const channel = guild.channels.get(channelId);
    if (!channel) throw new Error(`FakeDiscord: ${channelId} is not a channel of guild ${guild.id}`);
    const registered = this.deps.commands.find(
      guild.id,
      input.name,
      target ? CommandType.Message : CommandType.ChatInput,
    );
    // A message command is offered on a message only: never as a slash command of that name.
    if (!registered && !target && this.deps.commands.find(guild.id, input.name, CommandType.Message))
      throw new DiscordRefusal(404, 10063, `Unknown application command: /${input.name} is a message command`);
    // A command the member may not use here is neither offered nor sent: Discord creates no interaction.
    if (registered && (type === InteractionType.ApplicationCommand || type === InteractionType.Autocomplete)) {
      const access = commandAccess({
        guild,
        userId: member.user.id,
        channelId,
        command: registered,
        applicationId: this.world.applicationId,
        permissions: this.deps.commandPermissions,
      });
      if (!access.allowed)
        throw access.code === 'context'
          ? new DiscordRefusal(404, 10063, `Unknown application command: ${access.why}`)
          : new DiscordRefusal(403, 50013, `Missing Permissions: ${access.why}`);
    }
    const interaction = new Interaction(type, guild, member.user, channelId, input.name, this.deps);
    interaction.locale = input.locale ?? member.locale ?? 'en-US';
    const options = (input.options ?? []).map((o) => this.option(o));
    // Attachments go with the sub-command the member chose (a sub-command is the only top-level option then).
    const sub = options.length === 1 && options[0]?.type === OptionType.SubCommand ? options[0] : undefined;
    interaction.shownName = [input.name, ...subCommandPath(options)].join(' ');
    if (target) interaction.targetMessageId = String(target.id);
    const declared = sub === undefined ? registered : optionsOf(registered).find((o) => o.name === sub.name);
    // Discord's client offers only files of the option's types (file_types): any other never reaches the bot.
    for (const a of input.attachments ?? []) checkAttachmentType(declared, a);
    const attachmentOptions = sub === undefined ? options : ((sub.options ??= []) as Json[]);
    for (const a of input.attachments ?? []) {
      const attachment =
        'attachment' in a ? a.attachment : this.cdn.host(a.data, a.filename, a.contentType, a.durationSecs);
      attachmentOptions.push({ name: a.option, type: OptionType.Attachment, value: attachment.id });
    }
    // A slash command's options as Discord's client and API hold them to the registration (option-checks.ts).
    if (type === InteractionType.ApplicationCommand && !target && registered) checkOptions(registered, options);
    const resolved = target
      ? { messages: { [String(target.id)]: target } }
      : this.resolve(guild, member.user.id, options);
    const payload: Json = {
      id: interaction.id,
      application_id: this.world.applicationId,
      type,
      token: interaction.token,
      version: 1,
      guild_id: guild.id,
      guild: { id: guild.id, locale: guild.preferredLocale, features: [] },
      channel_id: channelId,
      channel: channelPayload(guild, channel),
      // Both in this channel, overwrites included, as Discord computes them.
      member: memberPayload(guild, member, { channelId }),
      app_permissions: guild.permissionsIn(this.world.bot.id, channelId).toString(),
      locale: interaction.locale,
      guild_locale: guild.preferredLocale,
      entitlements: [],
      authorizing_integration_owners: { 0: guild.id },
      context: 0,
      attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
      data: {
        id: registered?.id ?? snowflake(),
        name: input.name,
        ...(target ? { type: CommandType.Message, target_id: target.id } : { type: CommandType.ChatInput, options }),
        ...(Object.keys(resolved).length > 0 ? { resolved } : {}),
        ...(typeof registered?.guild_id === 'string' ? { guild_id: registered.guild_id } : {}),
      },
    };
    this.byId.set(interaction.id, interaction);
    this.byToken.set(interaction.token, interaction);
    keepNewest(this.byId, this.retain, (old) => this.byToken.delete(old.token));
    return { interaction, payload };
  }

  /**
   * A member presses a button on a message (type 3, MESSAGE_COMPONENT): `data` { custom_id, component_type 2 } and
   * the `message` it is on. Discord sends only a custom_id the message carries: anything else is a test's mistake.
   */
  createButton(input: FakeButtonInput): { interaction: Interaction; payload: Json } {
    const message = this.messages.get(input.messageId);
    if (!message) throw new Error(`FakeDiscord: no message ${input.messageId}`);
    checkSeenBy(message, input.userId);
    if (!customIdsOf(message).includes(input.customId))
      throw new Error(`FakeDiscord: message ${input.messageId} has no button ${input.customId}`);
    const channelId = typeof message.channel_id === 'string' ? message.channel_id : undefined;
    const { interaction, payload } = this.create(InteractionType.MessageComponent, {
      guildId: input.guildId,
      userId: input.userId,
      name: input.customId,
      ...(channelId === undefined ? {} : { channelId }),
      ...(input.locale === undefined ? {} : { locale: input.locale }),
    });
    payload.data = { custom_id: input.customId, component_type: 2 };
    payload.message = message;
    // A component belongs to the application whose bot posted its message: the interaction goes to that one.
    const application = this.world.applications.get(String(asObject(message.author).id));
    if (application && !application.main && interaction.guild) {
      interaction.application = application;
      payload.application_id = application.applicationId;
      payload.app_permissions = interaction.guild.permissionsIn(application.user.id, interaction.channelId).toString();
    }
    interaction.componentMessageId = input.messageId;
    return { interaction, payload };
  }

  /**
   * A member submits the modal the bot answered `input.on` with (type 5, MODAL_SUBMIT): `data` { custom_id,
   * components (each Label with its component's value, values or state), resolved.attachments (the uploads) }.
   * What Discord's client refuses (modals.ts) throws a FormRefusal and sends nothing; a modal is submitted once.
   */
  createModalSubmit(input: FakeModalSubmitInput): { interaction: Interaction; payload: Json } {
    const source = this.byId.get(input.on.id);
    const modal = source?.modal;
    if (!source || !modal)
      throw new Error(
        `FakeDiscord: the bot answered interaction ${input.on.id} with no modal (or it was submitted already)`,
      );
    if (!source.guild) throw new Error("FakeDiscord: modal submits are modelled in the bot's servers only");
    const submitted = submitModal(
      modal,
      input.values,
      (upload) => this.cdn.host(upload.data, upload.filename, upload.contentType),
      {
        sizeLimit: ATTACHMENT_SIZE_LIMIT,
        ...(input.unchecked === undefined ? {} : { unchecked: input.unchecked }),
      },
    );
    source.modal = undefined;
    const { interaction, payload } = this.create(InteractionType.ModalSubmit, {
      guildId: source.guild.id,
      userId: source.user.id,
      name: String(modal.custom_id),
      channelId: source.channelId,
      locale: input.locale ?? source.locale,
    });
    interaction.openedBy = source;
    payload.data = {
      custom_id: modal.custom_id,
      components: submitted.components,
      ...(Object.keys(submitted.attachments).length > 0 ? { resolved: { attachments: submitted.attachments } } : {}),
    };
    return { interaction, payload };
  }

  /**
   * A user-installed slash command used where SayBot is no member, as Discord sends it there, offered only when the
   * command's global definition lists the user install (integration_types 1) and that context:
   * - SayBot's DM (context 1, BOT_DM) or a DM or group DM between users (context 2, PRIVATE_CHANNEL): no guild, the
   *   invoking `user` (no `member`), `app_permissions` of a private channel (Attach Files, Embed Links, Mention
   *   Everyone; Use External Emojis too in the bot's DM);
   * - a server SayBot is not in (context 0, GUILD): `guild_id`, the `member` with their permissions in the channel,
   *   and `app_permissions` those of @everyone there limited to what an interaction response can use (Attach Files,
   *   Embed Links, Mention Everyone, Use External Emojis), as for an app without a bot user.
   * Either way `authorizing_integration_owners` is { "1": the user }, and a response with a file needs Attach Files
   * in those app_permissions (403 50013 otherwise).
   */
  createPrivate(input: FakePrivateCommandInput): { interaction: Interaction; payload: Json } {
    const user = this.world.findUser(input.userId);
    if (!user) throw new Error(`FakeDiscord: no user ${input.userId}`);
    const registered = this.deps.commands
      .list()
      .find((c) => c.name === input.name && (c.type ?? 1) === CommandType.ChatInput);
    const integrationTypes = Array.isArray(registered?.integration_types) ? registered.integration_types : [0];
    const contexts = registered ? commandContexts(registered) : [];
    if (!registered || !integrationTypes.includes(1) || !contexts.includes(input.context)) {
      throw new Error(
        `FakeDiscord: /${input.name} is not offered to user installs in context ${input.context} (global definition: integration_types ${JSON.stringify(integrationTypes)}, contexts ${JSON.stringify(contexts)})`,
      );
    }
    const where = input.context === 0 ? this.foreignGuildPlace(input, user) : this.privatePlace(input, user);
    const interaction = new Interaction(
      InteractionType.ApplicationCommand,
      undefined,
      user,
      where.channelId,
      input.name,
      this.deps,
    );
    interaction.responsePermissions = where.appPermissions;
    const payload: Json = {
      id: interaction.id,
      application_id: this.world.applicationId,
      type: InteractionType.ApplicationCommand,
      token: interaction.token,
      version: 1,
      ...where.fields,
      channel_id: where.channelId,
      app_permissions: where.appPermissions.toString(),
      locale: input.locale ?? 'en-US',
      entitlements: [],
      authorizing_integration_owners: { 1: user.id },
      context: input.context,
      attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
      data: {
        id: registered.id,
        name: input.name,
        type: CommandType.ChatInput,
        options: (input.options ?? []).map((o) => this.option(o)),
      },
    };
    this.byId.set(interaction.id, interaction);
    this.byToken.set(interaction.token, interaction);
    keepNewest(this.byId, this.retain, (old) => this.byToken.delete(old.token));
    return { interaction, payload };
  }

  /** SayBot's DM or another DM / group DM: the channel, the invoking user, and a private channel's app_permissions. */
  private privatePlace(
    input: FakePrivateCommandInput,
    user: UserRecord,
  ): { channelId: string; appPermissions: bigint; fields: Json } {
    const channelId = input.context === 1 ? this.world.dmChannelWith(user) : (input.channelId ?? snowflake());
    const channel =
      input.context === 1
        ? dmChannelPayload(channelId, user)
        : {
            id: channelId,
            type: input.groupDm === true ? 3 : 1,
            last_message_id: null,
            flags: 0,
            recipients: [userPayload(user)],
          };
    const appPermissions =
      PRIVATE_CHANNEL_APP_PERMISSIONS | (input.context === 1 ? PermissionFlagsBits.UseExternalEmojis : 0n);
    return { channelId, appPermissions, fields: { channel, user: userPayload(user) } };
  }

  /** A server SayBot is not in: the guild as an interaction names it, the member with their rights, @everyone's for the app. */
  private foreignGuildPlace(
    input: FakePrivateCommandInput,
    user: UserRecord,
  ): { channelId: string; appPermissions: bigint; fields: Json } {
    const guild = input.guild;
    if (!guild) throw new Error('FakeDiscord: a user-installed command in a server (context 0) needs `guild`');
    if (this.world.guilds.has(guild.id))
      throw new Error(`FakeDiscord: SayBot is a member of guild ${guild.id}; use command() there`);
    const channelId = input.channelId ?? snowflake();
    const locale = guild.locale ?? 'en-US';
    const member = {
      user: userPayload(user),
      nick: null,
      avatar: null,
      banner: null,
      roles: [],
      joined_at: new Date(0).toISOString(),
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: null,
      permissions: guild.memberPermissions.toString(),
    };
    const channel = {
      id: channelId,
      type: 0,
      guild_id: guild.id,
      name: 'general',
      position: 0,
      parent_id: null,
      nsfw: false,
      rate_limit_per_user: 0,
      last_message_id: null,
      flags: 0,
      topic: null,
      permissions: guild.memberPermissions.toString(),
    };
    return {
      channelId,
      appPermissions: guild.everyonePermissions & RESPONSE_PERMISSIONS,
      fields: {
        guild_id: guild.id,
        guild: { id: guild.id, locale, features: [] },
        guild_locale: locale,
        channel,
        member,
      },
    };
  }

  private option(option: InteractionOption): Json {
    return {
      name: option.name,
      type: inferType(option),
      ...(option.value !== undefined ? { value: option.value } : {}),
      ...(option.focused !== undefined ? { focused: option.focused } : {}),
      ...(option.options !== undefined ? { options: option.options.map((o) => this.option(o)) } : {}),
    };
  }

  /** data.resolved for attachment, user, channel and role options (walking sub-commands). */
  private resolve(guild: GuildRecord, userId: string, options: Json[]): Json {
    const resolved: Record<string, Json> = {};
    const put = (kind: string, id: string, value: Json): void => {
      resolved[kind] = { ...(resolved[kind] ?? {}), [id]: value };
    };
    const walk = (list: Json[]): void => {
      for (const option of list) {
        if (Array.isArray(option.options)) walk(option.options.map(asObject));
        const value = String(option.value ?? '');
        if (option.type === OptionType.Attachment) {
          const attachment = this.cdn.get(value);
          if (attachment) put('attachments', value, { ...attachment });
        } else if (option.type === OptionType.User || option.type === OptionType.Mentionable) {
          const member = guild.members.get(value);
          if (member) {
            put('users', value, userPayload(member.user));
            const { user: _user, ...rest } = memberPayload(guild, member, true);
            put('members', value, rest);
          }
        } else if (option.type === OptionType.Channel) {
          const channel = guild.channels.get(value);
          // Discord: "computed permissions for the invoking user in the channel, including overwrites".
          if (channel)
            put('channels', value, {
              id: channel.id,
              name: channel.name,
              type: channel.type,
              permissions: guild.permissionsIn(userId, channel.id).toString(),
            });
        }
        if (option.type === OptionType.Role || option.type === OptionType.Mentionable) {
          const role = guild.roles.find((r) => r.id === value);
          if (role)
            put('roles', value, {
              id: role.id,
              name: role.name,
              permissions: role.permissions.toString(),
              position: role.position,
              color: 0,
              hoist: false,
              managed: role.managed,
              mentionable: false,
            });
        }
      }
    };
    walk(options);
    return resolved;
  }

  // ---- REST: POST /interactions/{id}/{token}/callback ----

  callback(id: string, token: string, withResponse: boolean, body: ParsedBody): Answer {
    const interaction = this.byId.get(id);
    if (!interaction || interaction.token !== token) {
      this.deps.report(`callback for unknown interaction ${id} -> 404 10062`);
      return answer(apiError(404, 10062, 'Unknown interaction'));
    }
    const refuse = (error: ApiError, why: string): Answer => {
      interaction.problem(`${why} -> ${error.status} ${error.body.code} ${error.body.message}`);
      return answer(error);
    };
    if (interaction.acknowledged)
      return refuse(apiError(400, 40060, 'Interaction has already been acknowledged.'), 'second callback');
    // Discord's 3 s run on its own clock from when it sent the interaction, whatever the bot's clock says.
    const elapsed = interaction.sinceSent();
    if (this.deps.timeoutMs > 0 && elapsed > this.deps.timeoutMs) {
      return refuse(
        apiError(404, 10062, 'Unknown interaction'),
        `callback ${Math.round(elapsed)} ms after the interaction (limit ${this.deps.timeoutMs} ms)`,
      );
    }
    const json = asObject(body.json);
    const type = json.type;
    const data = asObject(json.data);
    const autocomplete = interaction.type === InteractionType.Autocomplete;
    const invalidType = apiError(400, 50035, 'Invalid Form Body', {
      type: {
        _errors: [
          {
            code: 'INTERACTION_CALLBACK_TYPE_INVALID',
            message: `Callback type ${String(type)} is not valid for this interaction.`,
          },
        ],
      },
    });
    let message: Json | undefined;
    if (type === 4 || type === 5) {
      if (autocomplete) return refuse(invalidType, `callback type ${type} to an autocomplete interaction`);
      if (type === 4) {
        const problem = checkResponseFiles(interaction, body.files) ?? checkMessageBody(data, body.files, true);
        if (problem) return refuse(problem, 'callback type 4 with an invalid message');
      }
      message = this.messages.create(
        {
          channelId: interaction.channelId,
          guild: interaction.guild,
          author: interaction.application.user,
          applicationId: interaction.application.applicationId,
          interactionMetadata: metadataOf(interaction),
          ...this.shownAs(interaction),
        },
        // A deferral keeps only Ephemeral and IS_VOICE_MESSAGE (discord-api-docs #7158, #7386).
        type === 4
          ? data
          : { flags: (typeof data.flags === 'number' ? data.flags : 0) & (MessageFlag.Ephemeral | IS_VOICE_MESSAGE) },
        type === 4 ? body.files : [],
        type === 5 ? MessageFlag.Loading : 0,
      );
      interaction.originalMessageId = message.id as string;
    } else if (type === 8) {
      if (!autocomplete) return refuse(invalidType, 'callback type 8 to a command interaction');
      const choices = Array.isArray(data.choices) ? data.choices : undefined;
      if (!choices || choices.length > 25) {
        return refuse(
          apiError(400, 50035, 'Invalid Form Body', {
            data: {
              choices: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] },
            },
          }),
          'autocomplete without choices or with more than 25',
        );
      }
    } else if (type === 6 || type === 7) {
      // Deferred update / update of the message the button is on: only for a component interaction.
      if (interaction.type !== InteractionType.MessageComponent)
        return refuse(invalidType, `callback type ${type} to a command interaction`);
      // The message the component is on is the response from now on (@original): type 7 edits it at once.
      const id = interaction.componentMessageId;
      const current = id === undefined ? undefined : this.messages.get(id);
      if (id !== undefined && current) {
        if (type === 7) {
          const problem =
            checkResponseFiles(interaction, body.files) ?? checkMessageBody(data, body.files, false, current);
          if (problem) return refuse(problem, 'callback type 7 with an invalid message');
          message = this.messages.edit(id, data, body.files);
        }
        interaction.originalMessageId = id;
      }
    } else if (type === 9) {
      // "Not available for MODAL_SUBMIT and PING interactions."
      if (autocomplete || interaction.type === InteractionType.ModalSubmit)
        return refuse(invalidType, 'modal in answer to autocomplete or to a modal submit');
      const problem = checkModal(data);
      if (problem) return refuse(problem, 'modal that Discord refuses');
      interaction.modal = data;
    } else {
      return refuse(invalidType, `callback type ${String(type)}`);
    }
    interaction.acknowledged = true;
    interaction.record(this.response('callback', json, data, body, message, type));
    if (!withResponse) return { status: 204 };
    const flags = typeof message?.flags === 'number' ? message.flags : 0;
    return {
      status: 200,
      json: {
        interaction: {
          id: interaction.id,
          type: interaction.type,
          activity_instance_id: null,
          response_message_id: message?.id ?? null,
          response_message_loading: (flags & MessageFlag.Loading) !== 0,
          response_message_ephemeral: (flags & MessageFlag.Ephemeral) !== 0,
        },
        resource: { type, ...(message ? { message } : {}) },
      },
    };
  }

  /**
   * The type of the message a response makes, as Discord has it: a command's (or a form a command opened) is an
   * APPLICATION_COMMAND (20, "alice used /scene save" above it in the client); a message context menu's a
   * CONTEXT_MENU_COMMAND (23) referring to the message it was used on; a component's (or a form a button opened) a
   * REPLY (19) to the message whose component was used, which its member's client shows above it. The reference is
   * left out when the local Discord does not hold that message (a member's chat).
   */
  private shownAs(interaction: Interaction): { type: number; replyTo?: Json } {
    const origin = interaction.openedBy ?? interaction;
    const [type, referenceId] =
      origin.type === InteractionType.MessageComponent
        ? [19, origin.componentMessageId]
        : origin.targetMessageId !== undefined
          ? [23, origin.targetMessageId]
          : [20, undefined];
    const replyTo = referenceId === undefined ? undefined : this.messages.get(referenceId);
    return { type, ...(replyTo === undefined ? {} : { replyTo }) };
  }

  // ---- REST: /webhooks/{app}/{token}[/messages/{id}] ----

  webhook(
    method: string,
    applicationId: string,
    token: string,
    messageId: string | undefined,
    wait: boolean,
    body: ParsedBody,
  ): Answer {
    const interaction = this.byToken.get(token);
    if (!interaction || applicationId !== interaction.application.applicationId) {
      this.deps.report(`${method} on an unknown webhook (application ${applicationId}) -> 404 10015`);
      return answer(apiError(404, 10015, 'Unknown Webhook'));
    }
    const refuse = (error: ApiError, why: string): Answer => {
      interaction.problem(`${why} -> ${error.status} ${error.body.code} ${error.body.message}`);
      return answer(error);
    };
    const age = this.deps.clock.now() - interaction.createdAt;
    if (this.deps.tokenLifetimeMs > 0 && age > this.deps.tokenLifetimeMs) {
      interaction.tokenExpired = true;
      return refuse(
        apiError(401, 50027, 'Invalid Webhook Token'),
        `${method} with a token ${Math.round(age)} ms old (lifetime ${this.deps.tokenLifetimeMs} ms)`,
      );
    }
    const json = asObject(body.json);
    if (messageId === undefined) {
      if (method !== 'POST') return answer(apiError(405, 0, '405: Method Not Allowed'));
      if (!interaction.acknowledged)
        return refuse(apiError(404, 10015, 'Unknown Webhook'), 'follow-up before the interaction was acknowledged');
      const problem = checkResponseFiles(interaction, body.files) ?? checkMessageBody(json, body.files, true);
      if (problem) return refuse(problem, 'follow-up with an invalid message');
      const message = this.messages.create(
        {
          channelId: interaction.channelId,
          guild: interaction.guild,
          author: interaction.application.user,
          type: 0,
          applicationId: interaction.application.applicationId,
          interactionMetadata: {
            ...metadataOf(interaction),
            ...(interaction.originalMessageId === undefined
              ? {}
              : { original_response_message_id: interaction.originalMessageId }),
          },
        },
        json,
        body.files,
      );
      interaction.followUpIds.add(message.id as string);
      interaction.record(this.response('follow-up', json, json, body, message));
      return wait ? { status: 200, json: message } : { status: 204 };
    }
    const original = messageId === '@original';
    const id = original
      ? interaction.originalMessageId
      : interaction.followUpIds.has(messageId)
        ? messageId
        : undefined;
    const current = id === undefined ? undefined : this.messages.get(id);
    if (id === undefined || !current)
      return refuse(
        apiError(404, 10008, 'Unknown Message'),
        `${method} ${original ? '@original' : messageId} that does not exist`,
      );
    if (method === 'GET') return { status: 200, json: current };
    if (method === 'DELETE') {
      this.messages.delete(id);
      if (original) interaction.originalMessageId = undefined;
      else interaction.followUpIds.delete(id);
      interaction.record(this.response('delete', {}, {}, body, current));
      return { status: 204 };
    }
    if (method !== 'PATCH') return answer(apiError(405, 0, '405: Method Not Allowed'));
    // A response deferred as a voice message becomes one with its first edit: checked as a new voice message.
    const flags = typeof current.flags === 'number' ? current.flags : 0;
    const voiceDeferred = original && (flags & IS_VOICE_MESSAGE) !== 0 && (flags & MessageFlag.Loading) !== 0;
    const edit = voiceDeferred
      ? { ...json, flags: (typeof json.flags === 'number' ? json.flags : 0) | IS_VOICE_MESSAGE }
      : json;
    const problem =
      checkResponseFiles(interaction, body.files) ?? checkMessageBody(edit, body.files, voiceDeferred, current);
    if (problem) return refuse(problem, 'edit with an invalid message');
    const message = this.messages.edit(id, edit, body.files);
    interaction.record(this.response(original ? 'edit-original' : 'edit-follow-up', json, edit, body, message));
    return { status: 200, json: message };
  }

  private response(
    kind: InteractionResponse['kind'],
    raw: Json,
    data: Json,
    body: ParsedBody,
    message: Json | undefined,
    type?: number,
  ): InteractionResponse {
    return {
      kind,
      ...(type !== undefined ? { type } : {}),
      ...(typeof data.content === 'string' ? { content: data.content } : {}),
      // An edit's flags are the message's as it now stands: an edited private reply is still private.
      ...(kind.startsWith('edit') && typeof message?.flags === 'number'
        ? { flags: message.flags }
        : typeof data.flags === 'number'
          ? { flags: data.flags }
          : {}),
      ...(Array.isArray(data.embeds) ? { embeds: data.embeds as unknown[] } : {}),
      ...(data.allowed_mentions !== undefined ? { allowedMentions: data.allowed_mentions } : {}),
      files: body.files.map(({ index: _index, ...file }) => file),
      raw,
      ...(message ? { message } : {}),
      mentioned: mentionedBy(data.content, data.allowed_mentions),
    };
  }
}

/** A file in a response where the app is no member and its app_permissions lack Attach Files: Missing Permissions. */
function checkResponseFiles(interaction: Interaction, files: ParsedBody['files']): ApiError | undefined {
  const allowed = interaction.responsePermissions;
  if (allowed === undefined || files.length === 0 || (allowed & PermissionFlagsBits.AttachFiles) !== 0n)
    return undefined;
  return apiError(403, 50013, 'Missing Permissions');
}

/** An attachment of a type the command's option does not accept (file_types): Discord's client never sends it. */
/** A registered command's (or sub-command's) options. */
function optionsOf(command: Json | undefined): Json[] {
  return (Array.isArray(command?.options) ? command.options : []).map(asObject);
}

function checkAttachmentType(command: Json | undefined, input: FakeAttachmentInput): void {
  const option = optionsOf(command).find((o) => o.name === input.option);
  const filename = 'attachment' in input ? input.attachment.filename : input.filename;
  if (option && !acceptsFile(option.file_types, filename)) {
    throw new FormRefusal(
      input.option,
      `${filename} is not one of the accepted file types (${JSON.stringify(option.file_types)})`,
    );
  }
}
