import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ComposedStore } from './composed-store.ts';
import { migrate } from './migrations.ts';
import { num } from './rows.ts';
import { SqliteAccounting } from './sqlite/accounting.ts';
import { SqliteAutoRead } from './sqlite/auto-read.ts';
import { SqliteDb } from './sqlite/db.ts';
import { SqliteDictionary } from './sqlite/dictionary.ts';
import { SqliteOutputDefaults } from './sqlite/output-defaults.ts';
import { SqlitePresets } from './sqlite/presets.ts';
import { SqlitePrivacy } from './sqlite/privacy.ts';
import { SqliteVoiceLibrary } from './sqlite/voice-library.ts';

export interface SqliteStoreOptions {
  /** How long a write waits for another connection's lock before failing (SQLITE_BUSY); default 5000 ms. */
  busyTimeoutMs?: number;
}

/** Opens the file in WAL mode and migrates it; the connection closed again if either fails. */
function openDatabase(file: string, options: SqliteStoreOptions): DatabaseSync {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? 5000, enableForeignKeyConstraints: true });
  try {
    if (file !== ':memory:') {
      const mode = db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'];
      if (mode !== 'wal') throw new Error(`SQLite would not use WAL mode for ${file} (got ${String(mode)})`);
    }
    db.exec('PRAGMA synchronous = FULL');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * The Store on SQLite through Node's built-in node:sqlite: one connection (sqlite/db.ts) shared by one module per
 * area (src/store/sqlite/), composed into the Store.
 *
 * Durability: WAL journal with synchronous=FULL. WAL lets readers (autocomplete) proceed while a write commits
 * and survives a killed process with either setting; FULL also syncs the WAL at every commit, so a commit that
 * was acknowledged survives a power cut or OS crash too. SayBot writes rarely (admin commands, member defaults,
 * one spend record per request), so the extra fsync per commit costs nothing noticeable.
 */
export class SqliteStore extends ComposedStore {
  readonly path: string;
  readonly #db: SqliteDb;
  #closed = false;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    const db = new SqliteDb(openDatabase(file, options));
    super({
      presets: new SqlitePresets(db),
      voiceLibrary: new SqliteVoiceLibrary(db),
      accounting: new SqliteAccounting(db),
      autoRead: new SqliteAutoRead(db),
      dictionary: new SqliteDictionary(db),
      outputDefaults: new SqliteOutputDefaults(db),
      privacy: new SqlitePrivacy(db),
    });
    this.path = file;
    this.#db = db;
  }

  /** The schema version the file is at (for tests and the start-up log). */
  get schemaVersion(): number {
    return num(this.#db.get('SELECT max(version) AS v FROM schema_migrations')?.['v']) ?? 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
