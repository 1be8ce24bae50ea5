// OAuth2 as Discord runs it for a website's "Log in with Discord" (the authorization code grant), on the local
// Discord's own port, so a dashboard logs in with no account. Routes (Discord's documentation, topics/oauth2):
//   GET  /oauth2/authorize   response_type=code, client_id, redirect_uri (exactly a registered one), scope
//                            (identify, email, guilds, applications.commands.permissions.update), state (echoed),
//                            prompt (consent | none): the consent page
//   POST /oauth2/authorize   that page's form: Authorize -> redirect_uri?code=C&state=S, Cancel -> ?error=access_denied
//   POST /api[/vN]/oauth2/token          form-encoded; client auth by HTTP Basic or client_id/client_secret fields;
//                                        grant_type authorization_code (code single-use, 100 s) or refresh_token
//   POST /api[/vN]/oauth2/token/revoke   token; revokes the whole authorization (every token of it)
//   GET  /api[/vN]/oauth2/@me, /users/@me (identify), /users/@me/guilds (guilds)   Authorization: Bearer <token>
// Errors as Discord sends them: the token routes {"error": "invalid_grant", "error_description": ...} (400; 401
// invalid_client), the API 401 {"message": "401: Unauthorized", "code": 0}; an unknown client_id or an unregistered
// redirect_uri gets an error page and no redirect. Codes and tokens expire on Discord's clock (fake.advanceClock).
//
// Who is "logged in" at the consent page: the page has a chooser of every user the local Discord knows, preselected
// with the browser's signed-in user: the one `signInBrowser(userId)` handed that browser alone (a one-time cookie),
// else the one it last authorized as (a cookie of the local Discord's own), else `signIn(userId)`'s. `prompt=none`
// with a signed-in user who already authorized the scopes (`preauthorize`, or an earlier Authorize) redirects at
// once, as Discord does; without one the consent page is shown. With `consentAs: 'signed-in'` the chooser offers
// only that signed-in user (Discord's page: one authorizes as oneself), and the form answered as another is refused.
//
// The test and demo API is `fake.oauth2` (LocalOAuth2): clientId, clientSecret, authorizeUrl, tokenUrl, apiUrl,
// authorizationUrl({...}), registerRedirectUri(uri), signIn(userId | null), signInBrowser(userId),
// preauthorize(userId, scopes), revokeAuthorization(userId), issueCode({...}) (a code without a browser),
// failNext(route, status) (Discord down or limiting), liveTokens(userId), requests (the log).
// PKCE (RFC 7636) as Discord has it: a `code_challenge` at authorize needs `code_challenge_method=S256`, the only
// method Discord supports (else the redirect carries invalid_request, 'Unsupported "code_challenge_method"'); the
// exchange of that code then needs its `code_verifier` (43-128 unreserved characters whose SHA-256, base64url, is the
// challenge): none is 400 invalid_request 'Missing "code_verifier"', a wrong or malformed one 400 invalid_request
// 'Invalid "code_verifier"' (discord-api-docs #5254 and #7046). A refused verifier leaves the code unspent. A
// verifier sent for a code issued without a challenge is 400 invalid_grant and spends the code (RFC 9700 2.1.1, PKCE
// downgrade; Discord's docs do not say what Discord answers, so the RFC's rule is modelled). The
// client still authenticates (a confidential client: Discord's public-client exchange without a secret is not
// modelled).
// Not modelled: the implicit grant (response_type=token), client_credentials, the bot and webhook scopes.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError } from './api-error.ts';
import type { DiscordClock } from './clock.ts';
import { consentPage, errorPage, PAGE_HEADERS } from './oauth2-pages.ts';
import { randomToken } from './snowflake.ts';
import { ALL_PERMISSIONS, userPayload, type UserRecord } from './state.ts';
import type { World } from './world.ts';
import type { FakeOAuth2Options, FakeOtherGuildSpec, OAuth2LogEntry, OAuth2Scope } from './types.ts';

export const OAUTH2_SCOPES: readonly OAuth2Scope[] = [
  'identify',
  'email',
  'guilds',
  'applications.commands.permissions.update',
];
/** Discord's: an access token lives 7 days (expires_in 604800). */
const ACCESS_TOKEN_LIFETIME_S = 604_800;
/** A code is single-use and short-lived: Discord's staff give 100 s (discord-api-docs issue 2526). */
const CODE_LIFETIME_MS = 100_000;
/** How long the consent page's form stays answerable. */
const CONSENT_LIFETIME_MS = 10 * 60_000;
/** Bounds of what the provider keeps; the oldest goes first. */
const MAX_CODES = 1000;
const MAX_TOKENS = 10_000;
const MAX_PENDING = 1000;
const MAX_BROWSERS = 1000;
const MAX_LOG = 1000;
/** The consent page lists at most this many users to sign in as. */
const MAX_CHOOSER = 200;
const MAX_FORM_BYTES = 16 * 1024;
const BROWSER_COOKIE = 'local_discord_browser';
/** A one-time sign-in handed to one browser (signInBrowser), and how long it waits for that browser. */
const SIGN_IN_COOKIE = 'local_discord_sign_in';
const SIGN_IN_LIFETIME_MS = 60_000;

/** PKCE's challenge as sent at authorize (S256: BASE64URL(SHA-256(verifier))): what the exchange must answer. */
interface CodeChallenge {
  challenge: string;
}
interface PendingConsent {
  /** Whom the page offered (consentAs 'signed-in'): the browser's signed-in user, or nobody. */
  only: { userId: string | undefined } | undefined;
  clientId: string;
  redirectUri: string;
  scopes: OAuth2Scope[];
  state: string | undefined;
  pkce: CodeChallenge | undefined;
  expiresAt: number;
}
interface IssuedCode {
  userId: string;
  scopes: OAuth2Scope[];
  redirectUri: string;
  pkce: CodeChallenge | undefined;
  expiresAt: number;
  used: boolean;
  /** Tokens made from it: revoked if the code is presented again (RFC 6749 4.1.2). */
  tokens: string[];
}
interface IssuedToken {
  userId: string;
  scopes: OAuth2Scope[];
  kind: 'access' | 'refresh';
  expiresAt: number;
}
interface Answer {
  status: number;
  json?: unknown;
  html?: string;
  location?: string;
  headers?: Record<string, string | string[]>;
  error?: string;
  grantType?: string;
}

const API_ROUTE =
  /^\/api(?:\/v\d+)?(\/oauth2\/token|\/oauth2\/token\/revoke|\/oauth2\/@me|\/users\/@me|\/users\/@me\/guilds)$/;

/** Keeps a map within `max` entries, dropping the oldest (insertion order). */
function bound<K, V>(map: Map<K, V>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done === true) return;
    map.delete(oldest.value);
  }
}

/** The values of the request's cookies of this name. */
function cookies(req: IncomingMessage, name: string): string[] {
  return (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .filter(([key, value]) => key === name && value !== undefined && value !== '')
    .map(([, value]) => value!);
}

function tokenError(status: number, error: string, description?: string): Answer {
  return {
    status,
    json: { error, ...(description !== undefined ? { error_description: description } : {}) },
    error,
    ...(status === 401 ? { headers: { 'www-authenticate': 'Basic realm="Discord"' } } : {}),
  };
}

const unauthorized = (): Answer => ({ status: 401, json: apiError(401, 0, '401: Unauthorized').body, error: '401' });

function parseScopes(raw: string | null): OAuth2Scope[] | undefined {
  const names = (raw ?? '').split(/\s+/).filter((s) => s !== '');
  if (names.length === 0 || names.some((n) => !OAUTH2_SCOPES.includes(n as OAuth2Scope))) return undefined;
  return [...new Set(names as OAuth2Scope[])];
}

function readForm(req: IncomingMessage): Promise<{ form: URLSearchParams } | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_FORM_BYTES) return resolve('too-large');
      const formEncoded = (req.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('application/x-www-form-urlencoded');
      // Discord takes only form bodies here: JSON reads as an empty form (hence "Grant type None").
      resolve({ form: new URLSearchParams(formEncoded ? Buffer.concat(chunks).toString('utf8') : '') });
    });
    req.on('error', reject);
  });
}

export interface OAuth2Deps {
  world: World;
  clock: DiscordClock;
  options: FakeOAuth2Options;
  /** The local Discord's http://127.0.0.1:PORT, once it listens. */
  baseUrl: () => string;
  report: (line: string) => void;
}

/** Discord's OAuth2 on the local Discord; `fake.oauth2` is this object (see the header for the API). */
export class LocalOAuth2 {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly #deps: OAuth2Deps;
  readonly #redirectUris: Set<string>;
  readonly #otherGuilds: FakeOtherGuildSpec[];
  /** Authorizations of this application: user -> the scopes granted. */
  readonly #grants = new Map<string, Set<OAuth2Scope>>();
  readonly #pending = new Map<string, PendingConsent>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #tokens = new Map<string, IssuedToken>();
  /** A browser's local Discord cookie -> the user it signed in as. */
  readonly #browsers = new Map<string, string>();
  #signedIn: string | undefined;
  /** One-time sign-ins not yet taken by their browser: nonce -> the user and until when. */
  readonly #signIns = new Map<string, { userId: string; expiresAt: number }>();
  readonly #failures: Array<{ route: OAuth2LogEntry['route']; status: number }> = [];
  readonly #log: OAuth2LogEntry[] = [];

  constructor(deps: OAuth2Deps) {
    this.#deps = deps;
    this.clientId = deps.world.applicationId;
    this.clientSecret = deps.options.clientSecret ?? randomToken(24);
    this.#redirectUris = new Set(deps.options.redirectUris ?? []);
    this.#otherGuilds = deps.options.otherGuilds ?? [];
  }

  /** Where a website sends the browser (Discord's https://discord.com/oauth2/authorize). */
  get authorizeUrl(): string {
    return `${this.#deps.baseUrl()}/oauth2/authorize`;
  }

  /** Discord's https://discord.com/api/oauth2/token. */
  get tokenUrl(): string {
    return `${this.#deps.baseUrl()}/api/oauth2/token`;
  }

  /** Discord's https://discord.com/api/oauth2/token/revoke. */
  get revokeUrl(): string {
    return `${this.#deps.baseUrl()}/api/oauth2/token/revoke`;
  }

  /** Discord's https://discord.com/api: `${apiUrl}/users/@me` with a Bearer token. */
  get apiUrl(): string {
    return `${this.#deps.baseUrl()}/api`;
  }

  /** The requests to the OAuth2 routes so far (route and status only; no code, token, secret or state). */
  get requests(): ReadonlyArray<OAuth2LogEntry> {
    return this.#log;
  }

  /** The authorization URL a website would build (scope default `identify guilds`). */
  authorizationUrl(input: { redirectUri: string; state?: string; scopes?: OAuth2Scope[]; prompt?: string }): string {
    const url = new URL(this.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.clientId);
    url.searchParams.set('scope', (input.scopes ?? ['identify', 'guilds']).join(' '));
    url.searchParams.set('redirect_uri', input.redirectUri);
    if (input.state !== undefined) url.searchParams.set('state', input.state);
    if (input.prompt !== undefined) url.searchParams.set('prompt', input.prompt);
    return url.toString();
  }

  /** The owner adds a redirect in the Developer Portal (OAuth2 > Redirects). */
  registerRedirectUri(uri: string): void {
    this.#redirectUris.add(uri);
  }

  /** The user signed in to Discord in a browser that has not authorized as anyone here yet; null: nobody. */
  signIn(userId: string | null): void {
    if (userId !== null) this.#user(userId);
    this.#signedIn = userId ?? undefined;
  }

  /**
   * A sign-in for one browser only: the Set-Cookie to give that browser (host-only, on 127.0.0.1: cookies are per
   * host, not per port, so the local Discord receives it). Its next authorize request within `lifetimeMs` (Discord's
   * clock) finds the user signed in, and the browser stays so; it works once, and every other browser still gets
   * the consent page. For a website that sends its visitor on signed in (the playground's dashboard link), where
   * signIn() would sign in whichever browser comes first.
   */
  signInBrowser(userId: string, lifetimeMs = SIGN_IN_LIFETIME_MS): { setCookie: string } {
    this.#user(userId);
    const nonce = randomToken(24);
    this.#signIns.set(nonce, { userId, expiresAt: this.#deps.clock.now() + lifetimeMs });
    bound(this.#signIns, MAX_BROWSERS);
    const maxAge = Math.max(1, Math.ceil(lifetimeMs / 1000));
    return { setCookie: `${SIGN_IN_COOKIE}=${nonce}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax` };
  }

  /** The user has authorized the application before (so `prompt=none` skips the consent page for these scopes). */
  preauthorize(userId: string, scopes: OAuth2Scope[] = ['identify', 'guilds']): void {
    this.#user(userId);
    this.#grant(userId, scopes);
  }

  /** The user removes the application in their settings (Authorized Apps): its tokens stop working. */
  revokeAuthorization(userId: string): void {
    this.#grants.delete(userId);
    for (const [token, issued] of this.#tokens) if (issued.userId === userId) this.#tokens.delete(token);
  }

  /**
   * A code as if the user had clicked Authorize, for a test of a website's callback without a browser;
   * `codeChallenge`: the S256 challenge the website's authorization URL carried (its exchange then needs the verifier).
   */
  issueCode(input: { userId: string; redirectUri: string; scopes?: OAuth2Scope[]; codeChallenge?: string }): string {
    this.#user(input.userId);
    if (!this.#redirectUris.has(input.redirectUri))
      throw new Error(`LocalOAuth2: ${input.redirectUri} is not a registered redirect URI`);
    const scopes = input.scopes ?? ['identify', 'guilds'];
    this.#grant(input.userId, scopes);
    const pkce = input.codeChallenge === undefined ? undefined : { challenge: input.codeChallenge };
    return this.#newCode(input.userId, scopes, input.redirectUri, pkce);
  }

  /**
   * The next request to `route` fails as Discord does when it is down or limits you (429 with retry_after, 5xx),
   * after its body was read and before anything changed: a code sent then still works once.
   */
  failNext(route: OAuth2LogEntry['route'], status = 503): void {
    this.#failures.push({ route, status });
  }

  /** Access and refresh tokens of this user that still work. */
  liveTokens(userId: string): number {
    const now = this.#deps.clock.now();
    return [...this.#tokens.values()].filter((t) => t.userId === userId && t.expiresAt > now).length;
  }

  /**
   * The user and scopes behind `Authorization: Bearer <access token>` while the token is live, for the REST routes a
   * user's token may call beside these (a command's permissions, rest.ts); undefined for anything else.
   */
  bearer(authorization: string | undefined): { userId: string; scopes: readonly OAuth2Scope[] } | undefined {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    const issued = this.#tokens.get(token);
    if (!issued || issued.kind !== 'access' || issued.expiresAt <= this.#deps.clock.now()) return undefined;
    return { userId: issued.userId, scopes: [...issued.scopes] };
  }

  /** Whether the request is one of these routes (the rest of the REST API is rest.ts'). */
  handles(req: IncomingMessage): boolean {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/oauth2/authorize') return true;
    const match = API_ROUTE.exec(path);
    if (!match) return false;
    // Discord's /users/@me with a bot token is the bot's own: that is rest.ts'.
    return match[1]?.startsWith('/oauth2') === true || /^Bearer /i.test(req.headers.authorization ?? '');
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.#serve(req, res).catch((error: unknown) => {
      this.#deps.report(
        `OAuth2 handler failed for ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}: ${String(error)}`,
      );
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '500: Internal Server Error', code: 0 }));
    });
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const route = url.pathname === '/oauth2/authorize' ? undefined : (API_ROUTE.exec(url.pathname)?.[1] ?? '');
    const entry: OAuth2LogEntry['route'] =
      route === undefined
        ? method === 'POST'
          ? 'consent'
          : 'authorize'
        : route === '/oauth2/token'
          ? 'token'
          : route === '/oauth2/token/revoke'
            ? 'revoke'
            : route === '/oauth2/@me'
              ? 'oauth2/@me'
              : route === '/users/@me'
                ? 'users/@me'
                : 'users/@me/guilds';
    const body = method === 'POST' ? await readForm(req) : undefined;
    const failure = this.#failures.findIndex((f) => f.route === entry);
    const answer =
      failure >= 0
        ? discordFailure(this.#failures.splice(failure, 1)[0]!.status)
        : this.#answer(entry, method, req, url, body);
    this.#record({
      method,
      route: entry,
      status: answer.status,
      ...(answer.grantType !== undefined ? { grantType: answer.grantType } : {}),
      ...(answer.error !== undefined ? { error: answer.error } : {}),
    });
    this.#send(res, answer);
  }

  #answer(
    entry: OAuth2LogEntry['route'],
    method: string,
    req: IncomingMessage,
    url: URL,
    body: Awaited<ReturnType<typeof readForm>> | undefined,
  ): Answer {
    if (body === 'too-large')
      return entry === 'consent'
        ? { status: 413, html: errorPage('Request too large.') }
        : tokenError(413, 'invalid_request', 'Request too large.');
    switch (entry) {
      case 'authorize': {
        if (method !== 'GET') return { status: 405, html: errorPage('Method not allowed.') };
        const handed = this.#takeSignIn(req);
        if (handed === undefined) return this.#authorize(url.searchParams, this.#browserUser(req));
        // The browser a sign-in was handed to: signed in from now on (its own cookie), the one-time one spent.
        const answer = this.#authorize(url.searchParams, handed);
        answer.headers = {
          ...answer.headers,
          'set-cookie': [this.#browserCookie(handed), `${SIGN_IN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`],
        };
        return answer;
      }
      case 'consent':
        return this.#consent(body?.form ?? new URLSearchParams());
      case 'token':
      case 'revoke': {
        if (body === undefined) return { status: 405, json: apiError(405, 0, '405: Method Not Allowed').body };
        const refused = this.#clientAuth(req.headers.authorization, body.form);
        if (refused !== undefined) return refused;
        return entry === 'token' ? this.#token(body.form) : this.#revoke(body.form);
      }
      default:
        return method === 'GET' ? this.#resource(entry, req.headers.authorization, url.searchParams) : unauthorized();
    }
  }

  #send(res: ServerResponse, answer: Answer): void {
    const headers: Record<string, string | string[]> = { ...answer.headers };
    if (answer.location !== undefined) {
      res.writeHead(answer.status, { ...headers, location: answer.location, 'cache-control': 'no-store' }).end();
      return;
    }
    if (answer.html !== undefined) {
      res.writeHead(answer.status, { ...PAGE_HEADERS, ...headers }).end(answer.html);
      return;
    }
    const text = JSON.stringify(answer.json ?? {});
    res
      .writeHead(answer.status, {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        'cache-control': 'no-store',
        pragma: 'no-cache',
      })
      .end(text);
  }

  #record(entry: OAuth2LogEntry): void {
    this.#log.push(entry);
    if (this.#log.length > MAX_LOG) this.#log.splice(0, this.#log.length - MAX_LOG);
  }

  // ---- the browser's side ----

  /** GET /oauth2/authorize: an error page (no redirect) for an unknown client or redirect; then errors redirect. */
  #authorize(query: URLSearchParams, signedIn: string | undefined): Answer {
    const clientId = query.get('client_id');
    if (clientId !== this.clientId) return { status: 400, html: errorPage('Unknown Application.') };
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!this.#redirectUris.has(redirectUri)) return { status: 400, html: errorPage('Invalid OAuth2 redirect_uri.') };
    const state = query.get('state') ?? undefined;
    const back = (params: Record<string, string>): Answer => this.#redirect(redirectUri, params, state);
    if (query.get('response_type') !== 'code')
      return back({
        error: 'unsupported_response_type',
        error_description: 'Only response_type=code is supported here.',
      });
    const challenge = query.get('code_challenge');
    if (challenge !== null && query.get('code_challenge_method') !== 'S256')
      return back({ error: 'invalid_request', error_description: 'Unsupported "code_challenge_method"' });
    const pkce = challenge === null ? undefined : { challenge };
    const scopes = parseScopes(query.get('scope'));
    if (!scopes)
      return back({
        error: 'invalid_scope',
        error_description: 'The requested scope is invalid, unknown, or malformed.',
      });
    const prompt = query.get('prompt') ?? 'consent';
    if (prompt === 'none' && signedIn !== undefined && scopes.every((s) => this.#grants.get(signedIn)?.has(s)))
      return back({ code: this.#newCode(signedIn, scopes, redirectUri, pkce) });
    const requestId = randomToken(24);
    const onlySignedIn = this.#deps.options.consentAs === 'signed-in';
    this.#pending.set(requestId, {
      only: onlySignedIn ? { userId: signedIn } : undefined,
      clientId,
      redirectUri,
      scopes,
      state,
      pkce,
      expiresAt: this.#deps.clock.now() + CONSENT_LIFETIME_MS,
    });
    bound(this.#pending, MAX_PENDING);
    return {
      status: 200,
      html: consentPage({
        requestId,
        applicationName: this.#deps.world.bot.username,
        scopes,
        redirectUri,
        users: onlySignedIn ? this.#users().filter((u) => u.id === signedIn) : this.#users().slice(0, MAX_CHOOSER),
        signedInUserId: signedIn,
      }),
    };
  }

  /** POST /oauth2/authorize: the consent page's Authorize or Cancel. */
  #consent(form: URLSearchParams): Answer {
    const requestId = form.get('request') ?? '';
    const pending = this.#pending.get(requestId);
    this.#pending.delete(requestId);
    if (!pending || pending.expiresAt <= this.#deps.clock.now())
      return { status: 400, html: errorPage('This authorization request has expired. Go back and try again.') };
    if (form.get('action') !== 'authorize')
      return this.#redirect(
        pending.redirectUri,
        { error: 'access_denied', error_description: 'The resource owner or authorization server denied the request' },
        pending.state,
      );
    const userId = form.get('user_id') ?? '';
    if (!this.#findUser(userId)) return { status: 400, html: errorPage('Unknown user.') };
    // On Discord one authorizes as the account signed in, and as no other.
    if (pending.only !== undefined && pending.only.userId !== userId)
      return { status: 403, html: errorPage('You can only authorize as the account signed in to Discord here.') };
    this.#grant(userId, pending.scopes);
    const answer = this.#redirect(
      pending.redirectUri,
      { code: this.#newCode(userId, pending.scopes, pending.redirectUri, pending.pkce) },
      pending.state,
    );
    answer.headers = { 'set-cookie': this.#browserCookie(userId) };
    return answer;
  }

  /** The local Discord's own sign-in, kept per browser (cookies are per host, not per port: the name is its own). */
  #browserCookie(userId: string): string {
    const browser = randomToken(18);
    this.#browsers.set(browser, userId);
    bound(this.#browsers, MAX_BROWSERS);
    return `${BROWSER_COOKIE}=${browser}; Path=/; HttpOnly; SameSite=Lax`;
  }

  /** The user of a one-time sign-in this request's browser was handed, still fresh; spent by the taking. */
  #takeSignIn(req: IncomingMessage): string | undefined {
    for (const nonce of cookies(req, SIGN_IN_COOKIE)) {
      const handed = this.#signIns.get(nonce);
      if (handed === undefined) continue;
      this.#signIns.delete(nonce);
      if (handed.expiresAt > this.#deps.clock.now()) return handed.userId;
    }
    return undefined;
  }

  #redirect(redirectUri: string, params: Record<string, string>, state: string | undefined): Answer {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    if (state !== undefined) url.searchParams.set('state', state);
    return { status: 302, location: url.toString(), ...(params.error !== undefined ? { error: params.error } : {}) };
  }

  #browserUser(req: IncomingMessage): string | undefined {
    for (const value of cookies(req, BROWSER_COOKIE)) {
      const user = this.#browsers.get(value);
      if (user !== undefined) return user;
    }
    return this.#signedIn;
  }

  // ---- the website's side ----

  /** Client authentication (RFC 6749 2.3.1): HTTP Basic, else client_id and client_secret in the form. */
  #clientAuth(authorization: string | undefined, form: URLSearchParams): Answer | undefined {
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
    if (basic !== undefined) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return tokenError(401, 'invalid_client');
      try {
        id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
        secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      } catch {
        return tokenError(401, 'invalid_client');
      }
    }
    if (id !== this.clientId || secret !== this.clientSecret) return tokenError(401, 'invalid_client');
    return undefined;
  }

  #token(form: URLSearchParams): Answer {
    const grantType = form.get('grant_type') ?? undefined;
    const answer =
      grantType === 'authorization_code'
        ? this.#exchangeCode(form)
        : grantType === 'refresh_token'
          ? this.#refresh(form)
          : tokenError(400, 'unsupported_grant_type', `Grant type ${grantType ?? 'None'} is not supported`);
    return { ...answer, grantType: grantType ?? 'none' };
  }

  #exchangeCode(form: URLSearchParams): Answer {
    const code = form.get('code');
    if (code === null || code === '') return tokenError(400, 'invalid_request', 'Missing "code" in request.');
    const issued = this.#codes.get(code);
    if (!issued || issued.expiresAt <= this.#deps.clock.now())
      return tokenError(400, 'invalid_grant', 'Invalid "code" in request.');
    if (issued.used) {
      // A code presented twice was stolen or replayed: what it bought is revoked too (RFC 6749 4.1.2).
      for (const token of issued.tokens) this.#tokens.delete(token);
      return tokenError(400, 'invalid_grant', 'Invalid "code" in request.');
    }
    if (form.get('redirect_uri') !== issued.redirectUri)
      return tokenError(400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
    if (issued.pkce !== undefined) {
      const verifier = form.get('code_verifier');
      if (verifier === null || verifier === '') return tokenError(400, 'invalid_request', 'Missing "code_verifier"');
      if (!verifies(issued.pkce, verifier)) return tokenError(400, 'invalid_request', 'Invalid "code_verifier"');
    } else if (form.has('code_verifier')) {
      // A code bound to no challenge brought with a verifier: a login whose challenge was stripped, redeemed at
      // another's callback (RFC 9700 2.1.1 requires refusing it). Spent, as a replayed code is.
      issued.used = true;
      return tokenError(
        400,
        'invalid_grant',
        'Invalid "code_verifier": the code was issued without a "code_challenge"',
      );
    }
    issued.used = true;
    const answer = this.#newTokens(issued.userId, issued.scopes);
    issued.tokens.push(...answer.tokens);
    return { status: 200, json: answer.json };
  }

  #refresh(form: URLSearchParams): Answer {
    const token = form.get('refresh_token') ?? '';
    const issued = this.#tokens.get(token);
    if (!issued || issued.kind !== 'refresh' || issued.expiresAt <= this.#deps.clock.now())
      return tokenError(400, 'invalid_grant', 'Invalid "refresh_token" in request.');
    this.#tokens.delete(token);
    return { status: 200, json: this.#newTokens(issued.userId, issued.scopes).json };
  }

  /** RFC 7009: 200 whether or not the token was known; Discord revokes the authorization's every token. */
  #revoke(form: URLSearchParams): Answer {
    const token = form.get('token');
    if (token === null || token === '') return tokenError(400, 'invalid_request', 'Missing "token" in request.');
    const issued = this.#tokens.get(token);
    if (issued) this.revokeAuthorization(issued.userId);
    return { status: 200, json: {} };
  }

  #resource(route: OAuth2LogEntry['route'], authorization: string | undefined, query: URLSearchParams): Answer {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    const issued = this.#tokens.get(token);
    if (!issued || issued.kind !== 'access' || issued.expiresAt <= this.#deps.clock.now()) return unauthorized();
    const user = this.#findUser(issued.userId);
    if (!user) return unauthorized();
    if (route === 'oauth2/@me')
      return {
        status: 200,
        json: {
          application: {
            id: this.clientId,
            name: this.#deps.world.bot.username,
            icon: null,
            description: '',
            bot_public: this.#deps.world.botPublic,
            bot_require_code_grant: false,
          },
          scopes: issued.scopes,
          expires: new Date(Date.now() + (issued.expiresAt - this.#deps.clock.now())).toISOString(),
          ...(issued.scopes.includes('identify') ? { user: this.#userPayload(user, false) } : {}),
        },
      };
    if (route === 'users/@me') {
      if (!issued.scopes.includes('identify') && !issued.scopes.includes('email')) return unauthorized();
      return { status: 200, json: this.#userPayload(user, issued.scopes.includes('email')) };
    }
    if (!issued.scopes.includes('guilds')) return unauthorized();
    const badId = ['before', 'after'].some((name) => query.has(name) && !/^\d{1,20}$/.test(query.get(name) ?? ''));
    if (badId) return { status: 400, json: apiError(400, 50035, 'Invalid Form Body').body, error: '50035' };
    return { status: 200, json: this.#guildsOf(user.id, query) };
  }

  // ---- records ----

  #grant(userId: string, scopes: readonly OAuth2Scope[]): void {
    const granted = this.#grants.get(userId) ?? new Set<OAuth2Scope>();
    for (const scope of scopes) granted.add(scope);
    this.#grants.set(userId, granted);
  }

  #newCode(userId: string, scopes: OAuth2Scope[], redirectUri: string, pkce: CodeChallenge | undefined): string {
    const code = randomToken(22);
    this.#codes.set(code, {
      userId,
      scopes,
      redirectUri,
      pkce,
      expiresAt: this.#deps.clock.now() + CODE_LIFETIME_MS,
      used: false,
      tokens: [],
    });
    bound(this.#codes, MAX_CODES);
    return code;
  }

  #newTokens(userId: string, scopes: OAuth2Scope[]): { json: Record<string, unknown>; tokens: string[] } {
    const access = randomToken(22);
    const refresh = randomToken(22);
    const expiresAt = this.#deps.clock.now() + ACCESS_TOKEN_LIFETIME_S * 1000;
    this.#tokens.set(access, { userId, scopes, kind: 'access', expiresAt });
    // A refresh token outlives its access token; Discord does not say by how much (a month here).
    this.#tokens.set(refresh, { userId, scopes, kind: 'refresh', expiresAt: expiresAt + 30 * 86_400_000 });
    bound(this.#tokens, MAX_TOKENS);
    return {
      json: {
        token_type: 'Bearer',
        access_token: access,
        expires_in: ACCESS_TOKEN_LIFETIME_S,
        refresh_token: refresh,
        scope: scopes.join(' '),
      },
      tokens: [access, refresh],
    };
  }

  /** Throws for a user the local Discord does not know (a test's mistake). */
  #user(userId: string): UserRecord {
    const user = this.#findUser(userId);
    if (!user) throw new Error(`LocalOAuth2: unknown user ${userId}`);
    return user;
  }

  /** A person (not a bot) the local Discord knows: a member of a server with the bot or of another server. */
  #findUser(userId: string): UserRecord | undefined {
    const user = this.#deps.world.findUser(userId);
    if (user) return user.bot ? undefined : user;
    for (const guild of this.#otherGuilds) {
      const member = guild.members.find((m) => m.id === userId);
      if (member) return { id: member.id, username: member.username ?? `user-${member.id}`, bot: false };
    }
    return undefined;
  }

  #users(): Array<{ id: string; username: string }> {
    const users = new Map<string, string>();
    for (const guild of this.#deps.world.peopleGuilds())
      for (const member of guild.members.values())
        if (!member.user.bot) users.set(member.user.id, member.user.username);
    for (const guild of this.#otherGuilds)
      for (const member of guild.members)
        if (!users.has(member.id)) users.set(member.id, member.username ?? `user-${member.id}`);
    for (const user of this.#deps.world.formerMembers.values())
      if (!users.has(user.id)) users.set(user.id, user.username);
    return [...users].map(([id, username]) => ({ id, username })).sort((a, b) => a.username.localeCompare(b.username));
  }

  #userPayload(user: UserRecord, withEmail: boolean): Record<string, unknown> {
    let locale = 'en-US';
    for (const guild of this.#deps.world.peopleGuilds()) {
      const found = guild.members.get(user.id)?.locale;
      if (found !== undefined) {
        locale = found;
        break;
      }
    }
    const { bot: _bot, system: _system, ...fields } = userPayload(user);
    return {
      ...fields,
      banner_color: null,
      mfa_enabled: false,
      locale,
      premium_type: 0,
      ...(withEmail ? { email: `${user.username}@users.local-discord.invalid`, verified: true } : {}),
    };
  }

  /** GET /users/@me/guilds: the user's servers, by ID, paged with before/after/limit (1-200, default 200). */
  #guildsOf(userId: string, query: URLSearchParams): unknown[] {
    const withCounts = query.get('with_counts') === 'true';
    const mine: Array<Record<string, unknown> & { id: string }> = [];
    for (const guild of this.#deps.world.peopleGuilds()) {
      if (!guild.members.has(userId)) continue;
      mine.push(
        partialGuild(
          guild.id,
          guild.name,
          guild.ownerId === userId,
          guild.permissionsOf(userId),
          withCounts ? guild.members.size : undefined,
        ),
      );
    }
    for (const guild of this.#otherGuilds) {
      const member = guild.members.find((m) => m.id === userId);
      if (!member) continue;
      const owner = guild.ownerId === userId;
      mine.push(
        partialGuild(
          guild.id,
          guild.name,
          owner,
          owner ? ALL_PERMISSIONS : (member.permissions ?? 0n),
          withCounts ? guild.members.length : undefined,
        ),
      );
    }
    const limit = Math.max(1, Math.min(Number(query.get('limit') ?? 200) || 200, 200));
    const before = query.get('before');
    const after = query.get('after');
    const sorted = mine.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    const inRange = sorted.filter(
      (g) => (before === null || BigInt(g.id) < BigInt(before)) && (after === null || BigInt(g.id) > BigInt(after)),
    );
    return before !== null && after === null ? inRange.slice(-limit) : inRange.slice(0, limit);
  }
}

function discordFailure(status: number): Answer {
  if (status === 429)
    return {
      status,
      json: { message: 'You are being rate limited.', retry_after: 1, global: false },
      headers: { 'retry-after': '1' },
      error: '429',
    };
  return { status, json: { message: `${status}: Service Unavailable`, code: 0 }, error: String(status) };
}

/** RFC 7636 4.1 and 4.6: a verifier of 43-128 unreserved characters whose BASE64URL(SHA-256) is the challenge. */
function verifies(pkce: CodeChallenge, verifier: string): boolean {
  if (!/^[\w.~-]{43,128}$/.test(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === pkce.challenge;
}

/** A guild as GET /users/@me/guilds gives it: `permissions` the member's guild-wide ones, as a string. */
function partialGuild(
  id: string,
  name: string,
  owner: boolean,
  permissions: bigint,
  memberCount: number | undefined,
): Record<string, unknown> & { id: string } {
  return {
    id,
    name,
    icon: null,
    banner: null,
    owner,
    permissions: permissions.toString(),
    features: [],
    ...(memberCount !== undefined ? { approximate_member_count: memberCount, approximate_presence_count: 0 } : {}),
  };
}
