// A change of one click: a form posting its hidden fields and the CSRF token to `action`, as one button.
import { csrfField, html, type Html, type PageContext } from './layout.ts';

export function buttonForm(
  context: PageContext,
  action: string,
  fields: Readonly<Record<string, string>>,
  label: string,
): Html {
  return html`<form method="post" action="${action}" class="inline">
    ${csrfField(context)}${Object.entries(fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}<button type="submit">${label}</button>
  </form>`;
}
