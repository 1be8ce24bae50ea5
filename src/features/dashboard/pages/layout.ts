// The frame of every page, and the few pieces every page uses. Every value is put in through hono's `html`, which
// escapes it: a member's name or a dictionary reading is shown as text, never read as markup.
import { html as honoHtml, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { t } from '../strings.ts';

export type Html = HtmlEscapedString;

/** hono's `html`, for the synchronous fragments these pages are made of (no promise is ever put in one). */
export const html = honoHtml as (strings: TemplateStringsArray, ...values: unknown[]) => Html;
export { raw };

/** What every page knows about the request it answers. */
export interface PageContext {
  /** 'en-US', 'ko' or 'ja': the browser's language (Accept-Language). */
  locale: string;
  /** The signed-in member: their name and the CSRF token their forms carry. */
  member?: { name: string; csrf: string } | undefined;
  /** What the last change did (or why it was refused). */
  notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}

/** The CSRF token as a form field (src/features/dashboard/guards.ts checks it on every change). */
export const csrfField = (context: PageContext): Html =>
  html`<input type="hidden" name="_csrf" value="${context.member?.csrf ?? ''}" />`;

const LANG: Record<string, string> = { 'en-US': 'en', ko: 'ko', ja: 'ja' };

/** A whole page: header (who is signed in, log out), the notice, then `body`. */
export function page(context: PageContext, title: string, body: Html): Html {
  const { locale, member, notice } = context;
  const header = member
    ? html`<p class="who">${t(locale, 'dashboard.signedIn', { name: member.name })}</p>
        <form method="post" action="/logout" class="inline">
          ${csrfField(context)} <button type="submit">${t(locale, 'dashboard.logout')}</button>
        </form>
        <form method="post" action="/logout-everywhere" class="inline">
          ${csrfField(context)} <button type="submit">${t(locale, 'dashboard.logoutEverywhere')}</button>
        </form>`
    : '';
  const shown = notice
    ? html`<p class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${notice.text}</p>`
    : '';
  return html`<!doctype html>
    <html lang="${LANG[locale] ?? 'en'}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${t(locale, 'dashboard.title')}</title>
        <link rel="stylesheet" href="/static/style.css" />
        <script src="/static/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">${t(locale, 'dashboard.skip')}</a>
        <header>
          <p class="brand"><a href="/">${t(locale, 'dashboard.title')}</a></p>
          ${header}
        </header>
        <main id="main">
          <h1>${title}</h1>
          ${shown} ${body}
        </main>
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
