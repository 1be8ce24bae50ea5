import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { integerOption, slashCommand, type OptionName } from '../src/core/interactions/command-builder.ts';
import { formatNumber, t } from '../src/core/i18n/catalogue.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { showContent } from '../src/core/interactions/replies.ts';
import { BUDGET_NAMES, type BudgetName } from '../src/core/config.ts';
import { changeServerBudgets } from '../src/features/usage/index.ts';

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
  const values: Partial<Record<BudgetName, number>> = {};
  for (const name of BUDGET_NAMES) {
    const value = interaction.options.getInteger(OPTIONS[name].option);
    if (value !== null) values[name] = value;
  }
  const server = await changeServerBudgets(
    { accounting, store },
    { guildId: interaction.guildId, userId: interaction.user.id, locale, values },
  );
  const value = (v: number) => (v > 0 ? n(v) : t(locale, 'budget.noLimit'));
  const summary = BUDGET_NAMES.map((name) => {
    const own = server[name];
    const shown =
      own === undefined
        ? t(locale, 'budget.fromOperator', { value: value(operator[name]) })
        : t(locale, 'budget.fromServer', { value: value(own), operator: value(operator[name]) });
    return t(locale, 'budget.line', { name: t(locale, `budget.name.${name}`), value: shown });
  }).join('; ');
  await showContent(interaction, t(locale, 'budget.updated', { summary }));
};
