import { pino, type Logger, type LevelWithSilent } from 'pino';
import { PinoPretty } from 'pino-pretty';

export type { Logger };

const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of a known secret in a string. Secrets shorter than 6 characters are ignored:
 * replacing them would mangle ordinary text and they cannot be real keys or tokens anyway.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

function redactDeep(value: unknown, secrets: readonly string[], seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (value instanceof Error) {
    return {
      type: value.name,
      message: redactSecrets(value.message, secrets),
      stack: value.stack === undefined ? undefined : redactSecrets(value.stack, secrets),
      ...(redactDeep({ ...value }, secrets, seen) as object),
    };
  }
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets, seen);
  return out;
}

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Values that must never be written: the Voice API key, the Discord token. */
  secrets?: readonly string[];
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
  /** Human-readable lines (pino-pretty: local times, colours) instead of JSON; default: when stdout is a terminal. */
  pretty?: boolean;
}

/**
 * One JSON line per event (pino). Secrets are removed twice over: by field name (headers, tokens) and by
 * value, so a key that ends up inside an error message or a URL is still never written.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length > 0);
  return pino(
    {
      level: options.level ?? 'info',
      base: { app: 'saybot' },
      redact: {
        paths: ['token', 'apiKey', 'key', '*.token', '*.apiKey', 'headers.authorization', '*.headers.authorization'],
        censor: REDACTED,
      },
      formatters: {
        log: (object) => redactDeep(object, secrets) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const redacted = args.map((a) => (typeof a === 'string' ? redactSecrets(a, secrets) : a));
          method.apply(this, redacted as Parameters<typeof method>);
        },
      },
      serializers: { err: (err: unknown) => redactDeep(err, secrets) },
    },
    prettyOrNot(options),
  );
}

/** JSON for files, pipes and log collectors; pino-pretty in a terminal. Redaction happens before either. */
function prettyOrNot(options: LoggerOptions): NodeJS.WritableStream {
  const destination = options.destination ?? process.stdout;
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  if (!pretty) return destination;
  return PinoPretty({ destination, colorize: options.destination === undefined, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname,app', sync: true });
}

/** A logger that writes nothing, for library code used without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
