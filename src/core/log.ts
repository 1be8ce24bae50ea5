import { pino, type Logger, type LevelWithSilent } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { cleanString, loggable, MAX_STRING, REDACTED } from './log-value.ts';

export type { Logger };

export { redactSecrets } from './log-value.ts';

/** The most a line may take (UTF-8 bytes): values are bounded by log-value.ts; this bounds their sum. */
export const MAX_LOG_LINE_BYTES = 32 * 1024;
const FIELDS_BUDGET = MAX_LOG_LINE_BYTES - 2 * 1024;
const MAX_FIELD_WHEN_CUT = 1024;

/** A line's fields cleaned and, if still too long, cut field by field: small ones kept, a large one by its size. */
function boundedFields(
  object: Record<string, unknown>,
  secrets: readonly string[],
  messageBytes: number,
): Record<string, unknown> {
  const clean = loggable(object, secrets) as Record<string, unknown>;
  const budget = FIELDS_BUDGET - messageBytes;
  const whole = JSON.stringify(clean);
  if (whole === undefined || Buffer.byteLength(whole) <= budget) return clean;
  const out: Record<string, unknown> = {};
  let used = 64;
  for (const [key, v] of Object.entries(clean)) {
    const size = Buffer.byteLength(JSON.stringify(v) ?? '') + key.length + 4;
    if (size <= MAX_FIELD_WHEN_CUT && used + size <= budget) {
      out[key] = v;
      used += size;
    } else if (used + 64 <= budget) {
      out[key] = `[${size} bytes left out: the line would be too long]`;
      used += 64;
    }
  }
  out['logLineCut'] = true;
  return out;
}

interface LoggerOptions {
  level?: LevelWithSilent;
  /** Values that must never be written: the Voice API key, the Discord token. */
  secrets?: readonly string[];
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream | undefined;
  /** Human-readable lines (pino-pretty: local times, colours) instead of JSON; default: when stdout is a terminal. */
  pretty?: boolean;
}

/** One JSON line per event (pino); secrets by name and value, tokens masked, REST bodies and bytes dropped, bounded. */
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
        // The message counts too: it was cut to MAX_STRING characters by logMethod below.
        log: (object) => boundedFields(object, secrets, 3 * MAX_STRING),
      },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((a) => (typeof a === 'string' ? cleanString(a, secrets) : a));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
      // pino's error serializer keeps every field (a REST error's URL and body); loggable keeps what an operator needs.
      serializers: { err: (err: unknown) => loggable(err, secrets) },
    },
    prettyOrNot(options),
  );
}

/** JSON for files, pipes and log collectors; pino-pretty in a terminal. Redaction happens before either. */
function prettyOrNot(options: LoggerOptions): NodeJS.WritableStream {
  const destination = options.destination ?? process.stdout;
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  if (!pretty) return destination;
  return PinoPretty({
    destination,
    colorize: options.destination === undefined,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'pid,hostname,app',
    sync: true,
  });
}

/** A logger that writes nothing, for library code used without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
