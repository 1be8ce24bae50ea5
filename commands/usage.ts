import type { AttachmentPayload, ChatInputCommandInteraction } from 'discord.js';
import { USER_INSTALL_GUILD, requireUserInstall } from '../src/features/speaking/index.ts';
import { slashCommand } from '../src/core/interactions/command-builder.ts';
import type { CommandContext, CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { formatNumber, t } from '../src/core/i18n/catalogue.ts';
import { seesPlanFigures } from '../src/core/interactions/plan-figures.ts';
import { showContent } from '../src/core/interactions/replies.ts';
import type { UsageReport } from '../src/core/quota/accounting.ts';
import { dayOf } from '../src/core/calendar.ts';
import { Refusal } from '../src/core/refusal.ts';
import {
  chartWords,
  memberLines,
  monthFigures,
  monthLines,
  planLines,
  usedUpLines,
  type MonthFigures,
  usageChartSvg,
  ChartCache,
  chartKey,
  chartFontFamily,
  renderPng,
} from '../src/features/usage/index.ts';

export const uses = [
  'accounting',
  'config',
  'isOperator',
  'logger',
  'speech',
  'store',
] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('usage');

/** Private; the whole plan's figures only to a manager or the operator; members see their own and their server's. */
/** The charts drawn, one cache per bot (its pipeline), so two bots in one process never share pictures. */
const chartCaches = new WeakMap<CommandContext['speech'], ChartCache>();

export const execute: CommandModule<Uses>['execute'] = async (
  interaction,
  { accounting, store, logger, config, isOperator, speech },
) => {
  const locale = interaction.locale;
  const figures = await monthFigures({ accounting, store }, interaction.guildId, interaction.user.id);
  const { report } = figures;
  const planWide = seesPlanFigures(interaction, isOperator);
  const lines = [
    t(locale, 'usage.title', { month: report.month, reset: dayOf(report.resetAt) }),
    ...monthLines(locale, figures, planWide),
    ...queueLine(locale, config.queue),
  ];
  let cache = chartCaches.get(speech);
  if (cache === undefined) chartCaches.set(speech, (cache = new ChartCache()));
  const drawn =
    figures.breakdownFailed === undefined
      ? monthChart(interaction, figures, cache, speech)
      : Promise.reject(figures.breakdownFailed);
  const chart = await drawn.catch((error: unknown) => {
    // The figures above say it all in words: a chart that cannot be drawn costs the picture, not the reply.
    if (error instanceof Refusal && error.reason.code === 'free-rate') {
      const { limit, waitSeconds } = error.reason;
      lines.push(t(locale, 'usage.chart.freeRate', { limit, seconds: waitSeconds }));
      logger.info(
        { code: 'usage-chart-free-rate', guildId: interaction.guildId, userId: interaction.user.id },
        'usage chart not drawn: the member is past their free-request rate',
      );
    } else {
      logger.warn(
        { code: 'usage-chart-failed', guildId: interaction.guildId, userId: interaction.user.id, err: error },
        'usage chart not drawn',
      );
    }
    return undefined;
  });
  await showContent(interaction, lines.join('\n'), chart ? [chart] : []);
};

/**
 * Outside servers (the user install), privately: the user's own use under the pseudo-guild and what is left of the
 * monthly budget it shares. No whole-bot figures but to the operator, and no chart (its members would be strangers).
 */
export const executeOutsideServer: CommandModule<Uses>['executeOutsideServer'] = async (interaction, context) => {
  requireUserInstall(context, interaction);
  const locale = interaction.locale;
  const n = (value: number) => formatNumber(locale, value);
  const report = await context.accounting.report(USER_INSTALL_GUILD, interaction.user.id);
  const shared = report.guild.budget;
  const lines = [
    t(locale, 'usage.title', { month: report.month, reset: dayOf(report.resetAt) }),
    t(locale, 'usage.outside.where'),
    ...memberLines(locale, report),
    ...(shared > 0
      ? [t(locale, 'usage.outside.shared', { limit: n(shared), left: n(Math.max(0, shared - report.guild.spent)) })]
      : []),
    ...(seesPlanFigures(interaction, context.isOperator) ? planLines(locale, report) : []),
    ...usedUpLines(locale, report),
  ];
  await showContent(interaction, lines.join('\n'));
};

/** The queue bounds in force, when all three are (a line naming "no limit" beside numbers would read oddly). */
function queueLine(locale: string, queue: CommandContext['config']['queue']): string[] {
  const { guildClips, guildSeconds, memberRequests } = queue;
  if (guildClips === 0 || guildSeconds === 0 || memberRequests === 0) return [];
  return [
    t(locale, 'usage.queue', {
      clips: formatNumber(locale, guildClips),
      seconds: formatNumber(locale, guildSeconds),
      member: formatNumber(locale, memberRequests),
    }),
  ];
}

/** The month as a picture (src/features/usage/chart.ts), cached an hour, drawn within the free-request rate. */
async function monthChart(
  interaction: ChatInputCommandInteraction<'cached'>,
  { report, days, members: top, through }: MonthFigures,
  cache: ChartCache,
  speech: CommandContext['speech'],
): Promise<AttachmentPayload> {
  const locale = interaction.locale;
  // One member fetch each (REST, no privileged intent); one who left is named as such, never by ID.
  const members = await Promise.all(
    top.map(async ({ userId, spent, saved }) => ({
      name: await interaction.guild.members.fetch(userId).then(
        (m) => m.displayName,
        () => t(locale, 'usage.chart.formerMember'),
      ),
      spent,
      saved,
    })),
  );
  const key = chartKey({
    guildId: interaction.guildId,
    locale,
    at: report.at,
    budget: report.guild.budget,
    members: members.map((member) => member.name),
  });
  const draw = () => {
    speech.takeFreeWork(interaction.guildId, interaction.user.id);
    return renderPng(chartSvg(locale, report, days, members, through), {
      guild: interaction.guildId,
      member: interaction.user.id,
    });
  };
  return {
    attachment: await cache.get(key, draw),
    name: `usage-${report.month}.png`,
    description: t(locale, 'usage.chart.alt', { month: report.month }),
  };
}

/** The chart's SVG document in the caller's words. */
function chartSvg(
  locale: string,
  report: UsageReport,
  days: Parameters<typeof usageChartSvg>[0]['days'],
  members: Parameters<typeof usageChartSvg>[0]['members'],
  through: string,
): string {
  return usageChartSvg(
    // The month-to-date line stops at today (the accounting clock's).
    { month: report.month, days, budget: report.guild.budget, members, through },
    {
      ...chartWords(locale, report.month),
      number: (value) => formatNumber(locale, value),
      fontFamily: chartFontFamily(locale),
    },
  );
}
