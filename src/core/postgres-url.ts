// Why a postgres:// DATABASE_URL cannot be read, never showing it: a password with / ? or # ends the user part early,
// failing with "Invalid URL" or, worse, parsing into another host.

const HOW_TO_FIX =
  'percent-encode it (/ as %2F, # as %23, ? as %3F, @ as %40, : as %3A, % as %25, a space as %20; ' +
  '`node -p "encodeURIComponent(process.argv[1])" \'the password\'` prints it encoded), ' +
  'or use a password that needs no encoding, e.g. from `openssl rand -hex 24`';

/** The URL as the PostgreSQL driver (pg-connection-string) reads it: spaces and stray % are encoded first. */
function asDriverReadsIt(url: string): string {
  return /\s|%(?![0-9a-f]{2})/i.test(url) ? encodeURI(url).replace(/%25([0-9a-f]{2})/gi, '%$1') : url;
}

/** What is wrong with a postgres:// URL, naming the part (never its value); undefined when the driver can read it. */
export function postgresUrlProblem(url: string): string | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (!scheme) return 'must start with postgres:// or postgresql://';
  const rest = url.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at === -1 && rest.includes('@')) {
    // The '@' that ends the user part comes after a / ? or #: that character sits in the user name or password.
    const part = authority.includes(':') ? 'password' : 'user name';
    return `cannot be read: its ${part} holds a / ? or # (characters that end that part of a URL early); ${HOW_TO_FIX}`;
  }
  const hostAndPort = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority.slice(at + 1));
  const port = hostAndPort?.[2];
  if (port !== undefined && port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    return `cannot be read: its port (after the host and a ':') must be a number from 1 to 65535; if the password holds a ':' or '@', ${HOW_TO_FIX}`;
  }
  if (!URL.canParse(asDriverReadsIt(url))) {
    return `cannot be read as postgres://USER:PASSWORD@HOST:PORT/DATABASE: check its host, and if the user name or password holds a special character, ${HOW_TO_FIX}`;
  }
  return undefined;
}
