// A sample on a page: its price and the button that pays it, or the player, or why it was refused.
import { t } from '../strings.ts';
import type { SampleResult } from '../samples.ts';
import { csrfField, html, type Html, type PageContext } from './layout.ts';

/** What a sample request came to: the form that asked (a quote's button asks again) and where its audio is served. */
export function samplePart(
  context: PageContext,
  action: string,
  fields: Readonly<Record<string, string>>,
  audioPath: (id: string) => string,
  result: SampleResult | undefined,
): Html | '' {
  const { locale } = context;
  if (result === undefined) return '';
  if (result.kind === 'refused')
    return html`<p class="notice error" role="alert">${t(locale, result.message.key, result.message.params)}</p>`;
  if (result.kind === 'quote')
    return html`<div class="sample" role="status">
      <p>${t(locale, 'dashboard.sample.cost', { chars: result.characters })}</p>
      <form method="post" action="${action}">
        ${csrfField(context)}${Object.entries(fields).map(
          ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
        )}<input type="hidden" name="paid" value="${result.characters}" />
        <button type="submit">${t(locale, 'dashboard.sample.pay', { chars: result.characters })}</button>
      </form>
    </div>`;
  return html`<div class="sample" role="status">
    <audio controls src="${audioPath(result.id)}" aria-label="${t(locale, 'dashboard.sample.player')}"></audio>
    ${result.notes.map((note) => html`<p>${t(locale, note.key, note.params)}</p>`)}
    <p>
      ${result.characters === 0 ? t(locale, 'dashboard.sample.free') : t(locale, 'dashboard.sample.paid', { chars: result.characters })}
    </p>
  </div>`;
}
