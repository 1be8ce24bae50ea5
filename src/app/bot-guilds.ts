// The servers the bot is in, whatever shard holds them: its own guild list over REST (GET /users/@me/guilds, 200 a
// page), at most MAX_BOT_GUILDS. `npm run doctor`, the dashboard's login and its owner console read it alike.
import { Routes, type REST } from 'discord.js';

/** A REST client for a few requests: each answered or failed within 10 s, no retry, no sweeper timer left behind. */
export const oneShotRest = { timeout: 10_000, retries: 0, hashSweepInterval: 0, handlerSweepInterval: 0 } as const;

/** The most servers read (Discord pages them 200 at a time); past it, `complete` says only these were read. */
export const MAX_BOT_GUILDS = 10_000;

export interface BotGuilds {
  guilds: Array<{ id: string; name: string }>;
  complete: boolean;
}

export async function botGuilds(rest: REST): Promise<BotGuilds> {
  const guilds: Array<{ id: string; name: string }> = [];
  let after = '0';
  while (guilds.length < MAX_BOT_GUILDS) {
    const page = (await rest.get(Routes.userGuilds(), {
      query: new URLSearchParams({ limit: '200', after }),
    })) as Array<{ id: string; name: string }>;
    guilds.push(...page.map(({ id, name }) => ({ id, name })));
    const last = page.at(-1);
    if (page.length < 200 || last === undefined) return { guilds, complete: true };
    after = last.id;
  }
  return { guilds, complete: false };
}
