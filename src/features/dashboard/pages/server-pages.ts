// The pages outside one server's: the login page and the list of servers the member shares with SayBot.
import '../strings.ts';
import '../scenes-strings.ts';
import { t } from '../console-strings.ts';
import type { Membership } from '../dashboard-types.ts';
import { html, page, type Html, type PageContext } from './layout.ts';

export function loginPage(context: PageContext): Html {
  const { locale } = context;
  return page(
    context,
    t(locale, 'dashboard.title'),
    html`<p>${t(locale, 'dashboard.login.intro')}</p>
      <p><a class="button" href="/login">${t(locale, 'dashboard.login')}</a></p>`,
  );
}

/** The member's servers; for the owner, the way to the owner console too. */
export function serversPage(context: PageContext, servers: readonly Membership[], owner = false): Html {
  const { locale } = context;
  const ownerLink = owner ? html`<p><a href="/owner">${t(locale, 'console.nav')}</a></p>` : '';
  const items = servers.map(
    (server) =>
      html`<li>
        <a href="/servers/${server.guildId}">${server.guildName}</a>${
          server.manager ? html` <span class="tag">${t(locale, 'dashboard.servers.manager')}</span>` : ''
        }
      </li>`,
  );
  return page(
    context,
    t(locale, 'dashboard.servers'),
    html`${ownerLink}${
      servers.length === 0
        ? html`<p>${t(locale, 'dashboard.servers.none')}</p>`
        : html`<ul class="servers">
            ${items}
          </ul>`
    }`,
  );
}

/** One server's navigation: every member's pages, and the managers' dictionary. */
export function serverNav(context: PageContext, server: Membership): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}`;
  return html`<nav aria-label="${t(locale, 'dashboard.server.nav')}">
    <ul class="nav">
      <li><a href="/">${t(locale, 'dashboard.back')}</a></li>
      <li><a href="${base}/voices">${t(locale, 'dashboard.page.voices')}</a></li>
      <li><a href="${base}/myvoice">${t(locale, 'dashboard.page.myvoice')}</a></li>
      <li><a href="${base}/mydata">${t(locale, 'dashboard.page.mydata')}</a></li>
      <li><a href="${base}/scenes">${t(locale, 'studio.scenes.nav')}</a></li>
      <li><a href="${base}/month">${t(locale, 'dashboard.page.month')}</a></li>
      ${server.manager ? html`<li><a href="${base}/dictionary">${t(locale, 'dashboard.page.dictionary')}</a></li>` : ''}
      ${server.manager ? html`<li><a href="${base}/autoread">${t(locale, 'dashboard.page.autoread')}</a></li>` : ''}
    </ul>
  </nav>`;
}

export function serverPage(context: PageContext, server: Membership): Html {
  return page(context, server.guildName, serverNav(context, server));
}

/** A page that only says something: not found, refused, too many requests. */
export function messagePage(context: PageContext, title: string): Html {
  return page(context, title, html`<p><a href="/">${t(context.locale, 'dashboard.back')}</a></p>`);
}
