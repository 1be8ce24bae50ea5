// /usage's lines in words, for /usage and the dashboard's month page alike.
import { formatNumber, t } from '../../core/i18n/catalogue.ts';
import type { UsageReport } from '../../core/quota/accounting.ts';
import { dayOf, minuteOf } from '../../core/calendar.ts';
import type { MonthFigures } from './month-figures.ts';
import './strings.ts';

/** The server's month, its free-voice lines, the plan's (when `planWide`), then the member's own. */
export function monthLines(locale: string, { report, free }: MonthFigures, planWide: boolean): string[] {
  const n = (value: number) => formatNumber(locale, value);
  const { guild } = report;
  return [
    t(locale, 'usage.guild', {
      spent: n(guild.spent),
      saved: n(guild.saved),
      budget:
        guild.budget > 0
          ? t(locale, 'usage.guildBudget', { limit: n(guild.budget), left: n(Math.max(0, guild.budget - guild.spent)) })
          : t(locale, 'usage.noGuildBudget'),
    }),
    ...(free.chosen + free.fallback > 0
      ? [t(locale, 'usage.freeVoice', { lines: n(free.chosen + free.fallback), fallback: n(free.fallback) })]
      : []),
    ...(free.engines.voicevox + free.engines.speech > 0
      ? [
          t(locale, 'usage.freeEngines', {
            voicevox: n(free.engines.voicevox),
            speech: n(free.engines.speech),
            espeak: n(free.chosen + free.fallback - free.engines.voicevox - free.engines.speech),
          }),
        ]
      : []),
    ...(planWide ? planLines(locale, report) : []),
    ...memberLines(locale, report),
    ...usedUpLines(locale, report),
  ];
}

/** The whole plan: what is used and left of it, and the bot-wide budget (BUDGET_BOT_MONTHLY_CHARS). */
export function planLines(locale: string, { bot, botBudget, exhaustedUntil }: UsageReport): string[] {
  const n = (value: number) => formatNumber(locale, value);
  // "The service's count" only of its own figures, with when it gave them; never an older count beside it.
  const whole =
    exhaustedUntil !== undefined && !bot.fromService
      ? t(locale, 'usage.botUsedUp', { limit: n(bot.limit), spent: n(bot.spent), saved: n(bot.saved) })
      : t(locale, 'usage.bot', {
          used: n(bot.used),
          limit: n(bot.limit),
          source:
            bot.fromService && bot.countedAt !== undefined
              ? t(locale, 'usage.fromService', { at: minuteOf(bot.countedAt) })
              : t(locale, 'usage.ownCount'),
          remaining: n(bot.remaining),
          spent: n(bot.spent),
          saved: n(bot.saved),
        });
  return [
    whole,
    botBudget > 0
      ? t(locale, 'usage.botBudget', { limit: n(botBudget), left: n(Math.max(0, botBudget - bot.spent)) })
      : t(locale, 'usage.noBotBudget'),
  ];
}

/** The month the service said is used up: one request at a time goes out to see whether it is back. */
export function usedUpLines(locale: string, { exhaustedUntil }: UsageReport): string[] {
  return exhaustedUntil === undefined ? [] : [t(locale, 'usage.exhausted', { reset: dayOf(exhaustedUntil) })];
}

/** The caller's own lines: today against their daily budget, and the cooldown in force. */
export function memberLines(locale: string, { member }: UsageReport): string[] {
  const n = (value: number) => formatNumber(locale, value);
  return [
    t(locale, 'usage.member', {
      spent: n(member.spentToday),
      budget:
        member.budget > 0
          ? t(locale, 'usage.memberBudget', {
              limit: n(member.budget),
              left: n(Math.max(0, member.budget - member.spentToday)),
              reset: `${dayOf(member.resetAt)} 00:00 UTC`,
            })
          : t(locale, 'usage.noMemberBudget'),
    }),
    ...(member.cooldownSeconds > 0 ? [t(locale, 'usage.cooldown', { seconds: member.cooldownSeconds })] : []),
  ];
}

/** The chart's words in the reader's language (the picture /usage attaches and the dashboard's chart alike). */
export function chartWords(locale: string, month: string) {
  return {
    title: t(locale, 'usage.chart.title', { month }),
    perDay: t(locale, 'usage.chart.perDay'),
    monthToDate: t(locale, 'usage.chart.monthToDate'),
    spent: t(locale, 'usage.chart.spent'),
    saved: t(locale, 'usage.chart.saved'),
    budget: t(locale, 'usage.chart.budget'),
    topMembers: t(locale, 'usage.chart.topMembers'),
    noData: t(locale, 'usage.chart.noData'),
  };
}
