// The markup every page is made of: hono's `html`, which escapes every value put in it (a member's name or a
// dictionary reading is shown as text, never read as markup), and `raw` for the little that is markup already.
import { html as honoHtml, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString;

/** hono's `html`, for the synchronous fragments these pages are made of (no promise is ever put in one). */
export const html = honoHtml as (strings: TemplateStringsArray, ...values: unknown[]) => Html;
export { raw };
