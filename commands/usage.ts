import { slashCommand } from '../src/bot/command-builder.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { formatNumber, t } from '../src/bot/i18n.ts';
import { showContent } from '../src/bot/replies.ts';
import { dayOf } from '../src/quota/calendar.ts';

export const data = slashCommand('usage');

/** Private to the caller; numbers in their locale's digits grouping; nothing that could mention anyone. */
export const execute: CommandModule['execute'] = async (interaction, { accounting }) => {
  const locale = interaction.locale;
  const n = (value: number) => formatNumber(locale, value);
  const report = await accounting.report(interaction.guildId, interaction.user.id);
  const { guild, bot, member } = report;
  const lines = [
    t(locale, 'usage.title', { month: report.month, reset: dayOf(report.resetAt) }),
    t(locale, 'usage.guild', {
      spent: n(guild.spent),
      saved: n(guild.saved),
      budget: guild.budget > 0
        ? t(locale, 'usage.guildBudget', { limit: n(guild.budget), left: n(Math.max(0, guild.budget - guild.spent)) })
        : t(locale, 'usage.noGuildBudget'),
    }),
    t(locale, 'usage.bot', {
      used: n(bot.used),
      limit: n(bot.limit),
      source: bot.fromService ? t(locale, 'usage.fromService') : '',
      remaining: n(bot.remaining),
      spent: n(bot.spent),
      saved: n(bot.saved),
    }),
    t(locale, 'usage.member', {
      spent: n(member.spentToday),
      budget: member.budget > 0
        ? t(locale, 'usage.memberBudget', { limit: n(member.budget), left: n(Math.max(0, member.budget - member.spentToday)), reset: `${dayOf(member.resetAt)} 00:00 UTC` })
        : t(locale, 'usage.noMemberBudget'),
    }),
    ...(member.cooldownSeconds > 0 ? [t(locale, 'usage.cooldown', { seconds: member.cooldownSeconds })] : []),
    ...(report.exhaustedUntil ? [t(locale, 'usage.exhausted', { reset: dayOf(report.exhaustedUntil) })] : []),
  ];
  await showContent(interaction, lines.join('\n'));
};
