// `npm run licenses`: the licence of every package SayBot installs, read from package-lock.json (what `npm ci`
// installs, dev tools apart), and a non-zero exit when one of them does not let SayBot be shared under its own
// MIT licence. An optional dependency (eSpeak NG, GPL-3.0-or-later: the free voice) is listed with its licence and
// marked: SayBot loads it only when it is present and runs without it (`npm ci --omit=optional` leaves it out). Run by the tests too (test/structure/licenses.test.ts), so a new dependency is checked as it lands.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Licences whose code may ship beside MIT code with no condition beyond keeping their notices. */
const PERMISSIVE = [
  'MIT',
  'ISC',
  '0BSD',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'Python-2.0',
  'CC0-1.0',
  'Unlicense',
];
/**
 * Weak copyleft, fine for packages used unmodified and installed as their own files (which npm does): LGPL lets the
 * user replace the library, MPL covers only its own files, OFL only the fonts.
 */
const FILE_LEVEL = ['LGPL-2.1', 'LGPL-2.1-or-later', 'LGPL-3.0', 'LGPL-3.0-or-later', 'MPL-2.0', 'OFL-1.1'];
const ALLOWED = new Set([...PERMISSIVE, ...FILE_LEVEL]);

export interface LockPackage {
  license?: string;
  dev?: boolean;
  optional?: boolean;
  link?: boolean;
  version?: string;
}

export interface LicenceRow {
  name: string;
  version: string;
  licence: string;
  dev: boolean;
  /** An optional dependency: loaded only when present, so its licence binds only whoever installs it. */
  optional: boolean;
  allowed: boolean;
}

/** "MIT AND OFL-1.1" needs both allowed; "(MIT OR GPL-3.0)" needs one. */
export function licenceAllowed(expression: string): boolean {
  const text = expression.replace(/[()]/g, ' ').trim();
  if (text === '') return false;
  if (/\sOR\s/.test(text)) return text.split(/\s+OR\s+/).some((part) => licenceAllowed(part));
  return text.split(/\s+AND\s+/).every((part) => ALLOWED.has(part.trim()));
}

/** One row per installed package of a lockfile (workspace links and the project itself left out). */
export function licenceRows(lock: { packages: Record<string, LockPackage> }): LicenceRow[] {
  const rows: LicenceRow[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || !path.includes('node_modules/') || entry.link === true) continue;
    const licence = entry.license ?? 'none stated';
    rows.push({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version ?? '?',
      licence,
      dev: entry.dev === true,
      optional: entry.optional === true,
      allowed: licenceAllowed(licence) || entry.optional === true,
    });
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

function main(): void {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, LockPackage>;
  };
  const rows = licenceRows(lock);
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.licence, (counts.get(row.licence) ?? 0) + 1);
  for (const row of rows)
    console.log(
      `${row.allowed ? ' ' : '!'} ${row.name}@${row.version}  ${row.licence}${row.dev ? '  (dev)' : ''}${
        row.optional ? '  (optional: loaded only when present; npm ci --omit=optional leaves it out)' : ''
      }`,
    );
  console.log('');
  for (const [licence, count] of [...counts].sort((a, b) => b[1] - a[1]))
    console.log(`${String(count).padStart(4)}  ${licence}`);
  const refused = rows.filter((row) => !row.allowed);
  if (refused.length > 0) {
    console.error(
      `\n${refused.length} package(s) under a licence that does not allow sharing SayBot under MIT (marked !)`,
    );
    process.exitCode = 1;
  } else {
    console.log(`\n${rows.length} packages; every licence allows SayBot's MIT licence`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
