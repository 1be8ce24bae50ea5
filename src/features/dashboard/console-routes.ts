// The owner console (/owner): every figure from the part that owns it. Leaving a server is confirmed, then a POST
// answered with a redirect (a reload does not leave again).
import type { Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { monthFigures, planLines } from '../usage/index.ts';
import type { Logger } from '../../core/log.ts';
import { t } from './strings.ts';
import type { Ctx, DashboardBot, DashboardEnv, DoctorCheck, OwnerConsole, RouteDeps } from './dashboard-types.ts';
import { audit, guard, pageContext, refusal, userOf } from './guards.ts';
import { consolePage, leavePage, type ConsoleView, type ServerRow } from './pages/console-page.ts';
import type { PageContext } from './pages/layout.ts';

/** The console's one check: SayBot's owner (DashboardBot.isOperator); anyone else gets "no such page". */
function ownerOnly(bot: DashboardBot, logger: Logger): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const userId = c.get('session')?.userId;
    if (userId === undefined || !bot.isOperator(userId)) {
      logger.debug({ refused: 'owner-only', userId, method: c.req.method }, 'owner console refused');
      return refusal(c, 404, 'dashboard.notFound');
    }
    await next();
  };
}

/** Servers shown a page: each is a few reads of the store. */
export const SERVERS_PER_PAGE = 25;
/** Servers the console left lately, remembered for the notice after the redirect. */
const LEFT_REMEMBERED = 20;

const GuildId = z.string().regex(/^\d{17,20}$/);
const Page = z.coerce.number().int().min(1).max(1000).catch(1);

export function addConsoleRoutes(app: Hono<DashboardEnv>, deps: RouteDeps & { installUrl: string }): void {
  const { store, bot, logger } = deps;
  if (bot.console === undefined) return;
  const owner: OwnerConsole = bot.console;
  guard(app, '/owner', ownerOnly(bot, logger));
  const sources = { accounting: bot.accounting, store };

  /** Servers left lately, by ID, for the notice after the redirect (a name never comes from the address). */
  const leftLately = new Map<string, string>();

  /** The last run of the checks, and the one under way: never two at once, whoever asks. */
  let lastRun: { at: Date; checks: readonly DoctorCheck[] } | undefined;
  let running: Promise<void> | undefined;
  const runDoctor = () =>
    (running ??= owner
      .doctor()
      .then((checks) => {
        lastRun = { at: new Date(), checks };
      })
      .finally(() => {
        running = undefined;
      }));

  async function serverRows(c: Ctx, guilds: ReadonlyArray<{ id: string; name: string }>): Promise<ServerRow[]> {
    const locale = c.get('locale');
    return Promise.all(
      guilds.map(async ({ id, name }) => {
        const [figures, budgets] = await Promise.all([
          monthFigures(sources, id, userOf(c)),
          bot.accounting.budgetsFor(id),
        ]);
        return {
          id,
          name,
          served: bot.serves(id),
          spent: figures.report.guild.spent,
          saved: figures.report.guild.saved,
          freeLines: figures.free.chosen + figures.free.fallback,
          budgets,
          // SayBot's cache of names (no request per member); one it does not know is "a member".
          top: figures.members
            .filter((member) => member.spent > 0)
            .map((member) => ({
              name: bot.displayName(id, member.userId) ?? t(locale, 'console.someMember'),
              characters: member.spent,
            })),
        };
      }),
    );
  }

  async function show(c: Ctx, notice?: PageContext['notice'], status: 200 | 400 | 404 = 200) {
    const locale = c.get('locale');
    const page = Page.parse(c.req.query('page'));
    const [listed, publicBot, freeVoice] = await Promise.all([owner.servers(), owner.publicBot(), owner.freeVoice()]);
    const pages = Math.max(1, Math.ceil(listed.guilds.length / SERVERS_PER_PAGE));
    const shown = listed.guilds.slice((page - 1) * SERVERS_PER_PAGE, page * SERVERS_PER_PAGE);
    // The bot-wide half of /usage's report: the plan, its budget, the used-up month (no server's figures).
    const report = await bot.accounting.report('', userOf(c));
    const names = new Map(listed.guilds.map((guild) => [guild.id, guild.name]));
    const key = owner.keyState();
    const cache = owner.cache();
    const view: ConsoleView = {
      summary: {
        plan: { used: report.bot.used, limit: report.bot.limit, remaining: report.bot.remaining },
        servers: { count: listed.guilds.length, served: listed.guilds.filter((guild) => bot.serves(guild.id)).length },
        key,
        cache,
        freeThreads: freeVoice.threads,
        freeMemoryBytes: freeVoice.memoryBytes,
      },
      installUrl: deps.installUrl,
      plan: {
        name: owner.plan.name,
        sandbox: owner.plan.sandbox,
        lines: planLines(locale, report),
        limit: report.bot.limit,
        budget: report.botBudget,
        usedUpUntil: report.exhaustedUntil,
      },
      servers: {
        total: listed.guilds.length,
        complete: listed.complete,
        page,
        pages,
        rows: await serverRows(c, shown),
      },
      key,
      freeVoice: { ...freeVoice, setting: owner.freeVoiceSetting },
      cache,
      access: {
        allowed: owner.allowedGuilds.list?.map((id) => ({ id, name: names.get(id) })),
        leaveAtStart: owner.allowedGuilds.leaveAtStart,
        publicBot,
      },
      doctor: lastRun,
      helpers: owner.helpers(),
    };
    return c.html(consolePage(pageContext(c, notice), view), status);
  }

  app.get('/owner', (c) => {
    const left = leftLately.get(c.req.query('left') ?? '');
    return show(
      c,
      left === undefined ? undefined : { kind: 'ok', text: t(c.get('locale'), 'console.leftServer', { server: left }) },
    );
  });

  app.post('/owner/doctor', async (c) => {
    await runDoctor();
    audit(logger, 'owner.doctor', { userId: userOf(c) });
    // Post/Redirect/Get: the results are the console's (the last run only), so a reload does not run them again.
    return c.redirect('/owner#doctor', 303);
  });

  /** The server by its ID among those SayBot is in, or undefined. */
  async function serverOf(owned: OwnerConsole, guildId: string) {
    const id = GuildId.safeParse(guildId);
    if (!id.success) return undefined;
    return (await owned.servers()).guilds.find((guild) => guild.id === id.data);
  }

  app.get('/owner/servers/:guildId/leave', async (c) => {
    const server = await serverOf(owner, c.req.param('guildId'));
    if (server === undefined) return refusal(c, 404, 'console.notInServer');
    return c.html(leavePage(pageContext(c), server));
  });

  app.post('/owner/servers/:guildId/leave', async (c) => {
    const locale = c.get('locale');
    const server = await serverOf(owner, c.req.param('guildId'));
    if (server === undefined) return refusal(c, 404, 'console.notInServer');
    const body = await c.req.parseBody();
    if (body['confirm'] !== server.id)
      return show(c, { kind: 'error', text: t(locale, 'console.leaveUnconfirmed') }, 400);
    if (!(await owner.leave(server.id))) return show(c, { kind: 'error', text: t(locale, 'console.notInServer') }, 404);
    audit(logger, 'owner.leave', { userId: userOf(c), guildId: server.id });
    leftLately.delete(server.id);
    leftLately.set(server.id, server.name);
    for (const id of leftLately.keys()) if (leftLately.size > LEFT_REMEMBERED) leftLately.delete(id);
    return c.redirect(`/owner?left=${server.id}`, 303);
  });
}
