// Whether an interaction's token still works. Judged from when SayBot received the interaction (received.ts, a
// monotonic clock), never from the ID's time against the wall clock, and from Discord's own answer: Discord counts
// the 15 minutes by its clock, so what it says wins.
import { DiscordAPIError } from 'discord.js';
import type { Logger } from '../log.ts';
import type { AnsweredInteraction } from './command.ts';
import { sinceReceived } from './received.ts';

/**
 * Discord's answers that mean the token is gone: 50027 Invalid Webhook Token (past its 15 minutes), 10015 Unknown
 * Webhook (an interaction never acknowledged), 10062 Unknown interaction (a first response after its 3 s).
 */
const TOKEN_GONE_CODES: ReadonlySet<number> = new Set([50027, 10015, 10062]);
/**
 * A token works for 15 minutes from Discord's creation of the interaction, which is before SayBot receives it
 * (an answerable one arrives within its 3 s); the margin covers that and the request's own transit.
 */
export const TOKEN_LIFETIME_MS = 15 * 60_000 - 30_000;

const gone = new WeakSet<AnsweredInteraction>();
const loggers = new WeakMap<AnsweredInteraction, Logger>();

/** Who logs for an interaction whose reply cannot use its token (set where the interaction is routed). */
export function watchToken(interaction: AnsweredInteraction, log: Logger): void {
  loggers.set(interaction, log);
}

export function tokenLogger(interaction: AnsweredInteraction): Logger | undefined {
  return loggers.get(interaction);
}

/** True once the token is known (Discord said so) or certain (by our own clock) to be gone. */
export function tokenGone(interaction: AnsweredInteraction): boolean {
  return gone.has(interaction) || sinceReceived(interaction) > TOKEN_LIFETIME_MS;
}

/** Remembers a token Discord refused as gone, so that no later reply of this interaction tries it again. */
export function noteIfTokenGone(interaction: AnsweredInteraction, error: unknown): boolean {
  if (!(error instanceof DiscordAPIError) || typeof error.code !== 'number' || !TOKEN_GONE_CODES.has(error.code))
    return false;
  gone.add(interaction);
  return true;
}
