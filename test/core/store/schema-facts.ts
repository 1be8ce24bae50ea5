// A database's schema as facts, one a line: each table's columns (position, type, nullability, default, key), its
// constraints, indexes and foreign keys, and the rows the steps themselves write. Read from what the database made of
// the steps, never from their text: SQLite keeps each CREATE statement as written, so two spellings of one table
// (upper or lower case, quoted names, comments) give the same facts, and facts that differ are a table that differs.
import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';

/** Spelling aside: identifiers unquoted, one space, no space inside parentheses, lower case (no literal differs by case). */
function normal(text: string): string {
  return text.replace(/"/g, '').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim().toLowerCase();
}

/** The expressions of a CREATE TABLE statement's CHECK constraints (column or table ones: SQLite treats both alike). */
export function checksOf(createTable: string): string[] {
  const text = createTable.replace(/--[^\n]*/g, '');
  const checks: string[] = [];
  const start = /\bcheck\s*\(/gi;
  for (let match = start.exec(text); match; match = start.exec(text)) {
    let depth = 1;
    let quote: string | undefined;
    let at = match.index + match[0].length;
    const from = at;
    for (; at < text.length && depth > 0; at++) {
      const c = text[at]!;
      if (quote !== undefined) {
        if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    checks.push(normal(text.slice(from, at - 1)));
    start.lastIndex = at;
  }
  return checks.sort();
}

const rowsOf = (db: DatabaseSync, query: string, ...parameters: string[]): Array<Record<string, unknown>> =>
  db.prepare(query).all(...parameters);

/** The rows a table holds, but schema_migrations' by version and name (when a step ran is no part of the schema). */
function rowFacts(table: string, rows: ReadonlyArray<Record<string, unknown>>): string[] {
  if (table === 'schema_migrations')
    return rows.map((r) => `${table}: version ${String(r['version'])} ${String(r['name'])}`);
  return rows.map((r) => `${table}: row ${JSON.stringify(r)}`).sort();
}

/** SQLite's facts: PRAGMA table_list, table_xinfo, index_list, index_xinfo, foreign_key_list, and the CHECKs. */
export function sqliteFacts(db: DatabaseSync): string[] {
  const facts: string[] = [];
  const tables = rowsOf(
    db,
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  for (const { name, sql } of tables) {
    const table = String(name);
    const list = rowsOf(db, 'SELECT strict, wr FROM pragma_table_list WHERE schema = ? AND name = ?', 'main', table)[0];
    facts.push(
      `${table}: table${list?.['strict'] === 1 ? ' strict' : ''}${list?.['wr'] === 1 ? ' without rowid' : ''}`,
    );
    for (const c of rowsOf(db, 'SELECT * FROM pragma_table_xinfo(?) ORDER BY cid', table))
      facts.push(
        `${table}: column ${String(c['cid']).padStart(2, '0')} ${String(c['name'])} ${String(c['type']).toUpperCase()}` +
          (c['notnull'] === 1 ? ' not null' : '') +
          (c['dflt_value'] === null ? '' : ` default ${String(c['dflt_value'])}`) +
          (c['pk'] === 0 ? '' : ` primary key ${String(c['pk'])}`) +
          (c['hidden'] === 0 ? '' : ` hidden ${String(c['hidden'])}`),
      );
    for (const check of checksOf(String(sql))) facts.push(`${table}: check (${check})`);
    for (const index of rowsOf(db, 'SELECT * FROM pragma_index_list(?) ORDER BY name', table)) {
      const indexName = String(index['name']);
      const keys = rowsOf(db, 'SELECT * FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno', indexName).map(
        (k) => `${String(k['name'])}${k['desc'] === 1 ? ' desc' : ''} collate ${String(k['coll'])}`,
      );
      const created = rowsOf(db, "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", indexName)[0];
      const where = index['partial'] === 1 ? / where (.*)$/is.exec(normal(String(created?.['sql'])))?.[1] : undefined;
      facts.push(
        `${table}: index ${indexName} (${keys.join(', ')})${index['unique'] === 1 ? ' unique' : ''} ` +
          `origin ${String(index['origin'])}${where === undefined ? '' : ` where ${where}`}`,
      );
    }
    for (const key of rowsOf(db, 'SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq', table))
      facts.push(
        `${table}: foreign key ${String(key['id'])} (${String(key['from'])}) references ${String(key['table'])} ` +
          `(${String(key['to'])}) on update ${String(key['on_update'])} on delete ${String(key['on_delete'])} ` +
          `match ${String(key['match'])}`,
      );
    facts.push(
      ...rowFacts(
        table,
        rowsOf(db, `SELECT * FROM "${table}"${table === 'schema_migrations' ? ' ORDER BY version' : ''}`),
      ),
    );
  }
  return facts;
}

/** PostgreSQL's facts from its catalogue: information_schema's columns, pg_constraint, pg_indexes, pg_sequences. */
export async function postgresFacts(client: pg.ClientBase): Promise<string[]> {
  const query = async (text: string): Promise<Array<Record<string, unknown>>> => (await client.query(text)).rows;
  const columns = await query(`
    SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default, is_identity,
           identity_generation
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`);
  const constraints = await query(`
    SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY table_name, conname`);
  const indexes = await query(`
    SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname`);
  const sequences = await query(`
    SELECT sequencename, data_type::text AS data_type FROM pg_sequences WHERE schemaname = 'public'
    ORDER BY sequencename`);
  const tables = (await query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).map(
    (r) => String(r['tablename']),
  );
  const facts: string[] = [];
  for (const table of tables) {
    facts.push(`${table}: table`);
    for (const c of columns.filter((r) => r['table_name'] === table))
      facts.push(
        `${table}: column ${String(c['ordinal_position']).padStart(2, '0')} ${String(c['column_name'])} ` +
          String(c['data_type']) +
          (c['is_nullable'] === 'NO' ? ' not null' : '') +
          (c['column_default'] === null ? '' : ` default ${String(c['column_default'])}`) +
          (c['is_identity'] === 'YES' ? ` generated ${String(c['identity_generation'])} as identity` : ''),
      );
    for (const c of constraints.filter((r) => r['table_name'] === table))
      facts.push(`${table}: constraint ${String(c['conname'])} ${String(c['definition'])}`);
    for (const i of indexes.filter((r) => r['tablename'] === table))
      facts.push(`${table}: index ${String(i['indexname'])} ${String(i['indexdef'])}`);
    const order = table === 'schema_migrations' ? ' ORDER BY version' : '';
    facts.push(...rowFacts(table, await query(`SELECT * FROM "${table}"${order}`)));
  }
  for (const s of sequences) facts.push(`sequence ${String(s['sequencename'])} ${String(s['data_type'])}`);
  return facts;
}

/**
 * The facts of each version as what it added (+) and took away (-) from the version before, under a heading naming
 * the version: the whole schema, readable one step at a time.
 */
export function factsByVersion(
  versions: ReadonlyArray<{ version: number; name: string; facts: readonly string[] }>,
): string {
  const out: string[] = [];
  let before = new Set<string>();
  for (const { version, name, facts } of versions) {
    const now = new Set(facts);
    out.push('', `## ${version}: ${name}`);
    for (const fact of before) if (!now.has(fact)) out.push(`- ${fact}`);
    for (const fact of facts) if (!before.has(fact)) out.push(`+ ${fact}`);
    before = now;
  }
  return `${out.join('\n').trimStart()}\n`;
}
