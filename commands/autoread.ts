import { ChannelType, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { AutoreadControl } from '../src/bot/frontend/autoread-control.ts';
import type { CommandContext, CommandModule } from '../src/bot/interactions/command.ts';
import { booleanOption, channelOption, integerOption, numberOption, roleOption, slashCommand, stringOption, subcommand } from '../src/bot/interactions/command-builder.ts';
import { UserError } from '../src/bot/interactions/failures.ts';
import { t } from '../src/bot/i18n.ts';
import { MESSAGE_CONTENT_WHERE } from '../src/bot/intents.ts';
import type { Requirements } from '../src/bot/interactions/preconditions.ts';
import { showContent, showResult } from '../src/bot/interactions/replies.ts';
import { memberVoiceChannel } from '../src/bot/frontend/speak.ts';
import { BACKLOG_RANGE, MAX_LENGTH_RANGE, SKIP_PREFIX_MAX } from '../src/autoread/settings.ts';
import type { AutoReadSettingChanges, AutoReadSettings, AutoReadState } from '../src/store/auto-read-store.ts';

/** Every subcommand changes (or shows) what the whole voice channel hears: Manage Server, checked on every use. */
export const requires: Requirements = { manageGuild: { refusal: 'autoread.permission' } };

/** The channels whose chat can be read: a text channel, or a voice channel's own chat. */
const READABLE = [ChannelType.GuildText, ChannelType.GuildVoice] as const;

export const data = slashCommand('autoread', requires)
  .addSubcommand(subcommand('autoread.start').addChannelOption(channelOption('channel', { types: READABLE })))
  .addSubcommand(subcommand('autoread.stop'))
  .addSubcommand(
    subcommand('autoread.settings')
      .addBooleanOption(booleanOption('say_name', {}))
      .addIntegerOption(integerOption('max_length', MAX_LENGTH_RANGE))
      .addBooleanOption(booleanOption('read_bots', {}))
      .addRoleOption(roleOption('role', {}))
      .addBooleanOption(booleanOption('only_voice_members', {}))
      .addBooleanOption(booleanOption('announce', {}))
      .addStringOption(stringOption('skip_prefix', { maxLength: SKIP_PREFIX_MAX }))
      .addBooleanOption(booleanOption('read_silent', {}))
      .addBooleanOption(booleanOption('autojoin', {}))
      .addIntegerOption(integerOption('faster_after', BACKLOG_RANGE.messages))
      .addNumberOption(numberOption('max_speed', BACKLOG_RANGE.speed))
      .addIntegerOption(integerOption('skip_after', BACKLOG_RANGE.messages)),
  );

/** The word that removes the skip prefix (a string option cannot be given empty). */
const NO_PREFIX = 'none';
/** A prefix is a short marker: no spaces, nothing that could quote back as a mention or break a code span. */
const PREFIX_SHAPE = new RegExp(`^[^\\s<>@\`]{1,${SKIP_PREFIX_MAX}}$`, 'u');

type Handler = (interaction: ChatInputCommandInteraction<'cached'>, context: CommandContext, autoread: AutoreadControl) => Promise<void>;

const mention = (id: string) => `<#${id}>`;

/** The settings in the caller's language, one clause each. */
function describe(locale: string, settings: AutoReadSettings): string {
  const onOff = (value: boolean) => t(locale, value ? 'autoread.value.on' : 'autoread.value.off');
  return [
    t(locale, 'autoread.setting.sayName', { value: onOff(settings.sayAuthorName) }),
    t(locale, 'autoread.setting.maxLength', { value: settings.maxLength }),
    t(locale, 'autoread.setting.readBots', { value: onOff(settings.readBots) }),
    t(locale, 'autoread.setting.role', { value: settings.requiredRoleId === undefined ? t(locale, 'autoread.value.noRole') : `<@&${settings.requiredRoleId}>` }),
    t(locale, 'autoread.setting.onlyVoiceMembers', { value: onOff(settings.onlyMembersInVoice) }),
    t(locale, 'autoread.setting.announce', { value: onOff(settings.announceJoinLeave) }),
    t(locale, 'autoread.setting.skipPrefix', { value: settings.skipPrefix === undefined ? t(locale, 'autoread.value.noRole') : `\`${settings.skipPrefix}\`` }),
    t(locale, 'autoread.setting.readSilent', { value: onOff(settings.readSilent) }),
    t(locale, 'autoread.setting.autojoin', { value: onOff(settings.autojoin) }),
    t(locale, 'autoread.setting.backlog', {
      faster: settings.fasterAfter === 0 ? t(locale, 'autoread.value.off') : settings.fasterAfter,
      speed: settings.maxSpeed,
      skip: settings.skipAfter === 0 ? t(locale, 'autoread.value.off') : settings.skipAfter,
    }),
  ].join('; ');
}

const start: Handler = async (interaction, { players, store }, autoread) => {
  // Free checks first, the join (seconds) last.
  if (!autoread.available) throw new UserError('autoread.unavailable', { where: MESSAGE_CONTENT_WHERE });
  const voice = memberVoiceChannel(interaction, players, undefined, { joinOnly: true });
  const chosenId = interaction.options.getChannel('channel')?.id ?? interaction.channelId;
  const channel = interaction.guild.channels.cache.get(chosenId);
  if (!channel || !(READABLE as readonly ChannelType[]).includes(channel.type)) throw new UserError('autoread.notTextChannel', { channel: mention(chosenId) });
  // SayBot reads aloud only what the member could read there themselves.
  if (!channel.permissionsFor(interaction.member).has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ReadMessageHistory])) {
    throw new UserError('autoread.memberCannotSee', { channel: mention(chosenId) });
  }
  const me = interaction.guild.members.me;
  // Without View Channel no message arrives; without Send Messages a refusal's one notice cannot be posted.
  if (me !== null && !channel.permissionsFor(me).has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages])) {
    throw new UserError('autoread.cannotSee', { channel: mention(chosenId) });
  }
  await autoread.start(interaction.guild, { textChannelId: chosenId, voiceChannelId: voice.channelId, startedBy: interaction.user.id });
  const state = await store.autoRead.get(interaction.guildId);
  await showResult(interaction, 'autoread.started', {
    channel: mention(chosenId), voice: mention(voice.channelId), settings: describe(interaction.locale, state.settings),
  });
};

const stop: Handler = async (interaction, _context, autoread) => {
  const stopped = await autoread.stop(interaction.guildId);
  await showResult(interaction, stopped ? 'autoread.stopped' : 'autoread.notReading');
};

/** The changes the options ask for; @everyone as the role means "no role required". */
function changesOf(interaction: ChatInputCommandInteraction<'cached'>): AutoReadSettingChanges {
  const options = interaction.options;
  const changes: AutoReadSettingChanges = {};
  const flag = (name: string) => options.getBoolean(name) ?? undefined;
  const sayAuthorName = flag('say_name');
  if (sayAuthorName !== undefined) changes.sayAuthorName = sayAuthorName;
  const maxLength = options.getInteger('max_length');
  if (maxLength !== null) {
    // Discord enforces the range for its own clients; a crafted value is refused all the same.
    if (maxLength < MAX_LENGTH_RANGE.min || maxLength > MAX_LENGTH_RANGE.max) throw new UserError('autoread.maxLengthRange', MAX_LENGTH_RANGE);
    changes.maxLength = maxLength;
  }
  const readBots = flag('read_bots');
  if (readBots !== undefined) changes.readBots = readBots;
  const role = options.getRole('role');
  if (role !== null) changes.requiredRoleId = role.id === interaction.guildId ? null : role.id;
  const onlyMembersInVoice = flag('only_voice_members');
  if (onlyMembersInVoice !== undefined) changes.onlyMembersInVoice = onlyMembersInVoice;
  const announceJoinLeave = flag('announce');
  if (announceJoinLeave !== undefined) changes.announceJoinLeave = announceJoinLeave;
  const prefix = options.getString('skip_prefix')?.trim();
  if (prefix !== undefined) {
    if (prefix.toLowerCase() === NO_PREFIX) changes.skipPrefix = null;
    else if (PREFIX_SHAPE.test(prefix)) changes.skipPrefix = prefix;
    else throw new UserError('autoread.skipPrefixBad');
  }
  const readSilent = flag('read_silent');
  if (readSilent !== undefined) changes.readSilent = readSilent;
  const autojoin = flag('autojoin');
  if (autojoin !== undefined) changes.autojoin = autojoin;
  const inRange = (value: number, range: { min: number; max: number }) => value >= range.min && value <= range.max;
  const fasterAfter = options.getInteger('faster_after');
  const maxSpeed = options.getNumber('max_speed');
  const skipAfter = options.getInteger('skip_after');
  // Discord enforces the ranges for its own clients; a crafted value is refused all the same.
  if ((fasterAfter !== null && !inRange(fasterAfter, BACKLOG_RANGE.messages)) || (skipAfter !== null && !inRange(skipAfter, BACKLOG_RANGE.messages))
    || (maxSpeed !== null && !inRange(maxSpeed, BACKLOG_RANGE.speed))) {
    throw new UserError('autoread.backlogRange', BACKLOG_RANGE.messages);
  }
  if (fasterAfter !== null) changes.fasterAfter = fasterAfter;
  if (maxSpeed !== null) changes.maxSpeed = maxSpeed;
  if (skipAfter !== null) changes.skipAfter = skipAfter;
  return changes;
}

function status(locale: string, state: AutoReadState, reading: boolean): string {
  return reading && state.binding
    ? t(locale, 'autoread.status.reading', { channel: mention(state.binding.textChannelId), voice: mention(state.binding.voiceChannelId) })
    : t(locale, 'autoread.status.off');
}

const settings: Handler = async (interaction, { store }, autoread) => {
  const locale = interaction.locale;
  const changes = changesOf(interaction);
  if (Object.keys(changes).length === 0) {
    const state = await store.autoRead.get(interaction.guildId);
    await showContent(interaction, t(locale, 'autoread.settings.current', {
      status: status(locale, state, autoread.isReading(interaction.guildId)), settings: describe(locale, state.settings),
    }));
    return;
  }
  const updated = await store.autoRead.setSettings(interaction.guildId, changes, interaction.user.id);
  autoread.configure(interaction.guildId, updated);
  await showResult(interaction, 'autoread.settings.updated', { settings: describe(locale, updated) });
};

const HANDLERS: Record<string, Handler> = { start, stop, settings };

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const handler = HANDLERS[sub];
  if (!handler) throw new Error(`no handler for /autoread ${sub}`);
  if (!context.autoread) throw new Error('auto-read is not wired into this bot');
  await handler(interaction, context, context.autoread);
};
