// The bot application the local Discord serves: an application ID and a bot token of Discord's shape.
import { randomBytes } from 'node:crypto';

export const APP_ID = '100000000000000001';

/** A bot token of the real shape, made fresh for each run so no token-like literal sits in the repository. */
export function fakeToken(): string {
  const part = (n: number) => randomBytes(n).toString('base64url');
  return `${part(18)}.${part(5)}.${part(27)}`;
}
