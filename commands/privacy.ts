import type { ChatInputCommandInteraction } from 'discord.js';
import { soundRemover } from '../src/features/speaking/index.ts';
import { USER_INSTALL_GUILD } from '../src/features/speaking/index.ts';
import type { CommandContext, CommandModule } from '../src/core/interactions/command.ts';
import { slashCommand, stringOption, subcommand } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { formatNumber, t, type MessageKey } from '../src/core/i18n/translate.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { echo, showContent, showResult } from '../src/core/interactions/replies.ts';
import {
  CONFIRMATION_TTL_MS,
  ServerDeletionConfirmations,
  forgetGuild,
  forgetMember,
  type Forgetting,
} from '../src/features/privacy/index.ts';

/** Deleting the whole server's data is a manager's: checked on every use, whoever may see the command. */
export const requires: Requirements = { subcommands: { server: { manageGuild: true } } };

export const data = slashCommand('privacy')
  .addSubcommand(subcommand('privacy.show'))
  .addSubcommand(subcommand('privacy.delete'))
  .addSubcommand(subcommand('privacy.server').addStringOption(stringOption('confirm', { maxLength: 16 })));

/** Per process: a code is confirmed by the process that gave it (a guild's interactions reach one shard). */
const confirmations = new ServerDeletionConfirmations();

const TRACE_KEYS: Readonly<Record<string, MessageKey>> = {
  member_defaults: 'privacy.trace.member_defaults',
  member_output_defaults: 'privacy.trace.member_output_defaults',
  presets: 'privacy.trace.presets',
  voice_library: 'privacy.trace.voice_library',
  clone_name_reservations: 'privacy.trace.clone_name_reservations',
  spends: 'privacy.trace.spends',
  budget_holds: 'privacy.trace.budget_holds',
  guild_budgets: 'privacy.trace.guild_budgets',
  auto_read: 'privacy.trace.auto_read',
  dictionary_entries: 'privacy.trace.dictionary_entries',
  auto_read_voice_pool: 'privacy.trace.auto_read_voice_pool',
  auto_read_member_voices: 'privacy.trace.auto_read_member_voices',
  auto_read_ignored: 'privacy.trace.auto_read_ignored',
  guild_output_defaults: 'privacy.trace.guild_output_defaults',
};

/** The managers' records about a member (kept by their deletion), per table. */
const KEPT_KEYS: Readonly<Record<string, MessageKey>> = {
  auto_read_ignored: 'privacy.kept.auto_read_ignored',
};

const forgetting = (
  interaction: ChatInputCommandInteraction,
  { store, speech, logger, accounting }: CommandContext,
): Forgetting => ({
  store,
  purgeVoice: (id) => speech.purgeVoice(id),
  removeSounds: soundRemover(interaction.client, logger),
  anonymiseRequests: (guildId, userId) => accounting.anonymiseRequests(guildId, userId),
});

/**
 * Where the caller's rows are and how the replies name it: this server, or outside servers the user-install
 * pseudo-guild (src/features/speaking/user-install.ts), where every use from DMs and servers without SayBot counts.
 */
interface Scope {
  guildId: string;
  keys: { none: MessageKey; header: MessageKey; deleted: MessageKey };
}

const IN_SERVER = { none: 'privacy.show.none', header: 'privacy.show.header', deleted: 'privacy.deleted' } as const;
const OUTSIDE = {
  none: 'privacy.outside.none',
  header: 'privacy.outside.header',
  deleted: 'privacy.outside.deleted',
} as const;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const scope: Scope = { guildId: interaction.guildId, keys: IN_SERVER };
  if (sub === 'show') await show(interaction, context, scope);
  else if (sub === 'delete') await deleteMine(interaction, context, scope);
  else await deleteServer(interaction, context);
};

/**
 * Outside servers (the user install): the user's own rows there. Not held to USER_INSTALL's allow-list: seeing and
 * deleting one's data stays possible for someone the operator has since left out (a registration made while it
 * was on still reaches SayBot). There is no server here to delete.
 */
export const executeOutsideServer: CommandModule['executeOutsideServer'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const scope: Scope = { guildId: USER_INSTALL_GUILD, keys: OUTSIDE };
  if (sub === 'show') await show(interaction, context, scope);
  else if (sub === 'delete') await deleteMine(interaction, context, scope);
  else throw new UserError('privacy.server.outside');
};

async function show(interaction: ChatInputCommandInteraction, { store }: CommandContext, scope: Scope): Promise<void> {
  const locale = interaction.locale;
  const perTable = new Map<string, number>();
  const keptPerTable = new Map<string, number>();
  for (const trace of await store.privacy.describeMember(scope.guildId, interaction.user.id)) {
    const tally = trace.kept ? keptPerTable : perTable;
    tally.set(trace.table, (tally.get(trace.table) ?? 0) + trace.rows);
  }
  if (perTable.size === 0 && keptPerTable.size === 0) {
    await showResult(interaction, scope.keys.none);
    return;
  }
  const lines = (tally: Map<string, number>, keys: Readonly<Record<string, MessageKey>>) =>
    [...tally].map(([table, rows]) => {
      const key = keys[table];
      const what = key === undefined ? t(locale, 'privacy.trace.other', { table }) : t(locale, key);
      return `- ${what}: ${formatNumber(locale, rows)}`;
    });
  const kept = keptPerTable.size === 0 ? [] : [t(locale, 'privacy.kept.header'), ...lines(keptPerTable, KEPT_KEYS)];
  const own = perTable.size === 0 ? [] : [t(locale, scope.keys.header), ...lines(perTable, TRACE_KEYS)];
  await showContent(interaction, [...own, ...kept, t(locale, 'privacy.show.footer')].join('\n'));
}

async function deleteMine(
  interaction: ChatInputCommandInteraction,
  context: CommandContext,
  scope: Scope,
): Promise<void> {
  const locale = interaction.locale;
  const report = await forgetMember(forgetting(interaction, context), interaction.user.id, scope.guildId);
  context.autoread?.forgetMember(interaction.user.id, scope.guildId);
  context.logger.info({ guild: scope.guildId, ...countsOf(report) }, 'a member deleted their data (/privacy delete)');
  const lines = [
    t(locale, scope.keys.deleted, {
      deleted: formatNumber(locale, report.deleted),
      anonymised: formatNumber(locale, report.anonymised),
    }),
  ];
  if (report.voices.length > 0)
    lines.push(t(locale, 'privacy.deleted.voices', { names: report.voices.map((v) => echo(v.name, 40)).join(', ') }));
  await showContent(interaction, lines.join('\n'));
}

async function deleteServer(
  interaction: ChatInputCommandInteraction<'cached'>,
  context: CommandContext,
): Promise<void> {
  const locale = interaction.locale;
  const code = interaction.options.getString('confirm');
  if (code === null) {
    const issued = confirmations.issue(interaction.guildId, interaction.user.id);
    await showResult(interaction, 'privacy.server.confirm', { code: issued, minutes: CONFIRMATION_TTL_MS / 60_000 });
    return;
  }
  if (!confirmations.accept(interaction.guildId, interaction.user.id, code))
    throw new UserError('error.privacy.badCode');
  const report = await forgetGuild(forgetting(interaction, context), interaction.guildId);
  context.autoread?.setIgnored(interaction.guildId, []);
  context.logger.info(
    { guild: interaction.guildId, ...countsOf(report) },
    "a manager deleted the server's data (/privacy server)",
  );
  await showResult(interaction, 'privacy.server.deleted', {
    deleted: formatNumber(locale, report.deleted),
    anonymised: formatNumber(locale, report.anonymised),
    voices: formatNumber(locale, report.voices.length),
  });
}

const countsOf = (report: { deleted: number; anonymised: number; voices: readonly unknown[] }) => ({
  deleted: report.deleted,
  anonymised: report.anonymised,
  voices: report.voices.length,
});
