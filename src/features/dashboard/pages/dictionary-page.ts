// The managers' dictionary page, in plain forms: it works without script.
import {
  MAX_ENTRIES,
  MAX_PATTERN_LENGTH,
  MAX_READING_LENGTH,
  MAX_WORD_LENGTH,
  isPattern,
} from '../../autoread/index-dictionary.ts';
import type { DictionaryRecord } from '../../autoread/index-dictionary.ts';
import { t } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import { ENTRIES_PER_PAGE } from '../limits.ts';
import { emptyState, inline, pager, table } from './components.ts';
import { csrfField, html, page, type Html, type PageContext } from './layout.ts';
import { samplePart } from './sample-part.ts';
import type { SampleResult } from '../samples.ts';

export interface DictionaryView {
  /** The entries shown (those matching the search), each with its place in the whole order. */
  rows: ReadonlyArray<{ record: DictionaryRecord; position: number }>;
  query: string;
  /** How many entries match the search; this page of them and how many pages there are. */
  matching: number;
  page: number;
  pages: number;
  /** Display names of who changed entries, by user ID, where SayBot knows them. */
  names: ReadonlyMap<string, string>;
  /** "Try a sentence": the text tried and what auto-read would say, with its cost in characters. */
  tried?: { text: string; said: string; chars: number } | undefined;
  /** Hearing what was tried: its price first, then the audio. */
  sample?: SampleResult | undefined;
}

const nameOf = (record: DictionaryRecord): string =>
  isPattern(record.entry) ? record.entry.pattern : record.entry.word;

/** Hidden fields naming an entry: its kind and its word (or pattern). */
const entryFields = (record: DictionaryRecord): Html =>
  html`<input type="hidden" name="kind" value="${isPattern(record.entry) ? 'pattern' : 'word'}" /><input
      type="hidden"
      name="word"
      value="${nameOf(record)}"
    />`;

function row(
  context: PageContext,
  base: string,
  record: DictionaryRecord,
  position: number,
  view: DictionaryView,
  keep: string,
): Html {
  const { locale } = context;
  const name = nameOf(record);
  const who = view.names.get(record.updatedBy) ?? (record.updatedBy.startsWith('forgotten:') ? '—' : record.updatedBy);
  const when = new Date(record.updatedAt).toISOString().slice(0, 16).replace('T', ' ');
  const id = `entry-${position}`;
  return html`<tr>
    <td>${position}</td>
    <th scope="row" id="${id}">
      ${name}${isPattern(record.entry) ? html` <span class="tag">${t(locale, 'dashboard.dictionary.pattern')}</span>` : ''}
    </th>
    <td>
      <form method="post" action="${base}/add${keep}" class="row-form" ${inline}>
        ${csrfField(context)}${entryFields(record)}
        <input
          type="text"
          name="reading"
          value="${record.entry.reading}"
          maxlength="${MAX_READING_LENGTH}"
          aria-label="${t(locale, 'dashboard.dictionary.reading')}: ${name}"
          required
        />
        <button type="submit" aria-describedby="${id}">${t(locale, 'dashboard.dictionary.save')}</button>
      </form>
    </td>
    <td class="who-when">${who}</td>
    <td class="who-when"><time datetime="${new Date(record.updatedAt).toISOString()}">${when}</time></td>
    <td class="actions">
      <details class="more">
        <summary aria-label="${t(locale, 'dashboard.frame.moreFor', { name })}">
          <svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M5 10h.01M10 10h.01M15 10h.01" />
          </svg>
        </summary>
        <div class="more-menu">
          <form method="post" action="${base}/move${keep}" class="row-form">
            ${csrfField(context)}${entryFields(record)}
            <input
              type="number"
              name="position"
              min="1"
              max="${MAX_ENTRIES}"
              value="${position}"
              aria-label="${t(locale, 'dashboard.dictionary.moveTo')}: ${name}"
            />
            <button type="submit" class="secondary" aria-describedby="${id}">
              ${t(locale, 'dashboard.dictionary.move')}
            </button>
          </form>
          <form
            method="post"
            action="${base}/remove${keep}"
            class="row-form"
            data-confirm="${t(locale, 'dashboard.dictionary.remove')}: ${name}"
          >
            ${csrfField(context)}${entryFields(record)}
            <button type="submit" class="danger" aria-describedby="${id}">
              ${t(locale, 'dashboard.dictionary.remove')}
            </button>
          </form>
        </div>
      </details>
    </td>
  </tr>`;
}

export function dictionaryPage(context: PageContext, server: Membership, view: DictionaryView, total: number): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/dictionary`;
  const shown = view.rows;
  /** The search and page shown, kept by every change made from the list. */
  const keep = (page: number) => {
    const query = new URLSearchParams();
    if (view.query !== '') query.set('q', view.query);
    if (page > 1) query.set('page', String(page));
    return query.size === 0 ? '' : `?${query.toString()}`;
  };
  const from = (view.page - 1) * ENTRIES_PER_PAGE + 1;
  const list =
    total === 0
      ? emptyState(t(locale, 'dashboard.dictionary.empty'), t(locale, 'dashboard.try.help'))
      : shown.length === 0
        ? emptyState(t(locale, 'dashboard.dictionary.noMatch'), '')
        : html`${table(
            [
              t(locale, 'dashboard.dictionary.order'),
              t(locale, 'dashboard.dictionary.word'),
              t(locale, 'dashboard.dictionary.reading'),
              t(locale, 'dashboard.dictionary.changedBy'),
              t(locale, 'dashboard.dictionary.changedAt'),
              t(locale, 'dashboard.actions'),
            ],
            shown.map(({ record, position }) => row(context, base, record, position, view, keep(view.page))),
            {
              wrap: ' dictionary-wrap',
              attrs: html` class="stacked dictionary"`,
              caption: html`<caption>
                ${t(locale, 'dashboard.dictionary.count', { count: total, max: MAX_ENTRIES })}
                ${
                  view.pages > 1 || view.matching !== total
                    ? html` ·
                      ${t(locale, 'dashboard.frame.entries', { from, to: from + shown.length - 1, total: view.matching })}`
                    : ''
                }
              </caption>`,
            },
          )}
          ${pager(locale, view.page, view.pages, (n) => `${base}${keep(n)}`)}`;
  const tried = view.tried
    ? html`<div class="tried" role="status">
        <p>${view.tried.said === '' ? t(locale, 'dashboard.try.nothing') : t(locale, 'dashboard.try.result')}</p>
        ${
          view.tried.said === ''
            ? ''
            : html`<blockquote lang="${server.guildLanguage.slice(0, 2)}">${view.tried.said}</blockquote>
                <p>${t(locale, 'dashboard.try.cost', { chars: view.tried.chars })}</p>
                ${
                  view.sample === undefined
                    ? html`<form method="post" action="${base}/hear">
                        ${csrfField(context)}<input type="hidden" name="text" value="${view.tried.text}" />
                        <button type="submit">${t(locale, 'dashboard.try.hear')}</button>
                      </form>`
                    : samplePart(
                        context,
                        `${base}/hear`,
                        { text: view.tried.text },
                        (id) => `/servers/${server.guildId}/samples/${id}`,
                        view.sample,
                      )
                }`
        }
      </div>`
    : '';
  return page(
    context,
    `${t(locale, 'dashboard.page.dictionary')} · ${server.guildName}`,
    html`<form method="get" action="${base}" role="search" class="search">
        <div class="field field-wide">
          <label for="q">${t(locale, 'dashboard.dictionary.search')}</label>
          <input type="search" id="q" name="q" value="${view.query}" maxlength="100" />
        </div>
        <button type="submit">${t(locale, 'dashboard.dictionary.searchButton')}</button>
      </form>
      ${list}
      <div class="cards">
        <section aria-labelledby="add-heading" class="card">
          <h2 id="add-heading">${t(locale, 'dashboard.dictionary.add')}</h2>
          <form method="post" action="${base}/add" class="stack">
            ${csrfField(context)}
            <label for="add-word">${t(locale, 'dashboard.dictionary.word')}</label>
            <input
              type="text"
              id="add-word"
              name="word"
              maxlength="${MAX_WORD_LENGTH}"
              data-word-maxlength="${MAX_WORD_LENGTH}"
              data-pattern-maxlength="${MAX_PATTERN_LENGTH}"
              required
            />
            <label class="check"
              ><input type="checkbox" name="kind" value="pattern" />
              ${t(locale, 'dashboard.dictionary.isPattern')}</label
            >
            <label for="add-reading">${t(locale, 'dashboard.dictionary.reading')}</label>
            <input type="text" id="add-reading" name="reading" maxlength="${MAX_READING_LENGTH}" required />
            <button type="submit">${t(locale, 'dashboard.dictionary.addButton')}</button>
          </form>
        </section>
        <section aria-labelledby="try-heading" class="card">
          <h2 id="try-heading">${t(locale, 'dashboard.try')}</h2>
          <p>${t(locale, 'dashboard.try.help')}</p>
          <form method="post" action="${base}/try" class="stack">
            ${csrfField(context)}
            <label for="try-text">${t(locale, 'dashboard.try.text')}</label>
            <textarea id="try-text" name="text" maxlength="2000" rows="3" required>${view.tried?.text ?? ''}</textarea>
            <button type="submit">${t(locale, 'dashboard.try.button')}</button>
          </form>
          ${tried}
        </section>
        <section aria-labelledby="io-heading" class="card">
          <h2 id="io-heading">${t(locale, 'dashboard.dictionary.io')}</h2>
          <p>
            <a class="button secondary" href="${base}/export" download="dictionary.json"
              >${t(locale, 'dashboard.dictionary.export')}</a
            >
          </p>
          <form
            method="post"
            action="${base}/import"
            enctype="multipart/form-data"
            class="stack"
            data-confirm="${t(locale, 'dashboard.dictionary.import')}"
          >
            ${csrfField(context)}
            <label for="import-file">${t(locale, 'dashboard.dictionary.import')}</label>
            <input type="file" id="import-file" name="file" accept=".json,application/json" required />
            <button type="submit" class="secondary">${t(locale, 'dashboard.dictionary.importButton')}</button>
          </form>
        </section>
      </div>`,
    { server, current: 'dictionary' },
  );
}
