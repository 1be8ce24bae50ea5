// The bot application the local Discord serves: an application ID and a bot token of Discord's shape.
import { randomBytes } from 'node:crypto';

export const APP_ID = '100000000000000001';

/**
 * A bot token of the real shape, made fresh for each run so no token-like literal sits in the repository: a user ID
 * in base64 (so it never begins with "Bot" or "Bearer", which discord.js strips from a token), then random parts.
 */
export function fakeToken(): string {
  const part = (n: number) => randomBytes(n).toString('base64url');
  const id = String(10n ** 17n + (BigInt(`0x${randomBytes(8).toString('hex')}`) % (9n * 10n ** 17n)));
  return `${Buffer.from(id).toString('base64url')}.${part(5)}.${part(27)}`;
}
