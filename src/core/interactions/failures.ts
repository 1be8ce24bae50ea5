// How a failure reaches the member: a UserError's chosen words, else src/features/speaking/failure-words.ts's.
import type { LocalisedMessage, MessageKey, MessageParams } from '../i18n/catalogue.ts';

export type LogLevel = 'info' | 'warn' | 'error' | 'fatal';

/** A failure with a message made for the user. Logged at info unless it wraps a fault of the service. */
export class UserError extends Error {
  readonly userMessage: LocalisedMessage;
  readonly level: LogLevel;
  /** The log line's code where it is not the words' key: words around a cause are logged as that cause. */
  readonly code: string | undefined;
  constructor(
    key: MessageKey,
    params: MessageParams = {},
    options: { cause?: unknown; level?: LogLevel; code?: string } = {},
  ) {
    super(key, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.userMessage = { key, params };
    this.level = options.level ?? 'info';
    this.code = options.code;
  }
}

export interface DescribedFailure {
  /** A short stable name for the operator's log line. */
  code: string;
  message: LocalisedMessage;
  level: LogLevel;
}

/** Who reads the words: the whole plan's figures (what is left of the month) are the owner's business. */
export interface FailureAudience {
  /** A manager (Manage Server) or the operator (plan-figures.ts): the words may carry plan-wide figures. */
  planFigures: boolean;
  /** Where SayBot is no server member (a user install): the words never say "this server". */
  outsideServer?: boolean;
}

/** A member, or a channel everyone reads: no plan-wide figure. */
export const MEMBER_AUDIENCE: FailureAudience = { planFigures: false };

/** Words for any error a command can meet, with how loudly the operator is told: a feature's, handed to the router. */
export type FailureWords = (error: unknown, audience?: FailureAudience) => DescribedFailure;
