// What a member's budgets leave before a scene: their day's budget, the server's month and the bot's month, and the
// least of them (what a scene may cost and still be allowed). Figures only; the preview and the studio word them.
import type { UsageReport } from '../../core/quota/accounting.ts';

export interface BudgetFigures {
  /** The member's day, when the server sets a member budget. */
  member?: { left: number; limit: number };
  /** The server's month, when it has a budget. */
  guild?: { left: number; limit: number };
  /** The bot's month (the plan's remaining characters): only shown to who may see the plan's figures. */
  bot: number;
  /** The least of them. */
  left: number;
}

export function budgetFigures(report: UsageReport): BudgetFigures {
  const { member, guild, bot } = report;
  const figures: BudgetFigures = { bot: bot.remaining, left: bot.remaining };
  if (member.budget > 0)
    figures.member = { left: Math.max(0, member.budget - member.spentToday), limit: member.budget };
  if (guild.budget > 0) figures.guild = { left: Math.max(0, guild.budget - guild.spent), limit: guild.budget };
  figures.left = Math.min(bot.remaining, figures.member?.left ?? Infinity, figures.guild?.left ?? Infinity);
  return figures;
}
