// Every member's pages in a server: my voice (one form field per declared setting) and my data.
import type { SettingDeclaration } from '../../../core/settings/setting-types.ts';
import { t, type MessageKey } from '../strings.ts';
import type { Membership } from '../dashboard-types.ts';
import { LOADED_PREFIX } from '../form-options.ts';
import { autosave, card, inline, toggle } from './components.ts';
import { csrfField, html, page, type Html, type PageContext } from './layout.ts';
import { samplePart } from './sample-part.ts';
import type { SampleResult } from '../samples.ts';

/** A voice the member may choose: its ID, and how it is described (cloned here, a preset, the free voice). */
export interface VoiceChoice {
  id: string;
  label: string;
}

/** A setting's field, beside its value as loaded (`was_<option>`), so a save never undoes a change made since. */
export function field(...args: Parameters<typeof input>): Html {
  const [, , declared, , value] = args;
  if (declared.kind === 'role') return html``;
  const loaded =
    declared.kind === 'flag'
      ? String(typeof value === 'boolean' ? value : declared.default)
      : value === undefined || value === null
        ? ''
        : String(value);
  return html`<input type="hidden" name="${LOADED_PREFIX}${declared.option}" value="${loaded}" />${input(...args)}`;
}

/** The field itself (field's arguments). */
function input(
  locale: string,
  name: string,
  declared: SettingDeclaration,
  voices: readonly VoiceChoice[],
  value?: unknown,
  help?: string,
): Html {
  const id = `set-${name}`;
  const text = t(locale, `option.${declared.option}` as MessageKey);
  const label = html`<label for="${id}">${text}</label>`;
  const described = help === undefined ? '' : html` aria-describedby="help-${name}"`;
  const hint = help === undefined ? '' : html`<small id="help-${name}" class="hint">${help}</small>`;
  const shown = value === undefined || value === null ? '' : String(value);
  const unchanged = html`<option value="">—</option>`;
  switch (declared.kind) {
    case 'flag':
      return toggle({
        name: declared.option,
        id,
        label: text,
        checked: typeof value === 'boolean' ? value : declared.default,
        ...(help === undefined ? {} : { description: help }),
      });
    case 'integer':
    case 'number':
      return html`${label}<input
          type="number"
          id="${id}"
          name="${declared.option}"
          min="${declared.range.min}"
          max="${declared.range.max}"
          step="${declared.kind === 'integer' ? 1 : 'any'}"
          value="${shown}"
          ${described}
        />${hint}`;
    case 'choice':
      return html`${label}<select id="${id}" name="${declared.option}" ${described}>
          ${unchanged}${declared.values.map(
            (choice) => html`<option value="${choice}" ${choice === shown ? 'selected' : ''}>${choice}</option>`,
          )}</select
        >${hint}`;
    case 'text':
      // The voice is picked from every voice this server may use (no 25 at a time): a list the browser filters.
      return html`${label}<input
          type="text"
          id="${id}"
          name="${declared.option}"
          maxlength="${declared.maxLength}"
          ${name === 'voice' ? html`list="voices" autocomplete="off"` : ''}
          value="${shown}"
          ${described}
        />${hint}${
          name === 'voice'
            ? html`<datalist id="voices">
                ${voices.map((voice) => html`<option value="${voice.id}">${voice.label}</option>`)}
              </datalist>`
            : ''
        }`;
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
  values: Readonly<Record<string, unknown>>,
  sample?: SampleResult,
): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/myvoice`;
  return page(
    context,
    `${t(locale, 'dashboard.page.myvoice')} · ${server.guildName}`,
    html`<p class="hint">${t(locale, 'dashboard.myvoice.intro')}</p>
      <section class="card" id="myvoice-current" data-refresh>
        <p>
          ${current === undefined ? t(locale, 'dashboard.myvoice.none') : t(locale, 'dashboard.myvoice.current', { settings: current })}
        </p>
        <div class="button-row">
          <form method="post" action="${base}/sample">
            ${csrfField(context)}
            <button type="submit" class="secondary">${t(locale, 'dashboard.sample.button')}</button>
          </form>
          <form method="post" action="${base}/clear" ${inline}>
            ${csrfField(context)}
            <button type="submit" class="secondary">${t(locale, 'dashboard.myvoice.clear')}</button>
          </form>
        </div>
        ${samplePart(context, `${base}/sample`, {}, (id) => `/servers/${server.guildId}/samples/${id}`, sample)}
      </section>
      <form method="post" action="${base}" class="card" id="myvoice-form" ${inline} ${autosave} data-refresh>
        ${csrfField(context)}
        <div class="settings-grid">
          ${settings.map(
            ([name, declared]) => html`<div class="field">${field(locale, name, declared, voices, values[name])}</div>`,
          )}
        </div>
        <button type="submit">${t(locale, 'dashboard.myvoice.save')}</button>
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
      ${card(
        html`<p>${t(locale, 'dashboard.mydata.deleteHelp')}</p>
          <form method="post" action="${base}/delete" data-confirm="${t(locale, 'dashboard.mydata.delete')}">
            ${csrfField(context)}
            <button type="submit" class="danger">${t(locale, 'dashboard.mydata.delete')}</button>
          </form>`,
        { title: t(locale, 'dashboard.mydata.delete'), id: 'delete', variant: 'danger' },
      )}`,
    { server, current: 'mydata' },
  );
}
