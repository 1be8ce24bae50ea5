// The frame of every page: the top bar, a server's sidebar (a menu on a phone) and the content. Every value escaped.
import { t } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import { picture } from './components.ts';
import { html, type Html } from './markup.ts';
import { serverSidebar } from './sidebar.ts';

export { html, raw, type Html } from './markup.ts';

/** What every page knows about the request it answers. */
export interface PageContext {
  /** 'en-US', 'ko' or 'ja': the browser's language (Accept-Language). */
  locale: string;
  /** The signed-in member: their name and the CSRF token their forms carry. */
  member?: { name: string; csrf: string } | undefined;
  /** What the last change did (or why it was refused). */
  notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}

/** How a page sits in the frame (all optional: a page outside any server has no sidebar). */
export interface PageFrame {
  /** The server whose page this is: the sidebar shows its icon, name and pages. */
  server?: Membership | undefined;
  /** The sidebar's current page: a key of SERVER_PAGES (sidebar.ts), 'home' for the server's overview. */
  current?: string | undefined;
  /** A sidebar of the page's own instead of a server's (the owner's console): a <nav> with its links. */
  sidebar?: Html | undefined;
  /** The phone menu's label when `sidebar` is given (a server's menu shows the server's name). */
  menuLabel?: string | undefined;
  /** Scripts of the page's own (served from /static/, deferred), e.g. '/static/month.js'. */
  scripts?: readonly string[] | undefined;
}

/** The CSRF token as a form field (src/features/dashboard/guards.ts checks it on every change). */
export const csrfField = (context: PageContext): Html =>
  html`<input type="hidden" name="_csrf" value="${context.member?.csrf ?? ''}" />`;

/** A change of one click: a form posting its hidden fields and the CSRF token to `action`, as one button. */
export function buttonForm(
  context: PageContext,
  action: string,
  fields: Readonly<Record<string, string>>,
  label: string,
): Html {
  return html`<form method="post" action="${action}" class="inline">
    ${csrfField(context)}${Object.entries(fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}<button type="submit">${label}</button>
  </form>`;
}

const LANG: Record<string, string> = { 'en-US': 'en', ko: 'ko', ja: 'ja' };

/** SayBot's mark: a speech bubble, drawn in the accent colour. */
const MARK = html`<svg class="mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
  <path d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-8l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
  <path class="mark-wave" d="M8 10.5h1M11.5 8v5M15 9.5v2" />
</svg>`;

/** The top bar's right side: the theme switch (shown by app.js), and the member with their logout forms. */
function account(context: PageContext, server: Membership | undefined): Html {
  const { locale, member } = context;
  const theme = html`<button
    type="button"
    class="ghost theme-switch"
    id="theme-switch"
    aria-label="${t(locale, 'dashboard.frame.theme.auto')}"
    hidden
  >
    <svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d="M10 3a7 7 0 1 0 0 14zM10 3a7 7 0 0 1 0 14" />
    </svg>
    <span>${t(locale, 'dashboard.frame.theme.auto')}</span>
  </button>`;
  if (member === undefined) return theme;
  return html`${theme}
    <details class="account">
      <summary>
        ${picture(member.name, server?.avatarUrl, { size: 'sm' })}
        <span class="account-name">${member.name}</span>
      </summary>
      <div class="account-menu">
        <p class="who">${t(locale, 'dashboard.signedIn', { name: member.name })}</p>
        <form method="post" action="/logout">
          ${csrfField(context)} <button type="submit">${t(locale, 'dashboard.logout')}</button>
        </form>
        <form method="post" action="/logout-everywhere">
          ${csrfField(context)} <button type="submit">${t(locale, 'dashboard.logoutEverywhere')}</button>
        </form>
      </div>
    </details>`;
}

/** A whole page: the top bar, the sidebar when there is one, the title, the notice, then `body`. */
export function page(context: PageContext, title: string, body: Html, frame: PageFrame = {}): Html {
  const { locale, notice } = context;
  const { server, current, scripts = [] } = frame;
  const shown = notice
    ? html`<p class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${notice.text}</p>`
    : '';
  const sideContent = server !== undefined ? serverSidebar(locale, server, current) : frame.sidebar;
  const menuLabel = server?.guildName ?? frame.menuLabel ?? t(locale, 'dashboard.frame.menu');
  const side =
    sideContent === undefined
      ? ''
      : html`<details class="side">
          <summary>
            ${server === undefined ? '' : picture(server.guildName, server.iconUrl, { size: 'sm', shape: 'squircle' })}
            <span>${menuLabel}</span>
            <span class="visually-hidden">· ${t(locale, 'dashboard.frame.menu')}</span>
          </summary>
          <div class="side-body">${sideContent}</div>
        </details>`;
  return html`<!doctype html>
    <html lang="${LANG[locale] ?? 'en'}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${title} · ${t(locale, 'dashboard.title')}</title>
        <link rel="stylesheet" href="/static/style.css" />
        <script src="/static/theme.js"></script>
        <script src="/static/app.js" defer></script>
        ${scripts.map((src) => html`<script src="${src}" defer></script>`)}
      </head>
      <body
        data-t-saving="${t(locale, 'dashboard.frame.saving')}"
        data-t-failed="${t(locale, 'dashboard.frame.saveFailed')}"
        data-t-theme-auto="${t(locale, 'dashboard.frame.theme.auto')}"
        data-t-theme-light="${t(locale, 'dashboard.frame.theme.light')}"
        data-t-theme-dark="${t(locale, 'dashboard.frame.theme.dark')}"
      >
        <a class="skip" href="#main">${t(locale, 'dashboard.skip')}</a>
        <div class="shell${sideContent === undefined ? '' : ' with-side'}">
          <header class="topbar">
            <a class="brand" href="/">${MARK}<span>${t(locale, 'dashboard.title')}</span></a>
            <div class="topbar-end">${account(context, server)}</div>
          </header>
          ${side}
          <main id="main">
            <h1>${title}</h1>
            ${shown} ${body}
          </main>
        </div>
      </body>
    </html>`;
}

/** The browser's language among SayBot's (en, ko, ja), by Accept-Language's order and weights; English otherwise. */
export function localeOf(acceptLanguage: string | undefined): string {
  const ranked = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.toLowerCase(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((each) => each.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'ko' || tag.startsWith('ko-')) return 'ko';
    if (tag === 'ja' || tag.startsWith('ja-')) return 'ja';
    if (tag === 'en' || tag.startsWith('en-')) return 'en-US';
  }
  return 'en-US';
}
