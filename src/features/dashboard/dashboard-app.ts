// The dashboard's HTTP application: the guards every request passes (guards.ts), then the routes. Made without
// listening, so the tests drive it over real HTTP through start-dashboard.ts like production.
import { Hono } from 'hono';
import './strings.ts';
import { addAuthRoutes } from './auth-routes.ts';
import type { DashboardEnv } from './dashboard-env.ts';
import type { DashboardDeps } from './dashboard-types.ts';
import { addDictionaryRoutes } from './dictionary-routes.ts';
import { DiscordLogin } from './discord-login.ts';
import {
  boundedBodies,
  detectLocale,
  guardChanges,
  loadSession,
  pageContext,
  perAddress,
  refusal,
  securityHeaders,
  serverAccess,
} from './guards.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { addMemberRoutes } from './member-routes.ts';
import { loginPage, serverPage, serversPage } from './pages/server-pages.ts';
import { RateLimit } from './rate-limit.ts';
import { Samples } from './samples.ts';
import { addSceneRoutes } from './scenes-routes.ts';
import { APP_SCRIPT, STYLE_SHEET, THEME_SCRIPT } from './static-files.ts';
import { addVoiceRoutes } from './voice-routes.ts';
import { addMonthRoutes } from './month-routes.ts';
import { addAutoreadRoutes } from './autoread-routes.ts';
import { MONTH_SCRIPT, STUDIO_STYLE } from './month-script.ts';
import type { Membership } from './dashboard-types.ts';

/** The page's own script and style, served with their types. */
const STATIC: Record<string, { type: string; body: string }> = {
  '/static/app.js': { type: 'text/javascript; charset=utf-8', body: APP_SCRIPT },
  '/static/theme.js': { type: 'text/javascript; charset=utf-8', body: THEME_SCRIPT },
  '/static/month.js': { type: 'text/javascript; charset=utf-8', body: MONTH_SCRIPT },
  '/static/style.css': { type: 'text/css; charset=utf-8', body: STYLE_SHEET + STUDIO_STYLE },
};

export function createDashboardApp(deps: DashboardDeps): Hono<DashboardEnv> {
  const { settings, store, bot, logger } = deps;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const secure = settings.url.startsWith('https:');
  // The __Host- prefix binds a cookie to this origin, path / and Secure; a browser refuses it without Secure, which
  // plain http on localhost cannot have, so there the same cookies go without the prefix.
  const prefix = secure ? '__Host-' : '';
  const cookies = { session: `${prefix}saybot-session`, state: `${prefix}saybot-state` };
  const rate = (limit: number) => new RateLimit({ limit, windowMs: 60_000, maxKeys: limits.rateKeys, now });
  const login = new DiscordLogin(
    settings.clientId,
    settings.clientSecret,
    `${settings.url}/callback`,
    settings.discordApi,
  );

  const app = new Hono<DashboardEnv>();
  app.use(detectLocale);
  app.use(securityHeaders(secure));
  app.use(perAddress(rate(limits.requestsPerMinute), settings.trustedProxy));
  app.use(boundedBodies(limits));
  app.use(loadSession(store, cookies.session, limits, now));
  app.use(guardChanges(settings.url, rate(limits.changesPerMinute)));

  for (const [path, file] of Object.entries(STATIC))
    app.get(path, (c) => c.body(file.body, 200, { 'Content-Type': file.type, 'Cache-Control': 'max-age=3600' }));

  addAuthRoutes(app, {
    store,
    bot,
    login,
    logger,
    limits,
    cookies,
    secure,
    logins: rate(limits.loginsPerMinute),
    trustedProxy: settings.trustedProxy,
    now,
  });

  app.get('/', async (c) => {
    const session = c.get('session');
    if (session === undefined) return c.html(loginPage(pageContext(c)));
    const servers: Membership[] = [];
    for (const guildId of session.guildHints) {
      if (!bot.serves(guildId)) continue;
      const membership = await bot.membership(guildId, session.userId, false);
      if (membership) servers.push(membership);
    }
    return c.html(serversPage(pageContext(c), servers));
  });

  app.get('/servers/:guildId', serverAccess(bot), (c) => c.html(serverPage(pageContext(c), c.get('membership'))));
  const samples = new Samples(store, bot.speech, now);
  app.get('/servers/:guildId/samples/:id', serverAccess(bot), (c) => {
    const kept = samples.get(c.req.param('id'), c.get('session')?.userId ?? '', c.get('membership').guildId);
    if (kept === undefined) return refusal(c, 404, 'dashboard.notFound');
    // A view of the kept bytes, not a copy on the main thread (as a scene's file is served).
    const bytes = new Uint8Array(kept.data.buffer as ArrayBuffer, kept.data.byteOffset, kept.data.byteLength);
    return c.body(bytes, 200, { 'Content-Type': kept.type, 'Cache-Control': 'private, no-store' });
  });
  addDictionaryRoutes(app, { store, bot, logger, samples });
  addMemberRoutes(app, { store, bot, logger, samples });
  addVoiceRoutes(app, { store, bot, logger, samples });
  addMonthRoutes(app, { store, bot, logger });
  addAutoreadRoutes(app, { store, bot, logger });
  addSceneRoutes(app, { store, bot, logger });

  app.notFound((c) => refusal(c, 404, 'dashboard.notFound'));
  app.onError((error, c) => {
    logger.error({ err: error, path: c.req.routePath }, 'dashboard request failed');
    return refusal(c, 500, 'dashboard.failed');
  });
  return app;
}
