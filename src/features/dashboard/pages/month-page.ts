// The month page: /usage's lines, the chart (with a table of its figures for those without script or sight of it).
import { type OperatorBudgets, type ServerBudgets, BUDGET_NAMES } from '../../../core/config.ts';
import type { Membership } from '../dashboard-types.ts';
import { formatNumber, t } from '../strings.ts';
import { inline, table } from './components.ts';
import { csrfField, html, page, type Html, type PageContext } from './layout.ts';

/** What the browser draws the chart from: the figures /usage draws its picture from, and the words to print. */
export interface ChartFigures {
  locale: string;
  month: string;
  through: string;
  budget: number;
  days: ReadonlyArray<{ day: string; spent: number; saved: number }>;
  members: ReadonlyArray<{ name: string; spent: number; saved: number }>;
  labels: Record<'perDay' | 'monthToDate' | 'spent' | 'saved' | 'budget' | 'topMembers' | 'noData', string>;
}

export interface MonthView {
  title: string;
  lines: readonly string[];
  chart: ChartFigures;
  /** A manager's: the server's own budgets and the operator's they may only lower. */
  budgets: { own: ServerBudgets; operator: OperatorBudgets } | undefined;
}

/** /usage's lines are Discord markdown at most in bold: shown as text. */
export const plain = (line: string) => line.replaceAll('**', '');

export function monthPage(context: PageContext, server: Membership, view: MonthView): Html {
  const { locale } = context;
  const { chart, budgets } = view;
  const n = (value: number) => formatNumber(locale, value);
  const base = `/servers/${server.guildId}/month`;
  return page(
    context,
    `${t(locale, 'dashboard.page.month')} · ${server.guildName}`,
    html` <ul class="usage">
        ${view.lines.map((line) => html`<li>${plain(line)}</li>`)}
      </ul>
      <section class="card chart-card" aria-labelledby="month-title">
        <h2 id="month-title">${view.title}</h2>
        <ul class="legend">
          <li><span class="swatch spent"></span>${chart.labels.spent}</li>
          <li><span class="swatch saved"></span>${chart.labels.saved}</li>
          ${chart.budget > 0 ? html`<li><span class="swatch budget"></span>${chart.labels.budget}</li>` : ''}
        </ul>
        <p class="hint for-pointer">${t(locale, 'dashboard.month.hover')}</p>
        <p class="hint for-touch">${t(locale, 'dashboard.month.tap')}</p>
        <p id="month-readout" class="readout" role="status" aria-live="polite"></p>
        <figure id="month-chart" data-figures="${JSON.stringify(chart)}"></figure>
        <details>
          <summary>${t(locale, 'dashboard.month.table')}</summary>
          ${table(
            [t(locale, 'dashboard.month.day'), chart.labels.spent, chart.labels.saved],
            chart.days.map(
              (day) =>
                html`<tr>
                  <td>${day.day}</td>
                  <td>${n(day.spent)}</td>
                  <td>${n(day.saved)}</td>
                </tr>`,
            ),
          )}
        </details>
      </section>
      ${
        budgets === undefined
          ? ''
          : html`<h2>${t(locale, 'dashboard.month.budgets')}</h2>
              <p>${t(locale, 'dashboard.month.budgetsHelp')}</p>
              <form method="post" action="${base}/budgets" class="stack" ${inline}>
                ${csrfField(context)}
                ${BUDGET_NAMES.map(
                  (name) =>
                    html`<label for="budget-${name}"
                        >${t(locale, `budget.name.${name}`)}
                        (${t(locale, 'budget.fromOperator', {
                          value: budgets.operator[name] > 0 ? n(budgets.operator[name]) : t(locale, 'budget.noLimit'),
                        })})</label
                      >
                      <input
                        type="number"
                        id="budget-${name}"
                        name="${name}"
                        min="0"
                        step="1"
                        value="${budgets.own[name] ?? ''}"
                        ${budgets.operator[name] > 0 ? html`max="${budgets.operator[name]}"` : ''}
                      />`,
                )}
                <button type="submit">${t(locale, 'dashboard.month.save')}</button>
              </form>`
      }`,
    { server, current: 'month', scripts: ['/static/month.js'] },
  );
}
