// Start-up failures that mean "Discord cannot be reached from here" (DNS, refused, reset, timed out), turned into
// one line a server owner can act on instead of a bare `getaddrinfo ENOTFOUND discord.com` or a stack trace.

/** System and undici error codes of a connection that never got an HTTP answer. */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the name does not resolve (DNS)',
  EAI_AGAIN: 'the name does not resolve right now (DNS)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection closed',
};

/** The first network error code in an error and its `cause` chain (fetch wraps the socket's error). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_CODES) return code;
    const errors = (e as { errors?: unknown }).errors; // AggregateError: every address tried
    if (Array.isArray(errors)) {
      const inner = errors.map((x) => networkErrorCode(x)).find((x) => x !== undefined);
      if (inner !== undefined) return inner;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Thrown by start-up when Discord cannot be reached; its message is the one line `npm start` prints. */
export class DiscordUnreachableError extends Error {
  readonly code: string;
  constructor(apiUrl: string, code: string, options?: ErrorOptions) {
    super(
      `Cannot reach Discord at ${apiUrl}: ${NETWORK_CODES[code] ?? 'no answer'} (${code}). ` +
        "Check this machine's internet connection, DNS and firewall/proxy" +
        (apiUrl.includes('discord.com') ? '.' : ', and DISCORD_API_BASE_URL.'),
      options,
    );
    this.name = 'DiscordUnreachableError';
    this.code = code;
  }
}

/** `error` as a DiscordUnreachableError when it is a network failure, else unchanged. */
export function asDiscordUnreachable(error: unknown, apiUrl: string): unknown {
  const code = networkErrorCode(error);
  return code === undefined ? error : new DiscordUnreachableError(apiUrl, code, { cause: error });
}
