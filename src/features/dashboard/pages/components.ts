// The design's small pieces as escaped markup; none needs script (an `inline` form is sent by /static/app.js).
import { t } from '../strings.ts';
import { html, raw, type Html } from './markup.ts';

/** In a `<form method="post">` tag: /static/app.js sends it in the background and swaps in `[data-refresh]`. */
export const inline = raw('data-inline');

/** Beside `inline` in a form of switches: sent as soon as a switch flips. */
export const autosave = raw('data-autosave');

/** A card: a titled box of related content. `id` names its heading (for aria-labelledby and links). */
export function card(
  body: Html | '',
  options: { title?: string; id?: string; actions?: Html; variant?: 'danger' } = {},
): Html {
  const { title, id, actions, variant } = options;
  const headingId = id === undefined ? undefined : `${id}-title`;
  return html`<section
    class="card${variant === 'danger' ? ' card-danger' : ''}"
    ${id === undefined ? '' : html` id="${id}"`}${
      title !== undefined && headingId !== undefined ? html` aria-labelledby="${headingId}"` : ''
    }
  >
    ${
      title === undefined
        ? ''
        : html`<div class="card-head">
            <h2${headingId === undefined ? '' : html` id="${headingId}"`}>${title}</h2>
            ${actions ?? ''}
          </div>`
    }
    ${body}
  </section>`;
}

/** An on/off switch. A hidden `off` field comes first, so an unticked switch still says "off" (the last value wins). */
export function toggle(options: {
  name: string;
  id: string;
  label: string;
  checked: boolean;
  description?: string;
  on?: string;
  off?: string;
}): Html {
  const { name, id, label, checked, description, on = 'true', off = 'false' } = options;
  const help = description === undefined ? undefined : `${id}-help`;
  return html`<div class="toggle">
    <input type="hidden" name="${name}" value="${off}" />
    <input
      type="checkbox"
      role="switch"
      id="${id}"
      name="${name}"
      value="${on}"
      ${checked ? 'checked' : ''}${help === undefined ? '' : html` aria-describedby="${help}"`}
    />
    <label for="${id}">${label}</label>
    ${help === undefined ? '' : html`<small id="${help}" class="hint">${description}</small>`}
  </div>`;
}

/** Nothing to show yet: what this is, and what to do about it (a sentence, and a link or a form if there is one). */
export function emptyState(title: string | undefined, hint: string, action?: Html): Html {
  return html`<div class="empty">
    ${title === undefined ? '' : html`<p class="empty-title">${title}</p>`}
    <p>${hint}</p>
    ${action ?? ''}
  </div>`;
}

/** A short label beside a name: "manager", "yours", "default". */
export const badge = (text: string, variant?: 'accent' | 'ok' | 'danger'): Html =>
  html`<span class="badge${variant === undefined ? '' : ` badge-${variant}`}">${text}</span>`;

/** Up to two letters standing for a name (its words' first letters), as Discord shows a server without an icon. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '');
  const letters = words.slice(0, 2).map((word) => Array.from(word)[0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

/** A server's icon or a member's avatar, else their initials on a colour; decoration (alt="") unless `label`. */
export function picture(
  name: string,
  url: string | undefined,
  options: { size?: 'sm' | 'md' | 'lg'; shape?: 'round' | 'squircle'; label?: string } = {},
): Html {
  const { size = 'md', shape = 'round', label } = options;
  const classes = `pic pic-${size} pic-${shape}`;
  if (url !== undefined)
    return html`<img class="${classes}" src="${url}" alt="${label ?? ''}" loading="lazy" decoding="async" />`;
  // One of eight colours by the name, so the same server keeps its colour.
  let hue = 0;
  for (const char of name) hue = (hue * 31 + (char.codePointAt(0) ?? 0)) % 8;
  return label === undefined
    ? html`<span class="${classes} pic-initials pic-c${hue}" aria-hidden="true">${initials(name)}</span>`
    : html`<span class="${classes} pic-initials pic-c${hue}" role="img" aria-label="${label}">${initials(name)}</span>`;
}

/** Links to the pages of a long list: `href(n)` for page n (1-based). Nothing when it fits on one page. */
export function pager(locale: string, current: number, pages: number, href: (page: number) => string): Html {
  if (pages <= 1) return html``;
  return html`<nav class="pager" aria-label="${t(locale, 'dashboard.frame.pages')}">
    ${current > 1 ? html`<a class="button" rel="prev" href="${href(current - 1)}">${t(locale, 'dashboard.frame.previous')}</a>` : ''}
    <span>${t(locale, 'dashboard.frame.pageOf', { page: current, pages })}</span>
    ${current < pages ? html`<a class="button" rel="next" href="${href(current + 1)}">${t(locale, 'dashboard.frame.next')}</a>` : ''}
  </nav>`;
}

/** A table in its scrolling box: a heading per column, then `rows`; `attrs` go on the table tag. */
export function table(
  heads: readonly unknown[],
  rows: unknown,
  options: { wrap?: string; attrs?: Html; caption?: Html; body?: Html } = {},
): Html {
  return html`<div class="table-wrap${options.wrap ?? ''}">
    <table${options.attrs ?? ''}>
      ${options.caption ?? ''}
      <thead>
        <tr>
          ${heads.map((head) => html`<th scope="col">${head}</th>`)}
        </tr>
      </thead>
      <tbody${options.body ?? ''}>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
