/**
 * What a value becomes in a log line (src/core/log.ts): secrets and tokens out, no bodies or bytes, Error.cause kept,
 * everything bounded so no value makes a line large or slow.
 */

export const REDACTED = '[redacted]';

const MAX_DEPTH = 6;
const MAX_CAUSES = 4;
const MAX_KEYS = 40;
const MAX_ITEMS = 40;
export const MAX_STRING = 4_000;

/** An interaction token in a webhook or callback URL: 15 minutes of acting as the bot for whoever reads the log. */
const TOKEN_IN_PATH = /(\/(?:webhooks|interactions)\/\d+\/)[^/?#\s"']+/g;

/** Replaces every occurrence of a known secret (6 characters or more: shorter ones would mangle ordinary text). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

export function cleanString(text: string, secrets: readonly string[], max = MAX_STRING): string {
  const bounded = text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
  return redactSecrets(bounded, secrets).replace(TOKEN_IN_PATH, '$1:token');
}

/** The path of a request URL, tokens masked, without its query (which may hold anything). */
function routeOf(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  return path.replace(TOKEN_IN_PATH, '$1:token');
}

function bytesLabel(value: object): string | undefined {
  if (ArrayBuffer.isView(value)) return `[${value.constructor.name}: ${value.byteLength} bytes]`;
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer)
    return `[${value.constructor.name}: ${value.byteLength} bytes]`;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return `[Blob: ${value.size} bytes]`;
  const record = value as { type?: unknown; data?: unknown };
  // Buffer.toJSON(), as it arrives from a value that was serialised once already.
  if (record.type === 'Buffer' && Array.isArray(record.data)) return `[Buffer: ${record.data.length} bytes]`;
  return undefined;
}

/** An object whose keys are 0, 1, 2, …: bytes spread into an object (`{ ...uint8array }`), one key per byte. */
function indexedCount(value: object): number | undefined {
  const keys = Object.keys(value);
  if (keys.length < 8) return undefined;
  for (let i = 0; i < Math.min(keys.length, 16); i++) if (keys[i] !== String(i)) return undefined;
  return keys.length;
}

interface Walk {
  secrets: readonly string[];
  /** The objects on the path from the root: a value met again below itself is circular. */
  path: Set<object>;
  /** Values still to be visited: shared references in a large graph must not multiply the work. */
  budget: number;
}

const MAX_VALUES = 2_000;

/** A discord.js REST error (DiscordAPIError, HTTPError, RateLimitError): they carry the URL and the request body. */
function isRestError(error: Error): error is Error & { method: string; url: string } {
  const e = error as unknown as Record<string, unknown>;
  return (
    typeof e['method'] === 'string' &&
    typeof e['url'] === 'string' &&
    ('requestBody' in e || 'route' in e || 'rawError' in e)
  );
}

function restError(error: Error & { method: string; url: string }, walk: Walk): Record<string, unknown> {
  const e = error as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {
    type: cleanString(error.name, walk.secrets, 200),
    message: cleanString(error.message, walk.secrets, 1000),
    method: error.method,
    route: routeOf(error.url),
  };
  if (error.stack !== undefined) out['stack'] = cleanString(error.stack, walk.secrets);
  for (const key of ['code', 'status', 'retryAfter', 'timeToReset', 'limit', 'global', 'scope', 'sublimitTimeout']) {
    const v = e[key];
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
      out[key] = typeof v === 'string' ? cleanString(v, walk.secrets, 200) : v;
  }
  return out;
}

function errorValue(error: Error, depth: number, causes: number, walk: Walk): Record<string, unknown> {
  if (isRestError(error)) return restError(error, walk);
  const out: Record<string, unknown> = {
    type: cleanString(error.name, walk.secrets, 200),
    message: cleanString(error.message, walk.secrets),
  };
  if (error.stack !== undefined) out['stack'] = cleanString(error.stack, walk.secrets);
  const own = value(Object.fromEntries(Object.entries(error).filter(([k]) => k !== 'cause')), depth + 1, walk);
  if (own !== null && typeof own === 'object') Object.assign(out, own);
  if (error.cause !== undefined) {
    out['cause'] = causes >= MAX_CAUSES ? '[more causes not shown]' : causeValue(error.cause, depth, causes + 1, walk);
  }
  return out;
}

function causeValue(cause: unknown, depth: number, causes: number, walk: Walk): unknown {
  if (cause instanceof Error) {
    if (walk.path.has(cause)) return '[circular]';
    // A cause chain is followed to MAX_CAUSES whatever the object depth it started at.
    return within(cause, walk, () => errorValue(cause, Math.min(depth, MAX_DEPTH - 2), causes, walk));
  }
  return value(cause, depth + 1, walk);
}

function value(input: unknown, depth: number, walk: Walk): unknown {
  if (typeof input === 'string') return cleanString(input, walk.secrets);
  if (typeof input === 'bigint') return input.toString();
  if (typeof input === 'function' || typeof input === 'symbol') return undefined;
  if (input === null || typeof input !== 'object') return input;
  const bytes = bytesLabel(input);
  if (bytes !== undefined) return bytes;
  if (walk.path.has(input)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (walk.budget <= 0) return '[not shown: too many values]';
  walk.budget -= 1;
  return within(input, walk, () => objectValue(input, depth, walk));
}

function within<T>(object: object, walk: Walk, visit: () => T): T {
  walk.path.add(object);
  try {
    return visit();
  } finally {
    walk.path.delete(object);
  }
}

function objectValue(input: object, depth: number, walk: Walk): unknown {
  if (input instanceof Error) return errorValue(input, depth, 0, walk);
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? 'Invalid Date' : input.toISOString();
  if (input instanceof Map || input instanceof Set) return `[${input.constructor.name}: ${input.size} entries]`;
  if (Array.isArray(input)) {
    const items = input.slice(0, MAX_ITEMS).map((v) => value(v, depth + 1, walk));
    if (input.length > MAX_ITEMS) items.push(`… ${input.length - MAX_ITEMS} more items`);
    return items;
  }
  const indexed = indexedCount(input);
  if (indexed !== undefined) return `[${indexed} indexed values]`;
  const toJSON = (input as { toJSON?: unknown }).toJSON;
  let source: unknown = input;
  try {
    if (typeof toJSON === 'function') source = (toJSON as () => unknown).call(input);
  } catch {
    return '[not serialisable]';
  }
  if (source !== input) return value(source, depth, walk);
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const key in source as Record<string, unknown>) {
    if (!Object.hasOwn(source as object, key)) continue;
    if (count === MAX_KEYS) {
      out['…'] = `${Object.keys(source as object).length - MAX_KEYS} more keys`;
      break;
    }
    count += 1;
    out[cleanString(key, walk.secrets, 200)] = value((source as Record<string, unknown>)[key], depth + 1, walk);
  }
  return out;
}

/** `input` as it may be written in a log line. */
export function loggable(input: unknown, secrets: readonly string[]): unknown {
  return value(input, 0, { secrets, path: new Set(), budget: MAX_VALUES });
}
