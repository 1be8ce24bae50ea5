// The owner console's one check, as a precondition of its own (sapphire's way: one check, a refusal with an
// identifier): a signed-in user SayBot knows as its owner (the application's owner or team as Discord reports it, or
// OWNER_IDS: DashboardBot.isOperator). Anyone else, signed in or not, gets the dashboard's "no such page": the
// refusal says nothing of the console, not even that there is one.
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../core/log.ts';
import type { DashboardEnv } from './dashboard-env.ts';
import type { DashboardBot } from './dashboard-types.ts';
import { refusal } from './guards.ts';
import './strings.ts';

/** The refusal's identifier in the log line. */
export const OWNER_ONLY = 'owner-only';

export function ownerOnly(bot: DashboardBot, logger: Logger): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const userId = c.get('session')?.userId;
    if (userId === undefined || !bot.isOperator(userId)) {
      logger.debug({ refused: OWNER_ONLY, userId, method: c.req.method }, 'owner console refused');
      return refusal(c, 404, 'dashboard.notFound');
    }
    await next();
  };
}
