// What the discord.js client keeps per message and per interaction, bounded in size and time (the team's rule for
// every map): left to discord.js's defaults, both grow with every /say (docs/benchmarks.md, figure 4).
import { Options, REST, type ClientOptions, type InternalRequest } from 'discord.js';

/** How often the request handlers with nothing to do are dropped (sweepIdleRestHandlers). */
export const REST_HANDLER_SWEEP_MS = 10_000;

/** The client's cache and REST options: no message cache. */
export function boundedClientOptions(apiBaseUrl: string | undefined): Pick<ClientOptions, 'makeCache' | 'rest'> {
  return {
    // Nothing reads a channel's message cache (auto-read takes each message from its event, Speak from the
    // interaction), and discord.js's default keeps 200 per channel: every reply SayBot posts, for ever, per channel.
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }),
    ...(apiBaseUrl === undefined ? {} : { rest: { api: apiBaseUrl } }),
  };
}

/**
 * Drops @discordjs/rest's idle request handlers every `intervalMs`; returns the function that stops it.
 *
 * The REST client keys a handler by route and major parameter, and for an interaction's edits and follow-ups
 * (/webhooks/<app>/<token>) that parameter is the token: one handler, about 1.1 KiB with its strings, per
 * interaction. Its own sweep (`handlerSweepInterval`, hourly by default) drops only handlers that are `inactive`,
 * and a handler is never inactive while the bot's global limit (50 requests a second, which discord.js counts
 * interaction edits against) is used up: a bot busy enough to reach it, the benchmark's 10,000 /say among them,
 * never has a handler swept, whatever the interval. So this sweep runs just after the global window ends when one
 * is used up, before the requests waiting for it resume (REST's `offset`, 50 ms later). `inactive` stays the
 * library's own judgement: nothing queued, its bucket not limited; a dropped handler is made again on next use and
 * the rate-limit buckets (REST.hashes) are kept apart.
 */
export function sweepIdleRestHandlers(rest: REST, intervalMs = REST_HANDLER_SWEEP_MS): () => void {
  let afterWindow: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    afterWindow = undefined;
    const untilReset = rest.globalRemaining <= 0 ? rest.globalReset - Date.now() : -1;
    if (untilReset >= 0) {
      afterWindow = setTimeout(sweep, untilReset + 1);
      afterWindow.unref();
      return;
    }
    rest.handlers.sweep((handler) => handler.inactive);
  };
  const timer = setInterval(() => {
    if (afterWindow === undefined) sweep();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(afterWindow);
  };
}

/**
 * Sends the interaction endpoints' requests (a response, /interactions/<id>/<token>/callback, and the edits, follow-ups
 * and deletions of /webhooks/<application>/<token>) through a REST client of their own, outside the bot's global limit;
 * returns that client (its handlers are swept as the bot's are). Discord does not bind interaction endpoints to a
 * bot's global rate limit (discord-api-docs #4416), but @discordjs/rest counts the webhook ones against its 50 a second
 * and queues them behind it, first come first served over every server: a flood of one server's files (three requests
 * each: the deferral, the edit or a refusal's deletion and follow-up) kept another server's answer waiting tens of
 * seconds, each waiting file's bytes held meanwhile (docs/benchmarks.md, figure 21). Apart, each interaction's
 * requests wait only for its own token's bucket (5 in 2 s), as Discord limits them; a 429 Discord says is global
 * still stops this client until it ends. The bot's own requests (a channel's, a guild's, another application's
 * webhook) keep its global limit.
 */
export function interactionRequestsApart(rest: REST, applicationId: string): REST {
  const apart = new REST({ ...rest.options, globalRequestsPerSecond: Number.POSITIVE_INFINITY });
  const interactionWebhook = `/webhooks/${applicationId}/`;
  const isInteractions = ({ fullRoute, auth }: InternalRequest): boolean =>
    auth === false &&
    (fullRoute.startsWith(interactionWebhook) ||
      (fullRoute.startsWith('/interactions/') && fullRoute.endsWith('/callback')));
  const own = rest.queueRequest.bind(rest);
  rest.queueRequest = (request) => (isInteractions(request) ? apart.queueRequest(request) : own(request));
  return apart;
}
