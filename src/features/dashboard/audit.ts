import type { Logger } from '../../core/log.ts';

/** One line per dashboard change: who, what, which server, counts; never a secret nor an entry's text. */
export function audit(
  logger: Logger,
  action: string,
  who: { userId: string; guildId?: string | undefined },
  counts: Record<string, number> = {},
): void {
  logger.info({ audit: action, userId: who.userId, guildId: who.guildId, ...counts }, 'dashboard change');
}
