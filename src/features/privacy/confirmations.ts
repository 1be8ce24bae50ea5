import { randomInt } from 'node:crypto';

/** How long a server deletion's confirmation code stays valid. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;
/** At most this many codes pending at once (one per manager and server); the oldest goes first. */
const MAX_PENDING = 1000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** /privacy server's second step: a code for one member in one server, once, before it expires; in memory only. */
export class ServerDeletionConfirmations {
  readonly #pending = new Map<string, { code: string; expiresAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** A new code for this member in this server, replacing any earlier one. */
  issue(guildId: string, userId: string): string {
    const key = `${guildId}:${userId}`;
    this.#pending.delete(key);
    while (this.#pending.size >= MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value ?? key);
    const code = Array.from({ length: 6 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    this.#pending.set(key, { code, expiresAt: this.#now() + CONFIRMATION_TTL_MS });
    return code;
  }

  /** Whether `code` is this member's live code here; it is used up either way once it matched or expired. */
  accept(guildId: string, userId: string, code: string): boolean {
    const key = `${guildId}:${userId}`;
    const pending = this.#pending.get(key);
    if (pending === undefined) return false;
    if (pending.expiresAt <= this.#now()) {
      this.#pending.delete(key);
      return false;
    }
    if (pending.code !== code.trim().toUpperCase()) return false;
    this.#pending.delete(key);
    return true;
  }
}
