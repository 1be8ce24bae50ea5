import { randomBytes } from 'node:crypto';

const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;

/**
 * A fresh snowflake whose timestamp is `atMs` (default now, so discord.js's createdAt is sensible); an earlier
 * `atMs` makes the ID of a Discord whose clock is behind the host's.
 */
export function snowflake(atMs: number = Date.now()): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(Math.floor(atMs)) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** Which shard a guild belongs to: (guild_id >> 22) % shard_count. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}
