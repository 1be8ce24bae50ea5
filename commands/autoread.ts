import { ChannelType, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { AutoreadControl } from '../src/bot/frontend/autoread-control.ts';
import type { CommandContext, CommandModule } from '../src/bot/interactions/command.ts';
import { answerSpeechAutocomplete } from '../src/bot/frontend/autocomplete.ts';
import { describeMembers, describePool, voiceLabel } from '../src/bot/frontend/autoread-members.ts';
import {
  booleanOption, channelOption, integerOption, numberOption, roleOption, slashCommand, stringOption, subcommand, userOption,
} from '../src/bot/interactions/command-builder.ts';
import { UserError } from '../src/bot/interactions/failures.ts';
import { t, type MessageKey } from '../src/bot/i18n.ts';
import { MESSAGE_CONTENT_WHERE } from '../src/bot/intents.ts';
import type { Requirements } from '../src/bot/interactions/preconditions.ts';
import { readText, voiceOption } from '../src/bot/interactions/options.ts';
import { showContent, showResult } from '../src/bot/interactions/replies.ts';
import { memberVoiceChannel } from '../src/bot/frontend/speak.ts';
import { BACKLOG_RANGE, IGNORED_MAX, MAX_LENGTH_RANGE, SKIP_PREFIX_MAX } from '../src/autoread/settings.ts';
import { VOICE_POOL_MAX } from '../src/autoread/voice-pool.ts';
import { usableVoice } from '../src/speech/voice-access.ts';
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
      .addIntegerOption(integerOption('skip_after', BACKLOG_RANGE.messages))
      .addStringOption(stringOption('voices', { choices: ['one', 'distinct'] })),
  )
  .addSubcommand(subcommand('autoread.show'))
  .addSubcommand(subcommand('autoread.ignore').addUserOption(userOption('member', { required: true })))
  .addSubcommand(subcommand('autoread.unignore').addUserOption(userOption('member', { required: true })))
  .addSubcommand(subcommand('autoread.voice_add').addStringOption(voiceOption({ required: true })))
  .addSubcommand(subcommand('autoread.voice_remove').addStringOption(voiceOption({ required: true })));

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
    t(locale, 'autoread.setting.voices', { value: t(locale, settings.voices === 'distinct' ? 'autoread.value.voicesDistinct' : 'autoread.value.voicesOne') }),
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
  const voices = options.getString('voices');
  if (voices !== null) {
    // Discord offers only the choices; a crafted value is refused all the same.
    if (voices !== 'one' && voices !== 'distinct') throw new UserError('autoread.voicesBad');
    changes.voices = voices;
  }
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

/** Everything at once: status, settings, the voice pool and who has which voice, the members not read. */
const show: Handler = async (interaction, { store }, autoread) => {
  const locale = interaction.locale;
  const state = await store.autoRead.get(interaction.guildId);
  const guild = { id: interaction.guildId, preferredLocale: interaction.guild.preferredLocale };
  const members = await describeMembers(store, guild, locale, state.settings.voices === 'distinct');
  await showContent(interaction, [
    t(locale, 'autoread.settings.current', { status: status(locale, state, autoread.isReading(interaction.guildId)), settings: describe(locale, state.settings) }),
    ...members,
  ].join('\n'));
};

/** The ignore list changed in the store: the reader follows it from the next message on. */
async function ignoredChanged(interaction: ChatInputCommandInteraction<'cached'>, { store }: CommandContext, autoread: AutoreadControl): Promise<void> {
  autoread.setIgnored(interaction.guildId, await store.autoReadMembers.ignored(interaction.guildId));
}

const ignore: Handler = async (interaction, context, autoread) => {
  const userId = interaction.options.getUser('member', true).id;
  const result = await context.store.autoReadMembers.ignore(interaction.guildId, userId, interaction.user.id, IGNORED_MAX);
  if (result === 'full') throw new UserError('autoread.ignore.full', { max: IGNORED_MAX });
  await ignoredChanged(interaction, context, autoread);
  await showResult(interaction, result === 'added' ? 'autoread.ignore.added' : 'autoread.ignore.already', { member: `<@${userId}>` });
};

const unignore: Handler = async (interaction, context, autoread) => {
  const userId = interaction.options.getUser('member', true).id;
  const removed = await context.store.autoReadMembers.unignore(interaction.guildId, userId);
  await ignoredChanged(interaction, context, autoread);
  await showResult(interaction, removed ? 'autoread.unignore.done' : 'autoread.unignore.none', { member: `<@${userId}>` });
};

const voiceAdd: Handler = async (interaction, { store }) => {
  // A preset ID, or a cloned voice of this server by name or ID (refused otherwise, nothing stored).
  const { voiceId } = await usableVoice(store, interaction.guildId, readText(interaction.options, 'voice') ?? '');
  const result = await store.autoReadMembers.addToPool(interaction.guildId, voiceId, interaction.user.id, VOICE_POOL_MAX);
  if (result === 'full') throw new UserError('autoread.pool.full', { max: VOICE_POOL_MAX });
  await poolReply(interaction, store, result === 'added' ? 'autoread.pool.added' : 'autoread.pool.already', voiceId);
};

const voiceRemove: Handler = async (interaction, { store }) => {
  const typed = readText(interaction.options, 'voice') ?? '';
  // A cloned voice by its name while it exists; else the ID as typed (a voice no longer usable still leaves).
  const voiceId = await usableVoice(store, interaction.guildId, typed).then((usable) => usable.voiceId, () => typed);
  const removed = await store.autoReadMembers.removeFromPool(interaction.guildId, voiceId);
  await poolReply(interaction, store, removed ? 'autoread.pool.removed' : 'autoread.pool.notIn', voiceId);
};

async function poolReply(interaction: ChatInputCommandInteraction<'cached'>, store: CommandContext['store'], key: MessageKey, voiceId: string): Promise<void> {
  const guild = { id: interaction.guildId, preferredLocale: interaction.guild.preferredLocale };
  const [voice, pool] = await Promise.all([voiceLabel(store, interaction.guildId, voiceId), describePool(store, guild, interaction.locale)]);
  await showResult(interaction, key, { voice, pool });
}

const HANDLERS: Record<string, Handler> = {
  start, stop, settings, show, ignore, unignore, voice_add: voiceAdd, voice_remove: voiceRemove,
};

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const handler = HANDLERS[sub];
  if (!handler) throw new Error(`no handler for /autoread ${sub}`);
  if (!context.autoread) throw new Error('auto-read is not wired into this bot');
  await handler(interaction, context, context.autoread);
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
