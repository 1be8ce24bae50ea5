// The dashboard's HTTP application: guards, then routes; made without listening, so tests drive it like production.
import { Hono } from 'hono';
import './strings.ts';
import { addAuthRoutes } from './auth-routes.ts';
import type { DashboardDeps, DashboardEnv } from './dashboard-types.ts';
import { addDictionaryRoutes } from './dictionary-routes.ts';
import { DiscordLogin } from './discord-login.ts';
import {
  BadForm,
  boundedBodies,
  detectLocale,
  guardChanges,
  loadSession,
  pageContext,
  perAddress,
  refusal,
  securityHeaders,
  serverAccess,
  userOf,
} from './guards.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { serverGlance } from './glance-figures.ts';
import { installLink } from './install-link.ts';
import { addMemberRoutes } from './member-routes.ts';
import { loginPage, serverPage, serversPage } from './pages/server-pages.ts';
import { RateLimit } from './rate-limit.ts';
import { bytesOf, mediaType } from './kept-files.ts';
import { Samples } from './samples.ts';
import { addSceneRoutes } from './scenes-routes.ts';
import { addVoiceRoutes } from './voice-routes.ts';
import { webFile } from './web-files.ts';
import { addMonthRoutes } from './month-routes.ts';
import { addAutoreadRoutes } from './autoread-routes.ts';
import { addConsoleRoutes } from './console-routes.ts';
import type { Membership } from './dashboard-types.ts';

const SCRIPT = 'text/javascript; charset=utf-8';

/** Every page's stylesheet and scripts, and the month page's chart: files of ./web/ served under /static/. */
const STATIC: Record<string, ReturnType<typeof webFile>> = {
  '/static/style.css': webFile('design.css', 'text/css; charset=utf-8'),
  '/static/theme.js': webFile('theme.js', SCRIPT),
  '/static/app.js': webFile('enhance.js', SCRIPT),
  '/static/month.js': webFile('month-chart.js', SCRIPT),
};

export function createDashboardApp(deps: DashboardDeps): Hono<DashboardEnv> {
  const { settings, store, bot, logger } = deps;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const secure = settings.url.startsWith('https:');
  // __Host- cookies need Secure, which plain http on localhost cannot have: there they go without the prefix.
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
  app.use(securityHeaders(secure, settings.discordCdn));
  app.use(perAddress(rate(limits.requestsPerMinute), settings.trustedProxy));
  app.use(boundedBodies(limits));
  app.use(loadSession(store, cookies.session, limits, now));
  app.use(guardChanges(settings.url, rate(limits.changesPerMinute)));

  for (const [path, file] of Object.entries(STATIC)) app.get(path, file);

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
    // The login's list says where to look; each server is checked as every page checks it, so a lost one drops out.
    const views = await Promise.all(
      session.guildHints
        .filter((guildId) => bot.serves(guildId))
        .map((guildId) => bot.membership(guildId, session.userId, false)),
    );
    const servers = views.filter((membership): membership is Membership => membership !== undefined);
    return c.html(serversPage(pageContext(c), servers, bot.console !== undefined && bot.isOperator(session.userId)));
  });

  app.get('/servers/:guildId', serverAccess(bot), async (c) => {
    const server = c.get('membership');
    const glance = await serverGlance({ store, bot }, server, userOf(c));
    return c.html(serverPage(pageContext(c), server, glance));
  });
  const samples = new Samples(store, bot.speech, now);
  app.get('/servers/:guildId/samples/:id', serverAccess(bot), (c) => {
    const kept = samples.get(c.req.param('id'), userOf(c), c.get('membership').guildId);
    if (kept === undefined) return refusal(c, 404, 'dashboard.notFound');
    return c.body(bytesOf(kept), 200, { 'Content-Type': mediaType(kept), 'Cache-Control': 'private, no-store' });
  });
  addDictionaryRoutes(app, { store, bot, logger, samples });
  addMemberRoutes(app, { store, bot, logger, samples });
  addVoiceRoutes(app, { store, bot, logger, samples });
  addMonthRoutes(app, { store, bot, logger });
  addAutoreadRoutes(app, { store, bot, logger });
  addSceneRoutes(app, { store, bot, logger });
  addConsoleRoutes(app, { store, bot, logger, installUrl: installLink(settings.clientId, settings.discordApi) });

  app.notFound((c) => refusal(c, 404, 'dashboard.notFound'));
  app.onError((error, c) => {
    if (error instanceof BadForm) return refusal(c, 400, 'dashboard.badRequest', { what: error.what });
    logger.error({ err: error, path: c.req.routePath }, 'dashboard request failed');
    return refusal(c, 500, 'dashboard.failed');
  });
  return app;
}
