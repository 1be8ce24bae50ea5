import { languageName } from '../src/core/voice-catalogue/voices.ts';
import { asWritten, namedVoice } from '../src/core/interactions/safe-text.ts';
import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import { answerSpeechAutocomplete, soundRemover } from '../src/features/speaking/index.ts';
import { fitLines, presetLine } from '../src/features/speaking/index-words.ts';
import { openFormRow, wentWithIt } from '../src/features/voices/index.ts';
import { MAX_CHOICES } from '../src/core/interactions/choices.ts';
import type { CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import { slashCommand, subcommand } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { t, type MessageKey } from '../src/core/i18n/catalogue.ts';
import { languageOption, readVoiceSettings, voiceOption } from '../src/core/interactions/options.ts';
import { requireOwnerOrManager } from '../src/core/interactions/preconditions.ts';
import { echo, showContent } from '../src/core/interactions/replies.ts';
import { deleteClonedVoice } from '../src/features/privacy/index.ts';
import type { OfferedVoice } from '../src/core/sourcing/engine-port.ts';

export const uses = [
  'config',
  'engines',
  'logger',
  'speech',
  'store',
  'voices',
] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('voices')
  .addSubcommand(subcommand('voices.list').addStringOption(languageOption()))
  .addSubcommand(subcommand('voices.delete').addStringOption(voiceOption({ description: 'voices', required: true })));

/** Each of the three sections gets its share of Discord's 2000 characters, so a long one cannot hide the others. */
const SECTION_BUDGET = 600;

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  if (interaction.options.getSubcommand() === 'delete') await deleteVoice(interaction, context);
  else await listVoices(interaction, context);
};

/** Its creator may delete a cloned voice; so may anyone who manages the server. */
async function deleteVoice(
  interaction: ChatInputCommandInteraction<'cached'>,
  { store, speech, logger }: Services<Uses>,
): Promise<void> {
  const wanted = interaction.options.getString('voice', true).trim();
  const voice =
    (await store.voiceLibrary.get(interaction.guildId, wanted)) ??
    (await store.voiceLibrary.findByName(interaction.guildId, wanted));
  if (!voice) throw new UserError('voices.notFound', { name: echo(wanted, 40) });
  requireOwnerOrManager(interaction, voice.createdBy, 'error.permission.deleteVoice');
  // Its audio goes too: nothing of a deleted voice stays on disk, no one hears it again, and its saved sounds leave the
  // soundboard.
  const removeSounds = soundRemover(interaction.client, logger);
  const deleted = await deleteClonedVoice(
    { store, purgeVoice: (id) => speech.purgeVoice(id), removeSounds },
    interaction.guildId,
    voice.voiceId,
  );
  const done = t(interaction.locale, 'voices.deleted', { name: voice.name, id: namedVoice(voice.voiceId) });
  await showContent(interaction, wentWithIt(interaction.locale, deleted, done));
}

async function listVoices(
  interaction: ChatInputCommandInteraction<'cached'>,
  { store, voices, engines }: Services<Uses>,
): Promise<void> {
  const { language } = readVoiceSettings(interaction.options);
  const locale = interaction.locale;
  const [cloned, presets, current] = await Promise.all([
    store.voiceLibrary.list(interaction.guildId),
    store.presets.list(interaction.guildId, { language }),
    store.presets.getDefault(interaction.guildId),
  ]);
  const section = (title: MessageKey, lines: string[]) => [
    `**${t(locale, title)}**`,
    ...(lines.length === 0 ? [t(locale, 'voices.none')] : fitLines(lines, locale, SECTION_BUDGET)),
  ];
  const content = [
    ...section(
      'voices.presetVoices',
      voices
        .filter((v) => language === undefined || v.language === language)
        .map((v) => `\`${v.id}\` ${languageName(v.language, locale)} · ${v.character}`),
    ),
    // Only where the owner runs an engine: a section that is always empty would say nothing.
    ...(engines === undefined
      ? []
      : section(
          'voices.engineVoices',
          engines
            .voices()
            .filter((v) => language === undefined || v.language === undefined || v.language === language)
            .map((v) => engineVoiceLine(locale, v)),
        )),
    ...section(
      'voices.cloned',
      cloned.map((v) => `${namedVoice(v.voiceId)} **${v.name}** · ${v.clipSeconds.toFixed(1)} s`),
    ),
    ...section(
      'voices.presets',
      presets.map((p) => presetLine(locale, p, current?.name)),
    ),
  ].join('\n');
  // The form of /clone, one press away for those it is meant for by default (Manage Server); the list is private.
  const canClone = interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild);
  await showContent(interaction, content, [], canClone ? [openFormRow(locale)] : undefined);
}

/** `voicevox:3` Name · 日本語 · VOICEVOX:Speaker: an engine's voice, its language where known, its credit where asked. */
function engineVoiceLine(locale: string, voice: OfferedVoice): string {
  const parts = [
    // An engine's names are its own words: shown as written, never as Discord markdown or a link.
    `\`${voice.id}\` ${asWritten(voice.name)}`,
    ...(voice.language === undefined ? [] : [languageName(voice.language, locale)]),
    ...(voice.credit === undefined ? [] : [asWritten(voice.credit)]),
  ];
  return parts.join(' · ');
}

export const autocomplete: CommandModule<Uses>['autocomplete'] = async (interaction, context) => {
  if (interaction.options.getSubcommand() !== 'delete') return answerSpeechAutocomplete(interaction, context);
  const typed = interaction.options.getFocused();
  const cloned = await context.store.voiceLibrary.list(interaction.guildId, { contains: typed, limit: MAX_CHOICES });
  await interaction.respond(cloned.map((v) => ({ name: `${v.name} (${v.voiceId})`.slice(0, 100), value: v.voiceId })));
};
