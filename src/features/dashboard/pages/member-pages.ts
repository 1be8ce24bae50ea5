// Every member's pages in a server: my voice (/myvoice's settings, one form field per declared setting) and my data
// (/privacy show and delete).
import type { SettingDeclaration } from '../../../core/settings/setting-types.ts';
import { t, type MessageKey } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import { csrfField, html, page, type Html, type PageContext } from './layout.ts';
import { samplePart } from './sample-part.ts';
import type { SampleResult } from '../samples.ts';

/** A voice the member may choose: its ID, and how it is described (cloned here, a preset, the free voice). */
export interface VoiceChoice {
  id: string;
  label: string;
}

/** One setting's form field (my voice, auto-read), as its declaration says: a choice is a list, a flag yes/no, a number its range. */
export function field(
  locale: string,
  name: string,
  declared: SettingDeclaration,
  voices: readonly VoiceChoice[],
): Html {
  const id = `set-${name}`;
  const label = html`<label for="${id}">${t(locale, `option.${declared.option}` as MessageKey)}</label>`;
  const unchanged = html`<option value="">—</option>`;
  switch (declared.kind) {
    case 'flag':
      return html`${label}<select id="${id}" name="${declared.option}">
          ${unchanged}
          <option value="true">✓</option>
          <option value="false">✗</option>
        </select>`;
    case 'integer':
    case 'number':
      return html`${label}<input
          type="number"
          id="${id}"
          name="${declared.option}"
          min="${declared.range.min}"
          max="${declared.range.max}"
          step="${declared.kind === 'integer' ? 1 : 'any'}"
        />`;
    case 'choice':
      return html`${label}<select id="${id}" name="${declared.option}">
          ${unchanged}${declared.values.map((value) => html`<option value="${value}">${value}</option>`)}
        </select>`;
    case 'text':
      // The voice is picked from every voice this server may use (no 25 at a time): a list the browser filters.
      if (name === 'voice')
        return html`${label}<input
            type="text"
            id="${id}"
            name="${declared.option}"
            maxlength="${declared.maxLength}"
            list="voices"
            autocomplete="off"
          />
          <datalist id="voices">
            ${voices.map((voice) => html`<option value="${voice.id}">${voice.label}</option>`)}
          </datalist>`;
      return html`${label}<input type="text" id="${id}" name="${declared.option}" maxlength="${declared.maxLength}" />`;
    case 'role':
      return html``;
  }
}

export function myVoicePage(
  context: PageContext,
  server: Membership,
  settings: ReadonlyArray<readonly [string, SettingDeclaration]>,
  current: string | undefined,
  voices: readonly VoiceChoice[],
  sample?: SampleResult,
): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/myvoice`;
  return page(
    context,
    `${t(locale, 'dashboard.page.myvoice')} · ${server.guildName}`,
    html` <p>${t(locale, 'dashboard.myvoice.intro')}</p>
      <p>
        ${current === undefined ? t(locale, 'dashboard.myvoice.none') : t(locale, 'dashboard.myvoice.current', { settings: current })}
      </p>
      <form method="post" action="${base}" class="stack">
        ${csrfField(context)} ${settings.map(([name, declared]) => field(locale, name, declared, voices))}
        <button type="submit">${t(locale, 'dashboard.myvoice.save')}</button>
      </form>
      <form method="post" action="${base}/sample" class="stack">
        ${csrfField(context)}
        <button type="submit">${t(locale, 'dashboard.sample.button')}</button>
      </form>
      ${samplePart(context, `${base}/sample`, {}, (id) => `/servers/${server.guildId}/samples/${id}`, sample)}
      <form method="post" action="${base}/clear" class="stack">
        ${csrfField(context)}
        <button type="submit">${t(locale, 'dashboard.myvoice.clear')}</button>
      </form>`,
    { server, current: 'myvoice' },
  );
}

export function myDataPage(context: PageContext, server: Membership, lines: readonly string[]): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/mydata`;
  return page(
    context,
    `${t(locale, 'dashboard.page.mydata')} · ${server.guildName}`,
    html` <p>${t(locale, 'dashboard.mydata.intro')}</p>
      ${
        lines.length === 0
          ? html`<p>${t(locale, 'dashboard.mydata.none')}</p>`
          : html`<ul>
              ${lines.map((line) => html`<li>${line}</li>`)}
            </ul>`
      }
      <h2>${t(locale, 'dashboard.mydata.delete')}</h2>
      <p>${t(locale, 'dashboard.mydata.deleteHelp')}</p>
      <form method="post" action="${base}/delete" data-confirm="${t(locale, 'dashboard.mydata.delete')}">
        ${csrfField(context)}
        <button type="submit" class="danger">${t(locale, 'dashboard.mydata.delete')}</button>
      </form>`,
    { server, current: 'mydata' },
  );
}
