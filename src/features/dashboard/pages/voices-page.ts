// The voices page: a filter (language, gender), the sample last asked for, and one row per voice with what the
// member may do with it (hear, use; a manager: the server default, auto-read's pool; delete a cloned voice).
import { t } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import type { SampleResult } from '../samples.ts';
import { csrfField, html, page, type Html, type PageContext } from './layout.ts';
import { buttonForm } from './button-form.ts';
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
}

/** The sample last asked for: the form that asked (so its price's button asks again), whose voice, what came. */
export interface HeardSample {
  fields: Record<string, string>;
  name: string;
  result: SampleResult;
}

export interface VoicesView {
  rows: readonly VoiceRow[];
  languages: ReadonlyArray<{ code: string; name: string }>;
  filter: VoiceFilter;
  heard: HeardSample | undefined;
}

/** The filter as a query string, kept by every form on the page (a sample heard keeps the list as filtered). */
function kept(filter: VoiceFilter): string {
  const query = new URLSearchParams(
    Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return query === '' ? '' : `?${query}`;
}

function row(context: PageContext, server: Membership, voice: VoiceRow, query: string): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/voices`;
  const key: Record<string, string> = voice.kind === 'preset' ? { preset: voice.id } : { voice: voice.id };
  const tags = [
    voice.mine ? t(locale, 'dashboard.voices.mine') : '',
    voice.isDefault ? t(locale, 'dashboard.voices.default') : '',
    voice.inPool ? t(locale, 'dashboard.voices.inPool') : '',
  ].filter((tag) => tag !== '');
  const actions = [
    buttonForm(context, `${base}/sample${query}`, key, t(locale, 'dashboard.voices.hear', { name: voice.name })),
    voice.kind === 'preset'
      ? ''
      : buttonForm(context, `${base}/use${query}`, key, t(locale, 'dashboard.voices.use', { name: voice.name })),
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
          class="inline"
          data-confirm="${t(locale, 'dashboard.voices.delete', { name: voice.name })}"
        >
          ${csrfField(context)}<input type="hidden" name="voice" value="${voice.id}" />
          <button type="submit" class="danger">${t(locale, 'dashboard.voices.delete', { name: voice.name })}</button>
        </form>`
      : '',
  ];
  return html`<tr data-voice="${voice.id}">
    <td>
      <strong>${voice.name}</strong>
      ${tags.map((tag) => html` <span class="tag">${tag}</span>`)}
      <br /><small>${voice.detail}</small>
    </td>
    <td>${t(locale, `dashboard.voices.kind.${voice.kind}`)}</td>
    <td>${voice.language ?? '—'}</td>
    <td>${voice.gender === undefined ? '—' : t(locale, `dashboard.voices.gender.${voice.gender}`)}</td>
    <td class="voice-actions">${actions}</td>
  </tr>`;
}

export function voicesPage(context: PageContext, server: Membership, view: VoicesView): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/voices`;
  const { filter, heard } = view;
  const option = (value: string, label: string, chosen: string | undefined) =>
    html`<option value="${value}" ${value === (chosen ?? '') ? 'selected' : ''}>${label}</option>`;
  return page(
    context,
    `${t(locale, 'dashboard.page.voices')} · ${server.guildName}`,
    html` <p>${t(locale, 'dashboard.voices.intro')}</p>
      <form method="get" action="${base}" class="search">
        <label for="filter-language">${t(locale, 'dashboard.voices.language')}</label>
        <select id="filter-language" name="language">
          ${option('', t(locale, 'dashboard.voices.any'), filter.language)}
          ${view.languages.map(({ code, name }) => option(code, name, filter.language))}
        </select>
        <label for="filter-gender">${t(locale, 'dashboard.voices.gender')}</label>
        <select id="filter-gender" name="gender">
          ${option('', t(locale, 'dashboard.voices.any'), filter.gender)}
          ${option('f', t(locale, 'dashboard.voices.gender.f'), filter.gender)}
          ${option('m', t(locale, 'dashboard.voices.gender.m'), filter.gender)}
        </select>
        <button type="submit">${t(locale, 'dashboard.voices.filter')}</button>
      </form>
      ${
        heard === undefined
          ? ''
          : html`<section aria-label="${t(locale, 'dashboard.voices.sampleOf', { name: heard.name })}">
              <h2>${t(locale, 'dashboard.voices.sampleOf', { name: heard.name })}</h2>
              ${samplePart(context, `${base}/sample${kept(filter)}`, heard.fields, (id) => `/servers/${server.guildId}/samples/${id}`, heard.result)}
            </section>`
      }
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">${t(locale, 'dashboard.voices.voice')}</th>
              <th scope="col">${t(locale, 'dashboard.voices.kind')}</th>
              <th scope="col">${t(locale, 'dashboard.voices.language')}</th>
              <th scope="col">${t(locale, 'dashboard.voices.gender')}</th>
              <th scope="col">${t(locale, 'dashboard.dictionary.actions')}</th>
            </tr>
          </thead>
          <tbody>
            ${view.rows.map((voice) => row(context, server, voice, kept(filter)))}
          </tbody>
        </table>
      </div>
      ${view.rows.length === 0 ? html`<p>${t(locale, 'dashboard.voices.noMatch')}</p>` : ''}`,
    { server, current: 'voices' },
  );
}
