// The owner console's one check: SayBot's owner (DashboardBot.isOperator); anyone else gets "no such page".
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
