// Logging in and out: Discord's code grant, its `state` and PKCE verifier in an HttpOnly cookie for 10 minutes.
import type { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { DashboardBot, DashboardEnv } from './dashboard-types.ts';
import { DiscordLoginError, type DiscordLogin } from './discord-login.ts';
import { audit, pageContext, perAddress, refusal } from './guards.ts';
import type { DashboardLimits } from './limits.ts';
import { messagePage } from './pages/server-pages.ts';
import type { RateLimit } from './rate-limit.ts';
import { SECRET_SHAPE, hashSessionId, newSecret, sameSecret } from './session-tokens.ts';
import type { Logger } from '../../core/log.ts';
import type { Store } from '../../core/store/types.ts';
import { t } from './strings.ts';

export interface CookieNames {
  session: string;
  state: string;
}

export interface AuthDeps {
  store: Store;
  bot: DashboardBot;
  login: DiscordLogin;
  logger: Logger;
  limits: DashboardLimits;
  cookies: CookieNames;
  secure: boolean;
  logins: RateLimit;
  trustedProxy: string | undefined;
  now: () => number;
}

const CallbackQuery = z.object({
  code: z.string().max(512).optional(),
  state: z.string().max(128).optional(),
  error: z.string().max(100).optional(),
});

export function addAuthRoutes(app: Hono<DashboardEnv>, deps: AuthDeps): void {
  const { store, bot, login, logger, limits, cookies, secure, now } = deps;
  const cookie = { httpOnly: true, secure, sameSite: 'Lax', path: '/' } as const;
  const loginFlood = perAddress(deps.logins, deps.trustedProxy);

  app.get('/login', loginFlood, (c) => {
    const started = { state: newSecret(), verifier: newSecret() };
    setCookie(c, cookies.state, loginCookie(started), { ...cookie, maxAge: Math.floor(limits.stateMs / 1000) });
    return c.redirect(login.authorizationUrl(started.state, started.verifier), 302);
  });

  app.get('/callback', loginFlood, async (c) => {
    const locale = c.get('locale');
    const started = startedLogin(getCookie(c, cookies.state));
    // One use: whatever happens next, this state is spent.
    deleteCookie(c, cookies.state, cookie);
    const query = CallbackQuery.safeParse(c.req.query());
    const failed = (
      reason: 'dashboard.login.state' | 'dashboard.login.denied' | 'dashboard.login.code' | 'dashboard.login.discord',
      status: 400 | 502,
    ) =>
      c.html(messagePage(pageContext(c), t(locale, 'dashboard.login.failed', { reason: t(locale, reason) })), status);
    if (!query.success || started === undefined || !sameSecret(query.data.state, started.state))
      return failed('dashboard.login.state', 400);
    if (query.data.error !== undefined || query.data.code === undefined) return failed('dashboard.login.denied', 400);
    let identity;
    try {
      identity = await login.identify(query.data.code, started.verifier);
    } catch (error) {
      if (!(error instanceof DiscordLoginError)) throw error;
      logger.warn({ reason: error.message, cause: error.cause }, 'dashboard login refused by Discord');
      return error.refused === 'code-refused'
        ? failed('dashboard.login.code', 400)
        : failed('dashboard.login.discord', 502);
    }
    // A new session ID at every login; the one this browser had ends (no session is carried across a login).
    const earlier = c.get('session');
    if (earlier !== undefined) await store.dashboardSessions.end(earlier.idHash);
    const id = newSecret();
    // A login starts from what Discord says now: no view of the member from before it is trusted.
    bot.forgetMember(identity.userId);
    const guildHints = await bot.servedAmong(identity.guildIds);
    await store.dashboardSessions.create({
      idHash: hashSessionId(id),
      userId: identity.userId,
      userName: identity.userName,
      guildHints,
      createdAt: now(),
    });
    setCookie(c, cookies.session, id, { ...cookie, maxAge: Math.floor(limits.sessionAbsoluteMs / 1000) });
    audit(
      logger,
      'login',
      { userId: identity.userId },
      { listed: identity.guildIds.length, served: guildHints.length },
    );
    return c.redirect('/', 303);
  });

  app.post('/logout', async (c) => {
    const session = c.get('session');
    if (session !== undefined) {
      await store.dashboardSessions.end(session.idHash);
      audit(logger, 'logout', { userId: session.userId });
    }
    deleteCookie(c, cookies.session, cookie);
    return c.redirect('/', 303);
  });

  app.post('/logout-everywhere', async (c) => {
    const session = c.get('session');
    if (session === undefined) return refusal(c, 403, 'dashboard.csrf');
    const ended = await store.dashboardSessions.endAllOf(session.userId);
    audit(logger, 'logout-everywhere', { userId: session.userId }, { sessions: ended });
    deleteCookie(c, cookies.session, cookie);
    c.set('session', undefined);
    return c.html(messagePage(pageContext(c), t(locale(c), 'dashboard.loggedOutEverywhere')));
  });
}

const locale = (c: { get(key: 'locale'): string }): string => c.get('locale');

/** A login this browser started: its state and PKCE verifier, both secrets of SECRET_SHAPE. */
interface StartedLogin {
  state: string;
  verifier: string;
}

/** The login cookie's value: the state, then the verifier. */
const loginCookie = (started: StartedLogin): string => `${started.state}.${started.verifier}`;

/** The login the cookie holds, or undefined for none or anything else. */
function startedLogin(value: string | undefined): StartedLogin | undefined {
  const [state = '', verifier = '', ...rest] = (value ?? '').split('.');
  if (rest.length > 0 || !SECRET_SHAPE.test(state) || !SECRET_SHAPE.test(verifier)) return undefined;
  return { state, verifier };
}
