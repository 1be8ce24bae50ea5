// The sidebar of a server's pages; on a phone the stylesheet folds it into a menu (a <details>).
import { t } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import { badge, picture } from './components.ts';
import { html, raw, type Html } from './markup.ts';

/** The pages of a server, as the sidebar lists them: its path under /servers/<id>, and who sees it. */
export const SERVER_PAGES = [
  { key: 'voices', path: '/voices', label: 'dashboard.page.voices', managers: false },
  { key: 'myvoice', path: '/myvoice', label: 'dashboard.page.myvoice', managers: false },
  { key: 'scenes', path: '/scenes', label: 'studio.scenes.nav', managers: false },
  { key: 'month', path: '/month', label: 'dashboard.page.month', managers: false },
  { key: 'mydata', path: '/mydata', label: 'dashboard.page.mydata', managers: false },
  { key: 'dictionary', path: '/dictionary', label: 'dashboard.page.dictionary', managers: true },
  { key: 'autoread', path: '/autoread', label: 'dashboard.page.autoread', managers: true },
] as const;

export type ServerPageKey = (typeof SERVER_PAGES)[number]['key'];

/** 20 px line icons (a path each, drawn in currentColor): decoration beside each page's name. */
const ICONS: Record<ServerPageKey | 'home', string> = {
  home: 'M3 10.5 10 4l7 6.5V17h-4.5v-4.5h-5V17H3z',
  voices: 'M10 3a2.5 2.5 0 0 0-2.5 2.5v4a2.5 2.5 0 0 0 5 0v-4A2.5 2.5 0 0 0 10 3zM5 9.5a5 5 0 0 0 10 0M10 14.5V17',
  myvoice: 'M10 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM3.5 17a6.5 6.5 0 0 1 13 0',
  scenes: 'M3 5h14v10H3zM3 8h14M7 5 5.5 8M11 5 9.5 8M15 5l-1.5 3',
  month: 'M4 16V9M8 16V5M12 16v-5M16 16V7',
  mydata: 'M10 3 4 5.5v4c0 3.5 2.5 6.5 6 7.5 3.5-1 6-4 6-7.5v-4z',
  dictionary: 'M4 4.5A1.5 1.5 0 0 1 5.5 3H16v12H5.5A1.5 1.5 0 0 0 4 16.5zM4 16.5A1.5 1.5 0 0 0 5.5 18H16',
  autoread: 'M3 5h14M3 9h10M3 13h7M14 12.5l3 2-3 2z',
};

/** A page's icon, hidden from assistive technology (the link's text names it). */
export const icon = (name: keyof typeof ICONS): Html =>
  html`<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
    <path d="${raw(ICONS[name])}" />
  </svg>`;

/** The server's pages the member may open, in the sidebar's order. */
export const serverPagesFor = (server: Membership) => SERVER_PAGES.filter((each) => server.manager || !each.managers);

/** The sidebar's content for one server: its picture and name, the member's role there, and its pages. */
export function serverSidebar(locale: string, server: Membership, current: string | undefined): Html {
  const base = `/servers/${server.guildId}`;
  const link = (href: string, key: ServerPageKey | 'home', label: string) =>
    html`<li>
      <a href="${href}" ${current === key ? raw('aria-current="page"') : ''}>${icon(key)}<span>${label}</span></a>
    </li>`;
  return html`<div class="side-server">
      ${picture(server.guildName, server.iconUrl, { size: 'lg', shape: 'squircle' })}
      <div>
        <p class="side-name">${server.guildName}</p>
        ${badge(t(locale, server.owner ? 'dashboard.frame.owner' : server.manager ? 'dashboard.frame.manager' : 'dashboard.frame.member'))}
      </div>
    </div>
    <nav aria-label="${t(locale, 'dashboard.server.nav')}">
      <ul class="side-nav">
        ${link(base, 'home', t(locale, 'dashboard.frame.overview'))}
        ${serverPagesFor(server).map((each) => link(`${base}${each.path}`, each.key, t(locale, each.label)))}
      </ul>
    </nav>
    <p class="side-back"><a href="/">${t(locale, 'dashboard.back')}</a></p>`;
}
