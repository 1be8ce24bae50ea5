import type { Logger } from '../../core/log.ts';

/**
 * One line per change made in the dashboard: who, what, which server, and counts. Never a secret, never the text of
 * an entry or a sentence (the audit says that a reading changed, not what it says).
 */
export function audit(
  logger: Logger,
  action: string,
  who: { userId: string; guildId?: string | undefined },
  counts: Record<string, number> = {},
): void {
  logger.info({ audit: action, userId: who.userId, guildId: who.guildId, ...counts }, 'dashboard change');
}
