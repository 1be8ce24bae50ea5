// Discord's error bodies and the loose JSON the REST routes read: shared by messages.ts and voice-message.ts.
export interface ApiError {
  status: number;
  body: { message: string; code: number; errors?: unknown };
}

export function apiError(status: number, code: number, message: string, errors?: unknown): ApiError {
  return { status, body: { message, code, ...(errors !== undefined ? { errors } : {}) } };
}

export type Json = Record<string, unknown>;

/** MessageFlags.EPHEMERAL. */
const EPHEMERAL = 1 << 6;

export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/**
 * What Discord answers a member's client that acts on something that does not exist for that member (another
 * member's ephemeral message is Unknown Message, 10008; a command it does not offer them is Missing Permissions,
 * 50013): nothing reaches the bot. A test expects it (`rejects`).
 */
export class DiscordRefusal extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(`Discord refuses: ${status} ${code} ${message}`);
    this.name = 'DiscordRefusal';
    this.status = status;
    this.code = code;
  }
}

/** An ephemeral message exists only for the member it answered (its interaction_metadata.user): anyone else's client never has it. */
export function checkSeenBy(message: Json | undefined, userId: string): void {
  if (message === undefined || ((Number(message.flags) || 0) & EPHEMERAL) === 0) return;
  if (String(asObject(asObject(message.interaction_metadata).user).id) !== userId)
    throw new DiscordRefusal(404, 10008, 'Unknown Message');
}
