// The checks every request passes before a route: headers, limits, session, Origin and CSRF, membership, managers;
// and the audit line each change leaves.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { Ctx, DashboardBot, DashboardEnv } from './dashboard-types.ts';
import type { DashboardLimits } from './limits.ts';
import { localeOf, type Html, type PageContext } from './pages/layout.ts';
import { messagePage } from './pages/server-pages.ts';
import type { RateLimit } from './rate-limit.ts';
import { SECRET_SHAPE, csrfTokenOf, hashSessionId, sameSecret } from './session-tokens.ts';
import type { Logger } from '../../core/log.ts';
import type { Store } from '../../core/store/types.ts';
import { describeFailure } from '../speaking/index-words.ts';
import { t, type MessageKey } from './strings.ts';

type Guard = MiddlewareHandler<DashboardEnv>;

/** The page context of a request: its language, the signed-in member's name and CSRF token. */
export const pageContext = (c: Ctx, notice?: PageContext['notice']): PageContext => {
  const session = c.get('session');
  return {
    locale: c.get('locale'),
    member: session && { name: session.userName, csrf: session.csrf },
    notice,
  };
};

/** `guards` before every route at `path` and below it. */
export function guard(app: Hono<DashboardEnv>, path: string, ...guards: Guard[]): void {
  for (const each of [path, `${path}/*`]) app.use(each, ...guards);
}

/** The signed-in member's user ID ('' before sign-in, where no route that needs it runs). */
export const userOf = (c: Ctx): string => c.get('session')?.userId ?? '';

/** One line per dashboard change: who, what, which server, counts; never a secret nor an entry's text. */
export function audit(
  logger: Logger,
  action: string,
  who: { userId: string; guildId?: string | undefined },
  counts: Record<string, number> = {},
): void {
  logger.info({ audit: action, userId: who.userId, guildId: who.guildId, ...counts }, 'dashboard change');
}

/** A refusal worded as the commands word it (a UserError, a setting out of range), as a notice; anything else throws. */
export function refusedNotice(c: Ctx, error: unknown): NonNullable<PageContext['notice']> {
  const { message, code } = describeFailure(error);
  if (code === 'internal') throw error;
  return { kind: 'error', text: t(c.get('locale'), message.key, message.params) };
}

/** A page that only says `key`, with its status. */
export const refusal = (c: Ctx, status: 400 | 403 | 404 | 413 | 429 | 500 | 502, key: MessageKey, params = {}) =>
  c.html(messagePage(pageContext(c), t(c.get('locale'), key, params)) as Html, status);

/** A form whose fields do not fit: the app answers it with a 400 page naming `what` (dashboard-app.ts). */
export class BadForm extends Error {
  readonly what: string;

  constructor(what: string) {
    super(`a form that does not fit (${what})`);
    this.what = what;
  }
}

/** A form's fields, as zod reads them; BadForm when they do not fit. */
export async function form<T>(c: Ctx, schema: z.ZodType<T>, what = 'form'): Promise<T> {
  const parsed = schema.safeParse(await c.req.parseBody());
  if (!parsed.success) throw new BadForm(what);
  return parsed.data;
}

/** Headers on every answer: a CSP without inline script or framing, nosniff, no referrer, no caching; HSTS on https. */
export function securityHeaders(secure: boolean, discordCdn = 'https://cdn.discordapp.com'): Guard {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Server icons and avatars: from Discord's CDN only (its origin, no other host).
    `img-src 'self' ${new URL(discordCdn).origin}`,
    "media-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set('Content-Security-Policy', csp);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('X-Frame-Options', 'DENY');
    // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on the pages' own forms.
    headers.set('Referrer-Policy', 'same-origin');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    if (!c.req.path.startsWith('/static/')) headers.set('Cache-Control', 'no-store');
    if (secure) headers.set('Strict-Transport-Security', 'max-age=31536000');
  };
}

/** The language of the answer (Accept-Language). */
export const detectLocale: Guard = async (c, next) => {
  c.set('locale', localeOf(c.req.header('accept-language')));
  c.set('session', undefined);
  await next();
};

/** The socket's address, or from the trusted proxy the last X-Forwarded-For address (earlier ones are the client's). */
export function addressOf(c: Ctx, trustedProxy: string | undefined): string {
  const socket = getConnInfo(c).remote.address ?? 'unknown';
  if (trustedProxy === undefined || socket !== trustedProxy) return socket;
  const forwarded = c.req.header('x-forwarded-for')?.slice(-200).split(',').at(-1)?.trim();
  return forwarded === undefined || forwarded === '' ? socket : forwarded;
}

/** A limit per address; past it a 429 page. */
export function perAddress(limit: RateLimit, trustedProxy: string | undefined): Guard {
  return async (c, next) => {
    if (!limit.take(addressOf(c, trustedProxy))) return refusal(c, 429, 'dashboard.tooMany');
    await next();
  };
}

/** Bodies bounded: an import's file up to its limit, anything else far smaller. */
export function boundedBodies(limits: DashboardLimits): Guard {
  const onError = (c: Ctx) => refusal(c, 413, 'dashboard.tooLarge');
  const small = bodyLimit({ maxSize: limits.bodyBytes, onError });
  const large = bodyLimit({ maxSize: limits.importBytes, onError });
  return (c, next) => (c.req.path.endsWith('/dictionary/import') ? large(c, next) : small(c, next));
}

/** The session the cookie names, if it is live (store.dashboardSessions: idle and absolute expiry). */
export function loadSession(store: Store, cookieName: string, limits: DashboardLimits, now: () => number): Guard {
  const lifetimes = { idleMs: limits.sessionIdleMs, absoluteMs: limits.sessionAbsoluteMs };
  return async (c, next) => {
    const id = getCookie(c, cookieName);
    if (id !== undefined && SECRET_SHAPE.test(id)) {
      const found = await store.dashboardSessions.find(hashSessionId(id), now(), lifetimes);
      if (found) c.set('session', { ...found, id, csrf: csrfTokenOf(id) });
    }
    await next();
  };
}

/** Every change (not GET or HEAD): own Origin, a signed-in member, their CSRF token, their changes per minute. */
export function guardChanges(origin: string, limit: RateLimit): Guard {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (c.req.header('origin') !== origin) return refusal(c, 403, 'dashboard.csrf');
    const session = c.get('session');
    if (session === undefined) return refusal(c, 403, 'dashboard.csrf');
    const type = c.req.header('content-type') ?? '';
    let token = c.req.header('x-csrf-token');
    if (token === undefined && /^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(type)) {
      const body = await c.req.parseBody();
      token = typeof body['_csrf'] === 'string' ? body['_csrf'] : undefined;
    }
    if (!sameSecret(token, session.csrf)) return refusal(c, 403, 'dashboard.csrf');
    if (!limit.take(session.idHash)) return refusal(c, 429, 'dashboard.tooMany');
    await next();
  };
}

const GuildParam = z.string().regex(/^\d{17,20}$/);

/** A server's pages: a signed-in member of a server SayBot serves; anything else is "no such page". */
export function serverAccess(bot: DashboardBot): Guard {
  return async (c, next) => {
    const session = c.get('session');
    if (session === undefined) return c.redirect('/', 303);
    const guildId = GuildParam.safeParse(c.req.param('guildId'));
    if (!guildId.success || !bot.serves(guildId.data)) return refusal(c, 404, 'dashboard.notFound');
    const fresh = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    const membership = await bot.membership(guildId.data, session.userId, fresh);
    if (membership === undefined) return refusal(c, 404, 'dashboard.notFound');
    c.set('membership', membership);
    await next();
  };
}

/** The managers' pages: Manage Server in that server, from SayBot's data (serverAccess ran first). */
export const managersOnly: Guard = async (c, next) => {
  if (!c.get('membership').manager) return refusal(c, 403, 'dashboard.forbidden');
  await next();
};
