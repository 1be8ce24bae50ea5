// What the discord.js client keeps per message and per interaction, bounded in size and time (the team's rule for
// every map): left to discord.js's defaults, both grow with every /say (docs/benchmarks.md, figure 4).
import { Options, type ClientOptions } from 'discord.js';

/**
 * How often @discordjs/rest drops the request handlers that have nothing queued and are not rate limited. It keys
 * a handler by route and major parameter, and for an interaction's follow-ups and edits (/webhooks/<app>/<token>)
 * that parameter is the token: one handler, about 1 KiB with its strings, per interaction, kept until this sweep
 * (its default is an hour). A token is single-use per interaction, so nothing is lost by dropping its handler as
 * soon as it is idle; a limited bucket is never dropped, and the rate-limit buckets (its hashes) are kept apart.
 */
export const REST_HANDLER_SWEEP_MS = 10_000;

/** The client's cache and REST options: no message cache, idle request handlers swept every 10 s. */
export function boundedClientOptions(apiBaseUrl: string | undefined): Pick<ClientOptions, 'makeCache' | 'rest'> {
  return {
    // Nothing reads a channel's message cache (auto-read takes each message from its event, Speak from the
    // interaction), and discord.js's default keeps 200 per channel: every reply SayBot posts, for ever, per channel.
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }),
    rest: { handlerSweepInterval: REST_HANDLER_SWEEP_MS, ...(apiBaseUrl === undefined ? {} : { api: apiBaseUrl }) },
  };
}
