// Session secrets: the ID only in the cookie, its SHA-256 in the store; the CSRF token an HMAC of it (no storage).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh random secret (a session ID, an OAuth2 state), 32 bytes as base64url. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What the store finds a session by. */
export const hashSessionId = (id: string): string => createHash('sha256').update(id).digest('hex');

/** The CSRF token the session's pages carry in every form. */
export const csrfTokenOf = (sessionId: string): string =>
  createHmac('sha256', sessionId).update('saybot-dashboard-csrf').digest('base64url');

/** Compares two secrets in constant time; false for anything but two equal non-empty strings. */
export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a === '' || b === '') return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A session ID or state as this module makes them: 43 base64url characters. */
export const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;
