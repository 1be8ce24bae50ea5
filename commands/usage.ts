import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { formatNumber, t } from '../src/bot/i18n.ts';
import { showContent } from '../src/bot/replies.ts';
import { dayOf } from '../src/quota/calendar.ts';

export const data = new SlashCommandBuilder()
  .setName('usage')
  .setNameLocalizations({ ko: '사용량', ja: '使用量' })
  .setDescription("This month's characters: this server, the whole bot, and yours today")
  .setDescriptionLocalizations({ ko: '이번 달 글자 사용량: 이 서버, 봇 전체, 오늘 내 사용량', ja: '今月の文字数: このサーバー、ボット全体、今日のあなた' })
  .setContexts(InteractionContextType.Guild);

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
