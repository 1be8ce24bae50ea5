// The pages outside one server's pages: login, the member's servers, a server's overview, the message pages.
import { t } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import type { ServerGlance } from '../glance-figures.ts';
import { badge, card, emptyState, picture } from './components.ts';
import { serverGlancePart } from './glance.ts';
import { html, page, type Html, type PageContext } from './layout.ts';
import { icon, serverPagesFor } from './sidebar.ts';

export function loginPage(context: PageContext): Html {
  const { locale } = context;
  return page(
    context,
    t(locale, 'dashboard.title'),
    card(
      html`<p>${t(locale, 'dashboard.login.intro')}</p>
        <p><a class="button primary" href="/login">${t(locale, 'dashboard.login')}</a></p>`,
    ),
  );
}

/** The member's servers; for the owner, the way to the owner console too. */
export function serversPage(context: PageContext, servers: readonly Membership[], owner = false): Html {
  const { locale } = context;
  const ownerLink = owner ? html`<p><a href="/owner">${t(locale, 'console.title')}</a></p>` : '';
  const items = servers.map(
    (server) =>
      html`<li class="server-card">
        ${picture(server.guildName, server.iconUrl, { size: 'lg', shape: 'squircle' })}
        <a href="/servers/${server.guildId}">${server.guildName}</a>
        ${server.manager ? badge(t(locale, server.owner ? 'dashboard.servers.owner' : 'dashboard.servers.manager'), 'accent') : ''}
      </li>`,
  );
  return page(
    context,
    t(locale, 'dashboard.servers'),
    html`${ownerLink}${
      servers.length === 0
        ? emptyState(t(locale, 'dashboard.servers.none'), t(locale, 'dashboard.frame.serversHint'))
        : html`<ul class="servers">
            ${items}
          </ul>`
    }`,
  );
}

/** A server's overview: its figures at a glance, then what each of its pages does. */
export function serverPage(context: PageContext, server: Membership, glance: ServerGlance): Html {
  const { locale } = context;
  return page(
    context,
    server.guildName,
    html`${serverGlancePart(locale, server, glance)}
      <p>${t(locale, 'dashboard.frame.serverIntro')}</p>
      <dl class="overview">
        ${serverPagesFor(server).map(
          (each) =>
            html`<div class="overview-item">
              <dt>${icon(each.key)}${t(locale, each.label)}</dt>
              <dd>${t(locale, `dashboard.frame.about.${each.key}`)}</dd>
            </div>`,
        )}
      </dl>`,
    { server, current: 'home' },
  );
}

/** A page that only says something: not found, refused, too many requests. */
export function messagePage(context: PageContext, title: string): Html {
  return page(
    context,
    title,
    emptyState(
      undefined,
      t(context.locale, 'dashboard.frame.notFoundHint'),
      html`<p><a class="button" href="/">${t(context.locale, 'dashboard.back')}</a></p>`,
    ),
  );
}
