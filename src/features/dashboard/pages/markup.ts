// hono's `html` escapes every value put in it (names and readings show as text); `raw` for what is markup already.
import { html as honoHtml, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString;

/** hono's `html`, for the synchronous fragments these pages are made of (no promise is ever put in one). */
export const html = honoHtml as (strings: TemplateStringsArray, ...values: unknown[]) => Html;
export { raw };
