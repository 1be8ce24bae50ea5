// What a REST route is given and answers: the request's parts and the bot application whose token it carries.
import type { ParsedBody } from './body.ts';
import type { Answer } from './interactions.ts';
import type { ApiError } from './messages.ts';
import type { BotApplication } from './world.ts';

export interface Context {
  params: string[];
  query: URLSearchParams;
  body: ParsedBody;
  headers: Record<string, string>;
  /** Whose bot token authorised the request (the main application on routes that take none). */
  application: BotApplication;
}

/** Routes a test can rate-limit by name (RateLimitInjection.route). */
export type RateLimitedRoute =
  'interaction-callback' | 'webhook-edit' | 'webhook-follow-up' | 'channel-message' | 'leave-guild';

export type AddRoute = (
  method: string,
  pattern: string,
  auth: boolean,
  handle: (ctx: Context) => Answer,
  name?: RateLimitedRoute,
) => void;

export const ID = '([^/]+)';

export function fail(error: ApiError): Answer {
  return { status: error.status, json: error.body };
}

export function ok(json: unknown): Answer {
  return { status: 200, json };
}
