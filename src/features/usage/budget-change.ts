// A server's own budgets changed (/budget and the dashboard's month page): each at most the operator's (a server only
// lowers them), 0 clearing the server's own value; refused in /budget's words, nothing stored.
import { UserError } from '../../core/interactions/failures.ts';
import { formatNumber, t } from '../../core/i18n/catalogue.ts';
import type { Accounting } from '../../core/quota/accounting.ts';
import { serverValueAllowed } from '../../core/quota/money.ts';
import { BUDGET_NAMES, type BudgetName } from '../../core/config.ts';
import type { GuildBudgetSettings } from '../../core/store/quota-store.ts';
import type { Store } from '../../core/store/types.ts';
import './strings.ts';

export async function changeServerBudgets(
  deps: { accounting: Accounting; store: Store },
  change: { guildId: string; userId: string; locale: string; values: Partial<Record<BudgetName, number>> },
): Promise<GuildBudgetSettings> {
  const operator = deps.accounting.operatorBudgets;
  const changes: { [K in BudgetName]?: number | null } = {};
  for (const name of BUDGET_NAMES) {
    const value = change.values[name];
    if (value === undefined) continue;
    // Discord enforces min/max for its own clients; a crafted value is refused like one above the operator's.
    if (!Number.isInteger(value) || value < 0 || !serverValueAllowed(operator, name, value)) {
      throw new UserError('budget.aboveOperator', {
        budget: t(change.locale, `budget.name.${name}`),
        limit: formatNumber(change.locale, operator[name]),
      });
    }
    changes[name] = value === 0 ? null : value;
  }
  if (Object.keys(changes).length === 0) throw new UserError('budget.nothing');
  return deps.store.budgets.set(change.guildId, changes, change.userId);
}
