// Discord's error bodies and the loose JSON the REST routes read: shared by messages.ts and voice-message.ts.
export interface ApiError {
  status: number;
  body: { message: string; code: number; errors?: unknown };
}

export function apiError(status: number, code: number, message: string, errors?: unknown): ApiError {
  return { status, body: { message, code, ...(errors !== undefined ? { errors } : {}) } };
}

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
