import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { integerOption, slashCommand, type OptionName } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { formatNumber, t } from '../src/core/i18n/translate.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { showContent } from '../src/core/interactions/replies.ts';
import { BUDGET_NAMES, serverValueAllowed, type BudgetName } from '../src/core/quota/budgets.ts';
import '../src/features/usage/index.ts';

/** The services this command is given: src/core/interactions/router.ts hands it no other. */
export const uses = ['accounting', 'store'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** Each budget's option, and the highest value Discord lets a member type. */
const OPTIONS = {
  guildMonthlyChars: { option: 'server_monthly_chars', max: 100_000_000 },
  memberDailyChars: { option: 'member_daily_chars', max: 100_000_000 },
  memberCooldownSeconds: { option: 'cooldown_seconds', max: 86_400 },
} as const satisfies Record<BudgetName, { option: OptionName; max: number }>;

/** Checked on every use too: a server admin may let others see /budget (Integrations), not change budgets. */
export const requires: Requirements = { manageGuild: { refusal: 'error.permission.budget' } };

export const data = slashCommand('budget', requires);
for (const name of BUDGET_NAMES)
  data.addIntegerOption(integerOption(OPTIONS[name].option, { min: 0, max: OPTIONS[name].max }));

export const execute: CommandModule<Uses>['execute'] = async (interaction, { accounting, store }) => {
  const locale = interaction.locale;
  const n = (value: number) => formatNumber(locale, value);
  const operator = accounting.operatorBudgets;
  const changes: { [K in BudgetName]?: number | null } = {};
  for (const name of BUDGET_NAMES) {
    const value = interaction.options.getInteger(OPTIONS[name].option);
    if (value === null) continue;
    // Discord enforces min/max for its own clients; a crafted value is refused like one above the operator's.
    if (value < 0 || !serverValueAllowed(operator, name, value)) {
      throw new UserError('budget.aboveOperator', {
        budget: t(locale, `budget.name.${name}`),
        limit: n(operator[name]),
      });
    }
    changes[name] = value === 0 ? null : value;
  }
  if (Object.keys(changes).length === 0) throw new UserError('budget.nothing');
  const server = await store.budgets.set(interaction.guildId, changes, interaction.user.id);
  const value = (name: BudgetName, v: number) => (v > 0 ? n(v) : t(locale, 'budget.noLimit'));
  const summary = BUDGET_NAMES.map((name) => {
    const own = server[name];
    const shown =
      own === undefined
        ? t(locale, 'budget.fromOperator', { value: value(name, operator[name]) })
        : t(locale, 'budget.fromServer', { value: value(name, own), operator: value(name, operator[name]) });
    return t(locale, 'budget.line', { name: t(locale, `budget.name.${name}`), value: shown });
  }).join('; ');
  await showContent(interaction, t(locale, 'budget.updated', { summary }));
};
