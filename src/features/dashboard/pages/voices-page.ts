// The voices page: a filter, the sample last asked for, and one row per voice with what the member may do with it.
import { t } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import type { SampleResult } from '../samples.ts';
import { badge, card, emptyState, pager } from './components.ts';
import { buttonForm, csrfField, html, page, type Html, type PageContext } from './layout.ts';
import { samplePart } from './sample-part.ts';

export interface VoiceRow {
  /** A preset voice of the catalogue, a free voice, a cloned voice of this server, or one of its presets. */
  kind: 'preset-voice' | 'free' | 'cloned' | 'preset';
  /** The voice's ID, or the preset's name. */
  id: string;
  name: string;
  detail: string;
  language: string | undefined;
  gender: 'f' | 'm' | undefined;
  mine: boolean;
  inPool: boolean;
  isDefault: boolean;
  deletable: boolean;
}

export interface VoiceFilter {
  language?: string | undefined;
  gender?: 'f' | 'm' | undefined;
  /** Words the name or the description holds. */
  q?: string | undefined;
  /** The page of the list (1-based; absent: the first). */
  page?: number | undefined;
}

/** The sample last asked for: the form that asked (so its price's button asks again), whose voice, what came. */
export interface HeardSample {
  fields: Record<string, string>;
  name: string;
  result: SampleResult;
}

export interface VoicesView {
  /** The voices of this page of the list (the member's own and the server's default first). */
  rows: readonly VoiceRow[];
  /** How many voices match the filter, and how many there are in all. */
  matching: number;
  total: number;
  /** This page and how many the filtered list has. */
  page: number;
  pages: number;
  languages: ReadonlyArray<{ code: string; name: string }>;
  filter: VoiceFilter;
  heard: HeardSample | undefined;
}

/** The filter as a query string, kept by every form on the page (a sample heard keeps the list as filtered). */
function kept(filter: VoiceFilter): string {
  const query = new URLSearchParams(
    Object.entries(filter)
      .filter((entry) => entry[1] !== undefined && entry[1] !== '')
      .map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return query === '' ? '' : `?${query}`;
}

/** One voice: play, its name and what it is, "Use", and the rest (default, pool, delete) in a menu. */
function row(context: PageContext, server: Membership, voice: VoiceRow, query: string, languageName: string): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/voices`;
  const key: Record<string, string> = voice.kind === 'preset' ? { preset: voice.id } : { voice: voice.id };
  const tags = [
    voice.mine ? badge(t(locale, 'dashboard.voices.mine'), 'accent') : '',
    voice.isDefault ? badge(t(locale, 'dashboard.voices.default'), 'ok') : '',
    voice.inPool ? badge(t(locale, 'dashboard.voices.inPool')) : '',
  ];
  const about = [
    t(locale, `dashboard.voices.kind.${voice.kind}`),
    languageName,
    voice.gender === undefined ? '' : t(locale, `dashboard.voices.gender.${voice.gender}`),
    voice.detail,
  ].filter((part) => part !== '');
  const more = [
    server.manager && !voice.isDefault
      ? buttonForm(
          context,
          `${base}/default${query}`,
          key,
          t(locale, 'dashboard.voices.makeDefault', { name: voice.name }),
        )
      : '',
    server.manager && voice.kind !== 'preset' && voice.kind !== 'free' && !voice.inPool
      ? buttonForm(context, `${base}/pool${query}`, key, t(locale, 'dashboard.voices.addToPool', { name: voice.name }))
      : '',
    voice.deletable
      ? html`<form
          method="post"
          action="${base}/delete${query}"
          data-confirm="${t(locale, 'dashboard.voices.delete', { name: voice.name })}"
        >
          ${csrfField(context)}<input type="hidden" name="voice" value="${voice.id}" />
          <button type="submit" class="danger">${t(locale, 'dashboard.voices.delete', { name: voice.name })}</button>
        </form>`
      : '',
  ].filter((part) => part !== '');
  return html`<li class="voice" data-voice="${voice.id}">
    <form method="post" action="${base}/sample${query}" class="voice-play">
      ${csrfField(context)}${Object.entries(key).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
      <button
        type="submit"
        class="secondary play"
        aria-label="${t(locale, 'dashboard.voices.hear', { name: voice.name })}"
      >
        <svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M6 4l10 6-10 6z" /></svg>
      </button>
    </form>
    <div class="voice-about">
      <p class="voice-name"><strong>${voice.name}</strong> ${tags}</p>
      <p class="voice-detail">${about.join(' · ')}</p>
    </div>
    <div class="voice-actions">
      ${
        voice.kind === 'preset'
          ? ''
          : html`<form method="post" action="${base}/use${query}">
              ${csrfField(context)}${Object.entries(key).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
              <button
                type="submit"
                class="small"
                aria-label="${t(locale, 'dashboard.voices.use', { name: voice.name })}"
              >
                ${t(locale, 'dashboard.frame.use')}
              </button>
            </form>`
      }
      ${
        more.length === 0
          ? ''
          : html`<details class="more">
              <summary aria-label="${t(locale, 'dashboard.frame.moreFor', { name: voice.name })}">
                <svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                  <path d="M5 10h.01M10 10h.01M15 10h.01" />
                </svg>
              </summary>
              <div class="more-menu">${more}</div>
            </details>`
      }
    </div>
  </li>`;
}

export function voicesPage(context: PageContext, server: Membership, view: VoicesView): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/voices`;
  const { filter, heard } = view;
  const names = new Map(view.languages.map(({ code, name }) => [code, name]));
  const option = (value: string, label: string, chosen: string | undefined) =>
    html`<option value="${value}" ${value === (chosen ?? '') ? 'selected' : ''}>${label}</option>`;
  const listed = { ...filter, page: undefined };
  return page(
    context,
    `${t(locale, 'dashboard.page.voices')} · ${server.guildName}`,
    html`<p class="hint">${t(locale, 'dashboard.voices.intro')}</p>
      <form method="get" action="${base}" class="search" role="search">
        <div class="field field-wide">
          <label for="filter-q">${t(locale, 'dashboard.frame.searchVoices')}</label>
          <input type="search" id="filter-q" name="q" value="${filter.q ?? ''}" maxlength="60" />
        </div>
        <div class="field">
          <label for="filter-language">${t(locale, 'dashboard.voices.language')}</label>
          <select id="filter-language" name="language">
            ${option('', t(locale, 'dashboard.voices.any'), filter.language)}
            ${view.languages.map(({ code, name }) => option(code, name, filter.language))}
          </select>
        </div>
        <div class="field">
          <label for="filter-gender">${t(locale, 'dashboard.voices.gender')}</label>
          <select id="filter-gender" name="gender">
            ${option('', t(locale, 'dashboard.voices.any'), filter.gender)}
            ${option('f', t(locale, 'dashboard.voices.gender.f'), filter.gender)}
            ${option('m', t(locale, 'dashboard.voices.gender.m'), filter.gender)}
          </select>
        </div>
        <button type="submit">${t(locale, 'dashboard.voices.filter')}</button>
      </form>
      ${
        heard === undefined
          ? ''
          : card(
              samplePart(
                context,
                `${base}/sample${kept(filter)}`,
                heard.fields,
                (id) => `/servers/${server.guildId}/samples/${id}`,
                heard.result,
              ),
              { title: t(locale, 'dashboard.voices.sampleOf', { name: heard.name }), id: 'sample' },
            )
      }
      ${
        view.rows.length === 0
          ? emptyState(t(locale, 'dashboard.voices.noMatch'), t(locale, 'dashboard.frame.noVoiceHint'))
          : html`<p class="hint">${t(locale, 'dashboard.frame.shown', { shown: view.matching, total: view.total })}</p>
              <ul class="voice-list">
                ${view.rows.map((voice) => row(context, server, voice, kept(filter), names.get(voice.language ?? '') ?? voice.language ?? ''))}
              </ul>`
      }
      ${pager(locale, view.page, view.pages, (n) => `${base}${kept({ ...listed, page: n === 1 ? undefined : n })}`)}`,
    { server, current: 'voices' },
  );
}
