import type { ChatInputCommandInteraction } from 'discord.js';
import { soundRemover, USER_INSTALL_GUILD } from '../src/features/speaking/index.ts';
import type { CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import { slashCommand, stringOption, subcommand } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { formatNumber, t, type MessageKey } from '../src/core/i18n/catalogue.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { echo, showContent, showResult } from '../src/core/interactions/replies.ts';
import {
  CONFIRMATION_TTL_MS,
  ServerDeletionConfirmations,
  forgetGuild,
  forgetMember,
  traceLines,
  type Forgetting,
} from '../src/features/privacy/index.ts';

export const uses = [
  'accounting',
  'autoread',
  'config',
  'logger',
  'speech',
  'store',
] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** Deleting the whole server's data is a manager's: checked on every use, whoever may see the command. */
export const requires: Requirements = { subcommands: { server: { manageGuild: true } } };

export const data = slashCommand('privacy')
  .addSubcommand(subcommand('privacy.show'))
  .addSubcommand(subcommand('privacy.delete'))
  .addSubcommand(subcommand('privacy.server').addStringOption(stringOption('confirm', { maxLength: 16 })));

/** Per process: a code is confirmed by the process that gave it (a guild's interactions reach one shard). */
const confirmations = new ServerDeletionConfirmations();

const forgetting = (
  interaction: ChatInputCommandInteraction,
  { store, speech, logger, accounting }: Services<Uses>,
): Forgetting => ({
  store,
  purgeVoice: (id) => speech.purgeVoice(id),
  removeSounds: soundRemover(interaction.client, logger),
  anonymiseRequests: (guildId, userId) => accounting.anonymiseRequests(guildId, userId),
});

/** Where the caller's rows are: this server, or outside servers the user-install pseudo-guild. */
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

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const scope: Scope = { guildId: interaction.guildId, keys: IN_SERVER };
  if (sub === 'show') await show(interaction, context, scope);
  else if (sub === 'delete') await deleteMine(interaction, context, scope);
  else await deleteServer(interaction, context);
};

/**
 * Outside servers: the user's own rows. Not held to USER_INSTALL's allow-list: one left out since may still see and
 * delete their data. There is no server here to delete.
 */
export const executeOutsideServer: CommandModule<Uses>['executeOutsideServer'] = async (interaction, context) => {
  const sub = interaction.options.getSubcommand(true);
  const scope: Scope = { guildId: USER_INSTALL_GUILD, keys: OUTSIDE };
  if (sub === 'show') await show(interaction, context, scope);
  else if (sub === 'delete') await deleteMine(interaction, context, scope);
  else throw new UserError('privacy.server.outside');
};

async function show(interaction: ChatInputCommandInteraction, { store }: Services<Uses>, scope: Scope): Promise<void> {
  const locale = interaction.locale;
  const traces = traceLines(locale, await store.privacy.describeMember(scope.guildId, interaction.user.id));
  if (traces.own.length === 0 && traces.kept.length === 0) {
    await showResult(interaction, scope.keys.none);
    return;
  }
  const kept = traces.kept.length === 0 ? [] : [t(locale, 'privacy.kept.header'), ...traces.kept];
  const own = traces.own.length === 0 ? [] : [t(locale, scope.keys.header), ...traces.own];
  await showContent(interaction, [...own, ...kept, t(locale, 'privacy.show.footer')].join('\n'));
}

async function deleteMine(
  interaction: ChatInputCommandInteraction,
  context: Services<Uses>,
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
  context: Services<Uses>,
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
