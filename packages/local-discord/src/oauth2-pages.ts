// The local Discord's OAuth2 pages: the consent page a browser sees at /oauth2/authorize (who is signed in, what
// the application asks for, Authorize / Cancel) and the error page Discord shows instead of redirecting to an
// unregistered redirect_uri. Server-rendered, no script; every value is HTML-escaped.
import { createHash } from 'node:crypto';
import type { OAuth2Scope } from './types.ts';

/** What the consent page says each scope lets the application do (as Discord's page words it). */
const SCOPE_WORDS: Record<OAuth2Scope, string> = {
  identify: 'Access your username, avatar, and banner',
  email: 'Access your email address',
  guilds: "Know what servers you're in",
  'applications.commands.permissions.update': "Update permissions for this app's commands in servers you manage",
};

const STYLE = [
  'body{font-family:system-ui,sans-serif;background:#313338;color:#dbdee1;margin:0;padding:2rem 1rem}',
  'main{max-width:28rem;margin:0 auto;background:#2b2d31;border-radius:8px;padding:1.5rem}',
  'h1{font-size:1.25rem;color:#f2f3f5}ul{padding-left:1.2rem}',
  'label,select{display:block;margin:.4rem 0}select{width:100%;padding:.4rem}',
  '.actions{display:flex;gap:.75rem;justify-content:flex-end;margin-top:1.5rem}',
  'button{padding:.6rem 1.2rem;border:0;border-radius:4px;font-size:1rem;cursor:pointer}',
  '.authorize{background:#5865f2;color:#fff}.cancel{background:transparent;color:#dbdee1;text-decoration:underline}',
  '.fine{font-size:.8rem;color:#949ba4}',
].join('');

/** Headers of every page: no script may run, nothing may frame it, nothing is cached. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export interface ConsentPageInput {
  /** The pending authorization the form answers (an unguessable, single-use ID). */
  requestId: string;
  applicationName: string;
  scopes: readonly OAuth2Scope[];
  redirectUri: string;
  /** The users one may sign in as (the chooser), and the one preselected: who is signed in in this browser. */
  users: ReadonlyArray<{ id: string; username: string }>;
  signedInUserId: string | undefined;
}

export function consentPage(input: ConsentPageInput): string {
  const options = input.users
    .map(
      (u) =>
        `<option value="${escapeHtml(u.id)}"${u.id === input.signedInUserId ? ' selected' : ''}>${escapeHtml(u.username)} (${escapeHtml(u.id)})</option>`,
    )
    .join('');
  const origin = URL.canParse(input.redirectUri) ? new URL(input.redirectUri).origin : input.redirectUri;
  if (input.users.length === 0)
    return page(
      `Authorize ${input.applicationName}`,
      `<h1>${escapeHtml(input.applicationName)} wants to access your Discord account</h1>
<p role="alert">Nobody is signed in to Discord in this browser, so there is no account to authorize with.</p>
<form method="post" action="/oauth2/authorize">
<input type="hidden" name="request" value="${escapeHtml(input.requestId)}">
<div class="actions"><button class="cancel" type="submit" name="action" value="cancel">Cancel</button></div>
</form>`,
    );
  return page(
    `Authorize ${input.applicationName}`,
    `<h1>${escapeHtml(input.applicationName)} wants to access your Discord account</h1>
<form method="post" action="/oauth2/authorize">
<input type="hidden" name="request" value="${escapeHtml(input.requestId)}">
<label for="user_id">Signed in as</label>
<select id="user_id" name="user_id" required>${options}</select>
<p>This will allow the developer of ${escapeHtml(input.applicationName)} to:</p>
<ul>${input.scopes.map((s) => `<li>${escapeHtml(SCOPE_WORDS[s])}</li>`).join('')}</ul>
<p class="fine">Once you authorize, you will be redirected outside of Discord to: ${escapeHtml(origin)}</p>
<div class="actions"><button class="cancel" type="submit" name="action" value="cancel">Cancel</button><button class="authorize" type="submit" name="action" value="authorize">Authorize</button></div>
</form>`,
  );
}

/** What Discord shows when it will not redirect (an unknown client_id, an unregistered redirect_uri). */
export function errorPage(message: string): string {
  return page('Discord', `<h1>Something went wrong</h1><p role="alert">${escapeHtml(message)}</p>`);
}
