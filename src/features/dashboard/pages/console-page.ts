// The owner console's pages and the confirmation before leaving a server. Markup only, every value escaped by `html`.
import type { KeyAnswer, KeyStateSnapshot } from '../../../core/api/response.ts';
import type { FreeVoiceState } from '../../../core/free-voice/free-voice-engine.ts';
import { type OperatorBudgets } from '../../../core/config.ts';
import { formatNumber, t } from '../strings.ts';
import type { DoctorCheck, HelperStatus, OwnerConsole } from '../dashboard-types.ts';
import { badge, card, emptyState, pager, table } from './components.ts';
import { consoleSummaryPart, installPart, when, type ConsoleSummary } from './glance.ts';
import { plain } from './month-page.ts';
import { csrfField, html, page, type Html, type PageContext } from './layout.ts';

export interface ServerRow {
  id: string;
  name: string;
  /** Whether SayBot serves it (ALLOWED_GUILDS). */
  served: boolean;
  spent: number;
  saved: number;
  freeLines: number;
  /** The budgets in force there: the operator's, lowered by the server's own. */
  budgets: OperatorBudgets;
  top: ReadonlyArray<{ name: string; characters: number }>;
}

export interface ConsoleView {
  /** The first row: the figures below, at a glance. */
  summary: ConsoleSummary;
  installUrl: string;
  plan: OwnerConsole['plan'] & {
    /** /usage's lines for the whole plan. */
    lines: readonly string[];
    limit: number;
    /** BUDGET_BOT_MONTHLY_CHARS (0: none). */
    budget: number;
    usedUpUntil?: Date | undefined;
  };
  servers: { total: number; complete: boolean; page: number; pages: number; rows: readonly ServerRow[] };
  key: KeyStateSnapshot;
  freeVoice: FreeVoiceState & { setting: OwnerConsole['freeVoiceSetting'] };
  cache: ReturnType<OwnerConsole['cache']>;
  access: {
    /** ALLOWED_GUILDS, each with its name when SayBot is in it; undefined: not set. */
    allowed: ReadonlyArray<{ id: string; name?: string | undefined }> | undefined;
    leaveAtStart: boolean;
    publicBot: boolean | undefined;
  };
  doctor: { at: Date; checks: readonly DoctorCheck[] } | undefined;
  helpers: readonly HelperStatus[];
}

const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(1);

function planPart(locale: string, plan: ConsoleView['plan']): Html {
  const n = (value: number) => formatNumber(locale, value);
  const reserve = plan.budget > 0 && plan.budget < plan.limit ? plan.limit - plan.budget : 0;
  return card(
    html`<ul>
      <li>${t(locale, 'console.planName', { plan: plan.name })}</li>
      ${plan.sandbox ? html`<li>${t(locale, 'console.sandbox')}</li>` : ''}
      ${plan.lines.map((line) => html`<li>${plain(line)}</li>`)}
      <li>
        ${
          reserve > 0
            ? t(locale, 'console.reserve', { reserve: n(reserve), limit: n(plan.limit) })
            : t(locale, 'console.noReserve')
        }
      </li>
      ${plan.usedUpUntil ? html`<li>${t(locale, 'console.usedUp', { until: when(plan.usedUpUntil) })}</li>` : ''}
    </ul>`,
    { title: t(locale, 'console.plan'), id: 'plan' },
  );
}

function serverRow(context: PageContext, row: ServerRow): Html {
  const { locale } = context;
  const n = (value: number) => formatNumber(locale, value);
  const limit = (value: number) => (value > 0 ? n(value) : t(locale, 'console.noLimit'));
  return html`<tr>
    <th scope="row">${row.name} <small>(${row.id})</small></th>
    <td>${row.served ? badge(t(locale, 'console.yes'), 'ok') : badge(t(locale, 'console.notServed'), 'danger')}</td>
    <td>${t(locale, 'console.monthFigures', { spent: n(row.spent), saved: n(row.saved), free: n(row.freeLines) })}</td>
    <td>
      ${t(locale, 'console.budgetFigures', {
        month: limit(row.budgets.guildMonthlyChars),
        day: limit(row.budgets.memberDailyChars),
        cooldown: n(row.budgets.memberCooldownSeconds),
      })}
    </td>
    <td>
      ${
        row.top.length === 0
          ? t(locale, 'console.noSpenders')
          : html`<ol>
              ${row.top.map(
                (member) =>
                  html`<li>
                    ${t(locale, 'console.spender', { name: member.name, characters: n(member.characters) })}
                  </li>`,
              )}
            </ol>`
      }
    </td>
    <td class="actions">
      <a class="button danger" href="/owner/servers/${row.id}/leave"
        >${t(locale, 'console.leave', { server: row.name })}</a
      >
    </td>
  </tr>`;
}

function serversPart(context: PageContext, servers: ConsoleView['servers'], installUrl: string): Html {
  const { locale } = context;
  const n = (value: number) => formatNumber(locale, value);
  const options = { title: t(locale, 'console.servers'), id: 'servers' };
  if (servers.total === 0)
    return card(emptyState(undefined, t(locale, 'console.serversNone'), installPart(locale, installUrl)), options);
  return card(
    html`${installPart(locale, installUrl)}
      <p>
        ${t(locale, 'console.serversCount', { count: n(servers.total) })}
        ${servers.complete ? '' : t(locale, 'console.serversIncomplete', { count: n(servers.total) })}
      </p>
      ${table(
        [
          t(locale, 'console.server'),
          t(locale, 'console.served'),
          t(locale, 'console.month'),
          t(locale, 'console.budgets'),
          t(locale, 'console.topSpenders'),
          t(locale, 'dashboard.actions'),
        ],
        servers.rows.map((row) => serverRow(context, row)),
        { attrs: html` class="stacked"` },
      )}
      ${pager(locale, servers.page, servers.pages, (number) => `/owner?page=${number}`)}`,
    options,
  );
}

const HELPER_STATE_WORDS = {
  offline: 'console.helperOffline',
  refused: 'console.helperRefused',
  closed: 'console.helperClosed',
} as const;

/** The helper bots (HELPER_BOT_TOKENS): each online or not, its servers, its voice connections; never its token. */
function helpersPart(locale: string, helpers: readonly HelperStatus[]): Html {
  const n = (value: number) => formatNumber(locale, value);
  const options = { title: t(locale, 'console.helpers'), id: 'helpers' };
  if (helpers.length === 0) return card(emptyState(undefined, t(locale, 'console.helpersNone')), options);
  const state = (helper: HelperStatus) =>
    helper.state === 'online'
      ? badge(t(locale, 'console.helperOnline'), 'ok')
      : badge(t(locale, HELPER_STATE_WORDS[helper.state], { code: helper.closeCode ?? 0 }), 'danger');
  // Four short columns fit a phone as a table (not stacked): their heads stay in sight.
  return card(
    table(
      [
        t(locale, 'console.helper'),
        t(locale, 'console.helperState'),
        t(locale, 'console.servers'),
        t(locale, 'console.helperInVoice'),
      ],
      helpers.map(
        (helper) =>
          html`<tr>
            <th scope="row">${helper.name ?? t(locale, 'console.helperUnnamed', { index: n(helper.index) })}</th>
            <td>${state(helper)}</td>
            <td>${n(helper.servers)}</td>
            <td>${n(helper.inVoice)}</td>
          </tr>`,
      ),
    ),
    options,
  );
}

function keyPart(locale: string, key: KeyStateSnapshot): Html {
  const answer = (found: KeyAnswer | undefined) =>
    found === undefined
      ? t(locale, 'console.keyNever')
      : t(locale, 'console.keyAnswer', {
          status: found.status,
          at: when(found.at),
          operation: found.operation,
          request: found.requestId === undefined ? '' : t(locale, 'console.keyRequest', { id: found.requestId }),
        });
  const rows: Array<[string, KeyAnswer | undefined]> = [
    [t(locale, 'console.keyAccepted'), key.lastOk],
    [t(locale, 'console.keyRefused'), key.lastRefused],
    [t(locale, 'console.keyLimited'), key.lastLimited],
    [t(locale, 'console.keyFailed'), key.lastFailed],
  ];
  return card(
    html` <dl id="key-state">
      ${rows.map(
        ([label, found]) =>
          html`<dt>${label}</dt>
            <dd>${answer(found)}</dd>`,
      )}
    </dl>`,
    { title: t(locale, 'console.key'), id: 'key' },
  );
}

function freeVoicePart(locale: string, free: ConsoleView['freeVoice']): Html {
  const yes = (value: boolean) => t(locale, value ? 'console.yes' : 'console.no');
  return card(
    html`<ul>
      <li>
        ${t(locale, 'console.freeSetting', { chosen: yes(free.setting.chosen), fallback: yes(free.setting.fallback) })}
      </li>
      <li>${t(locale, 'console.freeInstalled', { installed: yes(free.installed) })}</li>
      <li>${t(locale, 'console.freeThreads', { threads: free.threads, memory: megabytes(free.memoryBytes) })}</li>
      <li>
        ${t(locale, 'console.japanese', {
          installed: yes(free.japanese.installed),
          threads: free.japanese.loadedThreads,
        })}
      </li>
    </ul>`,
    { title: t(locale, 'console.freeVoice'), id: 'free-voice' },
  );
}

function cachePart(locale: string, cache: ConsoleView['cache']): Html {
  const n = (value: number) => formatNumber(locale, value);
  const lookups = cache.hits + cache.misses;
  return card(
    html` <ul>
      ${
        cache.maxBytes === 0
          ? html`<li>${t(locale, 'console.cacheOff')}</li>`
          : html`<li>
                ${t(locale, 'console.cacheSize', {
                  entries: n(cache.entries),
                  bytes: megabytes(cache.bytes),
                  max: megabytes(cache.maxBytes),
                })}
              </li>
              <li>
                ${
                  lookups === 0
                    ? t(locale, 'console.cacheNoLookups')
                    : t(locale, 'console.cacheHits', {
                        hits: n(cache.hits),
                        misses: n(cache.misses),
                        rate: ((cache.hits / lookups) * 100).toFixed(1),
                      })
                }
              </li>`
      }
    </ul>`,
    { title: t(locale, 'console.cache'), id: 'cache' },
  );
}

function accessPart(locale: string, access: ConsoleView['access']): Html {
  const publicWords =
    access.publicBot === undefined
      ? t(locale, 'console.publicUnknown')
      : !access.publicBot
        ? t(locale, 'console.publicOff')
        : access.allowed === undefined
          ? t(locale, 'console.publicOnRisk')
          : t(locale, 'console.publicOn');
  return card(
    html`<p id="public-bot" ${access.publicBot === true && access.allowed === undefined ? html`role="alert"` : ''}>
        ${publicWords}
      </p>
      ${
        access.allowed === undefined
          ? html`<p>${t(locale, 'console.allowedNone')}</p>`
          : html`<p>${t(locale, 'console.allowedList', { count: access.allowed.length })}</p>
              <ul id="allowed-guilds">
                ${access.allowed.map(
                  ({ id, name }) =>
                    html`<li>
                      ${
                        name === undefined
                          ? t(locale, 'console.allowedAbsent', { id })
                          : t(locale, 'console.allowedIn', { name, id })
                      }
                    </li>`,
                )}
              </ul>`
      }
      ${access.leaveAtStart ? html`<p>${t(locale, 'console.leaveAtStart')}</p>` : ''}`,
    { title: t(locale, 'console.access'), id: 'access' },
  );
}

function doctorPart(context: PageContext, doctor: ConsoleView['doctor']): Html {
  const { locale } = context;
  const result = (check: DoctorCheck) =>
    !check.ok
      ? badge(t(locale, 'console.failed'), 'danger')
      : check.warn === true
        ? badge(t(locale, 'console.warn'))
        : badge(t(locale, 'console.ok'), 'ok');
  return card(
    html`<p>${t(locale, 'console.doctorHelp')}</p>
      <form method="post" action="/owner/doctor">
        ${csrfField(context)}
        <button type="submit">${t(locale, 'console.doctorRun')}</button>
      </form>
      ${
        doctor === undefined
          ? html`<p>${t(locale, 'console.doctorNever')}</p>`
          : html`<p>
                ${t(locale, 'console.doctorRanAt', {
                  at: when(doctor.at),
                  failed: doctor.checks.filter((check) => !check.ok).length,
                  warned: doctor.checks.filter((check) => check.ok && check.warn === true).length,
                })}
              </p>
              ${table(
                [t(locale, 'console.check'), t(locale, 'console.result'), t(locale, 'console.detail')],
                doctor.checks.map(
                  (check) =>
                    html`<tr>
                      <th scope="row">${check.name}</th>
                      <td>${result(check)}</td>
                      <td>${check.detail}</td>
                    </tr>`,
                ),
                { attrs: html` id="doctor-checks"` },
              )}`
      }`,
    { title: t(locale, 'console.doctor'), id: 'doctor' },
  );
}

/** The console's sidebar: its parts, each a card on the page. */
function consoleSidebar(locale: string): Html {
  const parts = [
    ['plan', 'console.plan'],
    ['servers', 'console.servers'],
    ['helpers', 'console.helpers'],
    ['key', 'console.key'],
    ['free-voice', 'console.freeVoice'],
    ['cache', 'console.cache'],
    ['access', 'console.access'],
    ['doctor', 'console.doctor'],
  ] as const;
  return html`<nav aria-label="${t(locale, 'console.title')}">
      <ul class="side-nav">
        ${parts.map(
          ([id, key]) =>
            html`<li>
              <a href="/owner#${id}"><span>${t(locale, key)}</span></a>
            </li>`,
        )}
      </ul>
    </nav>
    <p class="side-back"><a href="/">${t(locale, 'dashboard.back')}</a></p>`;
}

export function consolePage(context: PageContext, view: ConsoleView): Html {
  const { locale } = context;
  return page(
    context,
    t(locale, 'console.title'),
    html`<p>${t(locale, 'console.intro')}</p>
      ${consoleSummaryPart(locale, view.summary)} ${planPart(locale, view.plan)}
      ${serversPart(context, view.servers, view.installUrl)} ${helpersPart(locale, view.helpers)}
      ${keyPart(locale, view.key)} ${freeVoicePart(locale, view.freeVoice)} ${cachePart(locale, view.cache)}
      ${accessPart(locale, view.access)} ${doctorPart(context, view.doctor)}`,
    { sidebar: consoleSidebar(locale), menuLabel: t(locale, 'console.title') },
  );
}

/** The step before leaving: what it does, and one button that posts the server's ID back as the confirmation. */
export function leavePage(context: PageContext, server: { id: string; name: string }): Html {
  const { locale } = context;
  return page(
    context,
    t(locale, 'console.leaveTitle', { server: server.name }),
    card(
      html`<p>${t(locale, 'console.leaveWarning')}</p>
        <form method="post" action="/owner/servers/${server.id}/leave">
          ${csrfField(context)}
          <input type="hidden" name="confirm" value="${server.id}" />
          <button type="submit" class="danger">${t(locale, 'console.leaveConfirm', { server: server.name })}</button>
        </form>
        <p><a href="/owner">${t(locale, 'console.leaveCancel')}</a></p>`,
      { variant: 'danger' },
    ),
    { sidebar: consoleSidebar(locale), menuLabel: t(locale, 'console.title') },
  );
}
