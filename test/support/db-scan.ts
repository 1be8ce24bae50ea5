import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

/** One table's columns, read from the database's own catalogue. */
export interface TableColumns {
  table: string;
  columns: string[];
}

/** One row of one table, as the database holds it (every column as text). */
export interface ScannedRow {
  table: string;
  cells: Record<string, string | null>;
}

/**
 * Every table and every row of a database, enumerated from the database itself (never from a list in the code):
 * a table added later is scanned too, so a deletion test sees a table that its deletion missed.
 */
export interface DatabaseScan {
  tables: TableColumns[];
  rows: ScannedRow[];
}

export function scanSqlite(file: string): DatabaseScan {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => String(r['name']));
    const tables = names.map((table) => ({
      table,
      columns: db
        .prepare(`PRAGMA table_info("${table}")`)
        .all()
        .map((c) => String(c['name'])),
    }));
    const rows = tables.flatMap(({ table }) =>
      db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .map((r) => ({
          table,
          cells: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])),
        })),
    );
    return { tables, rows };
  } finally {
    db.close();
  }
}

export async function scanPostgres(url: string): Promise<DatabaseScan> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    );
    const byTable = new Map<string, string[]>();
    for (const c of columns.rows) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
    const tables = [...byTable].map(([table, cols]) => ({ table, columns: cols }));
    const rows: ScannedRow[] = [];
    for (const { table } of tables) {
      const result = await client.query<Record<string, unknown>>(`SELECT * FROM "${table}"`);
      for (const r of result.rows)
        rows.push({
          table,
          cells: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])),
        });
    }
    return { tables, rows };
  } finally {
    await client.end();
  }
}

/** The scan of the database a contract backend's URL names (sqlite:<file> or postgres://). */
export function scanUrl(url: string): Promise<DatabaseScan> {
  return url.startsWith('sqlite:') ? Promise.resolve(scanSqlite(url.slice('sqlite:'.length))) : scanPostgres(url);
}

/** Rows holding `id` in any column. */
export const rowsHolding = (scan: DatabaseScan, id: string): ScannedRow[] =>
  scan.rows.filter((r) => Object.values(r.cells).includes(id));
