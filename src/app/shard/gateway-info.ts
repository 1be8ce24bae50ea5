// How many shards Discord recommends, and how many may identify at once: GET /gateway/bot. discord.js's own
// fetchRecommendedShardCount always asks discord.com, so it would ignore DISCORD_API_BASE_URL.
import { z } from 'zod';

const GatewayBot = z.object({
  shards: z.number().int().min(1),
  session_start_limit: z.object({ max_concurrency: z.number().int().min(1) }),
});

export interface GatewayInfo {
  /** Discord's recommended shard count (one per 1,000 servers or so; required from 2,500). */
  shards: number;
  /** Shards that may identify in the same 5-second window. */
  maxConcurrency: number;
}

export async function fetchGatewayInfo(apiBaseUrl: string, token: string, signal?: AbortSignal): Promise<GatewayInfo> {
  const response = await fetch(`${apiBaseUrl}/v10/gateway/bot`, {
    headers: { authorization: `Bot ${token}` },
    ...(signal === undefined ? {} : { signal }),
  });
  // 401: a wrong DISCORD_TOKEN; the line names the step, never the token.
  if (!response.ok)
    throw new Error(`Could not ask Discord how many shards to run: GET /gateway/bot answered ${response.status}`);
  const body = GatewayBot.parse(await response.json());
  return { shards: body.shards, maxConcurrency: body.session_start_limit.max_concurrency };
}
