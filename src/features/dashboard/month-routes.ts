// The month page: /usage's lines and chart figures; a manager changes the server's budgets as /budget does.
import type { Hono } from 'hono';
import { z } from 'zod';
import { changeServerBudgets, chartWords, monthFigures, monthLines } from '../usage/index.ts';
import { BUDGET_NAMES, type BudgetName } from '../../core/config.ts';
import type { Ctx, DashboardEnv, RouteDeps } from './dashboard-types.ts';
import { audit, form, guard, managersOnly, pageContext, refusedNotice, serverAccess, userOf } from './guards.ts';
import { monthPage, type ChartFigures } from './pages/month-page.ts';
import type { PageContext } from './pages/layout.ts';
import { t } from './strings.ts';

/** Each budget's field: empty leaves it, 0 clears the server's own (as /budget's options). */
const Budget = z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(0).max(100_000_000)]);
const Budgets = z.object(Object.fromEntries(BUDGET_NAMES.map((name) => [name, Budget.optional()])));

export function addMonthRoutes(app: Hono<DashboardEnv>, deps: RouteDeps): void {
  const { store, bot, logger } = deps;
  const base = '/servers/:guildId/month';
  guard(app, base, serverAccess(bot));
  const sources = { accounting: bot.accounting, store };

  async function show(c: Ctx, notice?: PageContext['notice'], status: 200 | 400 = 200) {
    const locale = c.get('locale');
    const server = c.get('membership');
    const userId = userOf(c);
    const figures = await monthFigures(sources, server.guildId, userId);
    // As /usage: the whole plan's figures for a manager or the owner.
    const planWide = server.manager || bot.isOperator(userId);
    const { title, ...words } = chartWords(locale, figures.report.month);
    const chart: ChartFigures = {
      locale,
      month: figures.report.month,
      through: figures.through,
      budget: figures.report.guild.budget,
      days: figures.days,
      // SayBot's cache of names (no request per member); one it does not know (gone, or another shard's) is "a member".
      members: figures.members.map(({ userId: id, spent, saved }) => ({
        name: bot.displayName(server.guildId, id) ?? t(locale, 'dashboard.month.someMember'),
        spent,
        saved,
      })),
      labels: words,
    };
    const own = server.manager ? await store.budgets.get(server.guildId) : undefined;
    return c.html(
      monthPage(pageContext(c, notice), server, {
        title,
        lines: monthLines(locale, figures, planWide),
        chart,
        budgets: own && { own, operator: bot.accounting.operatorBudgets },
      }),
      status,
    );
  }

  app.get(base, (c) => show(c));

  app.post(`${base}/budgets`, managersOnly, async (c) => {
    const locale = c.get('locale');
    const given = await form(c, Budgets);
    const { guildId } = c.get('membership');
    const values: Partial<Record<BudgetName, number>> = {};
    for (const name of BUDGET_NAMES) {
      const value = given[name];
      if (value !== undefined) values[name] = value;
    }
    try {
      await changeServerBudgets(sources, { guildId, userId: userOf(c), locale, values });
    } catch (error) {
      return show(c, refusedNotice(c, error), 400);
    }
    audit(logger, 'budget.set', { userId: userOf(c), guildId }, { budgets: Object.keys(values).length });
    return show(c, { kind: 'ok', text: t(locale, 'dashboard.month.budgetsSaved') });
  });
}
