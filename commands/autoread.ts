import { ChannelType, type ChatInputCommandInteraction } from 'discord.js';
import {
  type AutoreadWiring,
  describeSettings,
  settingChangesOf,
  settingsChanged,
  withSettingOptions,
  MESSAGE_CONTENT_WHERE,
  IGNORED_MAX,
  AUTO_READ_BINDINGS_MAX,
  type AutoReadState,
} from '../src/features/autoread/index.ts';
import { describeMembers, describePool, voiceLabel, VOICE_POOL_MAX } from '../src/features/autoread/index-voices.ts';
import type { CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import { answerSpeechAutocomplete, mayNotReadAloud } from '../src/features/speaking/index.ts';
import { memberVoiceChannel } from '../src/features/speaking/index-targets.ts';
import { channelOption, slashCommand, subcommand, userOption } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { t, type MessageKey } from '../src/core/i18n/catalogue.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { readText, voiceOption } from '../src/core/interactions/options.ts';
import { usableVoice } from '../src/core/sourcing/voice-choice.ts';
import { showContent, showResult } from '../src/core/interactions/replies.ts';
import { SpeechInputError } from '../src/core/order-errors.ts';

export const uses = [
  'autoread',
  'config',
  'engines',
  'logger',
  'seats',
  'reading',
  'speech',
  'store',
  'voices',
] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** Every subcommand changes (or shows) what the whole voice channel hears: Manage Server, checked on every use. */
export const requires: Requirements = { manageGuild: { refusal: 'autoread.permission' } };

/** The channels whose chat can be read: a text channel, or a voice channel's own chat. */
const READABLE = [ChannelType.GuildText, ChannelType.GuildVoice] as const;

export const data = slashCommand('autoread', requires)
  .addSubcommand(subcommand('autoread.start').addChannelOption(channelOption('channel', { types: READABLE })))
  .addSubcommand(subcommand('autoread.stop'))
  .addSubcommand(withSettingOptions(subcommand('autoread.settings')))
  .addSubcommand(subcommand('autoread.show'))
  .addSubcommand(subcommand('autoread.ignore').addUserOption(userOption('member', { required: true })))
  .addSubcommand(subcommand('autoread.unignore').addUserOption(userOption('member', { required: true })))
  .addSubcommand(subcommand('autoread.voice_add').addStringOption(voiceOption({ required: true })))
  .addSubcommand(subcommand('autoread.voice_remove').addStringOption(voiceOption({ required: true })));

type Handler = (
  interaction: ChatInputCommandInteraction<'cached'>,
  context: Services<Uses>,
  autoread: AutoreadWiring,
) => Promise<void>;

const mention = (id: string) => `<#${id}>`;

/** A pool voice is saved, and picked, as /myvoice saves one: by usableVoice's one rule. */
const savingOf = ({ engines, config, voices }: Services<Uses>) => ({
  engines,
  freeVoice: config.freeVoice,
  listed: voices,
});

const start: Handler = async (interaction, { seats, speech, store }, autoread) => {
  // Free checks first, the join (seconds) last.
  if (!autoread.available) throw new UserError('autoread.unavailable', { where: MESSAGE_CONTENT_WHERE });
  const voice = memberVoiceChannel(interaction, { seats, speech }, undefined, { joinOnly: true });
  const chosenId = interaction.options.getChannel('channel')?.id ?? interaction.channelId;
  const channel = interaction.guild.channels.cache.get(chosenId);
  if (!channel || !(READABLE as readonly ChannelType[]).includes(channel.type))
    throw new UserError('autoread.notTextChannel', { channel: mention(chosenId) });
  // The gate's reading rights: the member's own to read the channel, and SayBot's to see it and post its notice.
  const mayNot = mayNotReadAloud(channel, interaction.member);
  if (mayNot !== undefined)
    throw new UserError(mayNot === 'member' ? 'autoread.memberCannotSee' : 'autoread.cannotSee', {
      channel: mention(chosenId),
    });
  const refused = await autoread.start(interaction.guild, {
    textChannelId: chosenId,
    voiceChannelId: voice.channelId,
    startedBy: interaction.user.id,
  });
  if (refused?.kind === 'full') throw new UserError('autoread.full', { max: AUTO_READ_BINDINGS_MAX });
  if (refused?.kind === 'text-taken')
    throw new UserError('autoread.textTaken', { channel: mention(chosenId), voice: mention(refused.voiceChannelId) });
  const state = await store.autoRead.get(interaction.guildId);
  await showResult(interaction, 'autoread.started', {
    channel: mention(chosenId),
    voice: mention(voice.channelId),
    settings: describeSettings(interaction.locale, state.settings),
  });
};

/**
 * Stops the binding of the member's voice channel; elsewhere, the server's one binding reading (none reading: every
 * one kept, so none comes back by itself); with several reading, says which there are.
 */
const stop: Handler = async (interaction, { store }, autoread) => {
  const inVoice = interaction.member.voice.channelId;
  const { bindings } = await store.autoRead.get(interaction.guildId);
  const readings = [...(autoread.channels.get(interaction.guildId)?.values() ?? [])];
  const own = bindings.find((binding) => binding.voiceChannelId === inVoice);
  if (own === undefined && readings.length > 1)
    throw new UserError('autoread.stop.which', {
      bindings: readings.map((read) => readingWords(interaction.locale, read)).join(' '),
    });
  const stopped = await autoread.stop(interaction.guildId, own?.voiceChannelId ?? readings[0]?.voiceChannelId);
  await showResult(interaction, stopped ? 'autoread.stopped' : 'autoread.notReading');
};

const readingWords = (locale: string, read: { textChannelId: string; voiceChannelId: string }) =>
  t(locale, 'autoread.status.reading', { channel: mention(read.textChannelId), voice: mention(read.voiceChannelId) });

/** Each binding reading now, one sentence each, or that none is. */
function status(locale: string, state: AutoReadState, autoread: AutoreadWiring): string {
  const reading = state.bindings.filter((binding) => autoread.isReading(state.guildId, binding.voiceChannelId));
  return reading.length === 0
    ? t(locale, 'autoread.status.off')
    : reading.map((binding) => readingWords(locale, binding)).join(' ');
}

const settings: Handler = async (interaction, { config, store }, autoread) => {
  const locale = interaction.locale;
  const changes = settingChangesOf(interaction);
  if (Object.keys(changes).length === 0) {
    const state = await store.autoRead.get(interaction.guildId);
    await showContent(
      interaction,
      t(locale, 'autoread.settings.current', {
        status: status(locale, state, autoread),
        settings: describeSettings(locale, state.settings),
      }),
    );
    return;
  }
  const updated = await store.autoRead.setSettings(interaction.guildId, changes, interaction.user.id);
  autoread.configure(interaction.guildId, updated);
  await showContent(interaction, settingsChanged(locale, updated, config.freeVoice.chosen));
};

/** Everything at once: status, settings, the voice pool and who has which voice, the members not read. */
const show: Handler = async (interaction, context, autoread) => {
  const { store } = context;
  const locale = interaction.locale;
  const state = await store.autoRead.get(interaction.guildId);
  const guild = { id: interaction.guildId, preferredLocale: interaction.guild.preferredLocale };
  const members = await describeMembers(store, guild, savingOf(context), locale, state.settings.voices === 'distinct');
  await showContent(
    interaction,
    [
      t(locale, 'autoread.settings.current', {
        status: status(locale, state, autoread),
        settings: describeSettings(locale, state.settings),
      }),
      ...members,
    ].join('\n'),
  );
};

/** The ignore list changed in the store: the reader follows it from the next message on. */
async function ignoredChanged(
  interaction: ChatInputCommandInteraction<'cached'>,
  { store }: Services<Uses>,
  autoread: AutoreadWiring,
): Promise<void> {
  autoread.setIgnored(interaction.guildId, await store.autoReadMembers.ignored(interaction.guildId));
}

const ignore: Handler = async (interaction, context, autoread) => {
  const userId = interaction.options.getUser('member', true).id;
  const result = await context.store.autoReadMembers.ignore(
    interaction.guildId,
    userId,
    interaction.user.id,
    IGNORED_MAX,
  );
  if (result === 'full') throw new UserError('autoread.ignore.full', { max: IGNORED_MAX });
  await ignoredChanged(interaction, context, autoread);
  await showResult(interaction, result === 'added' ? 'autoread.ignore.added' : 'autoread.ignore.already', {
    member: `<@${userId}>`,
  });
};

const unignore: Handler = async (interaction, context, autoread) => {
  const userId = interaction.options.getUser('member', true).id;
  const removed = await context.store.autoReadMembers.unignore(interaction.guildId, userId);
  await ignoredChanged(interaction, context, autoread);
  await showResult(interaction, removed ? 'autoread.unignore.done' : 'autoread.unignore.none', {
    member: `<@${userId}>`,
  });
};

const voiceAdd: Handler = async (interaction, context) => {
  const { store } = context;
  // A voice as /myvoice saves one (refused otherwise, nothing stored).
  const typed = readText(interaction.options, 'voice') ?? '';
  const { voiceId } = await usableVoice(store, interaction.guildId, typed, savingOf(context));
  const result = await store.autoReadMembers.addToPool(
    interaction.guildId,
    voiceId,
    interaction.user.id,
    VOICE_POOL_MAX,
  );
  // Deleted since it was looked up: refused as the lookup would refuse it now.
  if (result === 'unknown-voice') throw new SpeechInputError({ code: 'unknown-voice', voice: voiceId });
  if (result === 'full') throw new UserError('autoread.pool.full', { max: VOICE_POOL_MAX });
  await poolReply(interaction, context, result === 'added' ? 'autoread.pool.added' : 'autoread.pool.already', voiceId);
};

const voiceRemove: Handler = async (interaction, context) => {
  const { store } = context;
  const typed = readText(interaction.options, 'voice') ?? '';
  // A cloned voice by its name while it exists; else the ID as typed (a voice no longer usable still leaves).
  const voiceId = await usableVoice(store, interaction.guildId, typed).then(
    (usable) => usable.voiceId,
    () => typed,
  );
  const removed = await store.autoReadMembers.removeFromPool(interaction.guildId, voiceId);
  await poolReply(interaction, context, removed ? 'autoread.pool.removed' : 'autoread.pool.notIn', voiceId);
};

async function poolReply(
  interaction: ChatInputCommandInteraction<'cached'>,
  context: Services<Uses>,
  key: MessageKey,
  voiceId: string,
): Promise<void> {
  const { store } = context;
  const guild = { id: interaction.guildId, preferredLocale: interaction.guild.preferredLocale };
  const [voice, pool] = await Promise.all([
    voiceLabel(store, interaction.guildId, voiceId),
    describePool(store, guild, savingOf(context), interaction.locale),
  ]);
  await showResult(interaction, key, { voice, pool });
}

const HANDLERS: Record<string, Handler> = {
  start,
  stop,
  settings,
  show,
  ignore,
  unignore,
  voice_add: voiceAdd,
  voice_remove: voiceRemove,
};

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const handler = HANDLERS[sub];
  if (!handler) throw new Error(`no handler for /autoread ${sub}`);
  if (!context.autoread) throw new Error('auto-read is not wired into this bot');
  await handler(interaction, context, context.autoread);
};

export const autocomplete: CommandModule<Uses>['autocomplete'] = answerSpeechAutocomplete;
