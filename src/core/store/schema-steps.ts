// A schema step written once, with Kysely's schema builder, for both databases: the step builds its statements,
// and each backend compiles them in its own dialect (migrations.ts runs them on SQLite, pg-migrations.ts on
// PostgreSQL). The released steps stay the hand-written SQL they were released as.
import {
  type Compilable,
  type CompiledQuery,
  type Dialect,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

/** A step sees the tables as they were when it was written, not as schema.ts types them now: untyped. */
export type StepTables = Record<string, Record<string, unknown>>;

/**
 * The column types the two databases spell differently, as the released steps chose them: SQLite's STRICT tables
 * take only INTEGER, REAL and TEXT; PostgreSQL keeps flags in SMALLINT and milliseconds in BIGINT.
 */
export interface ColumnTypes {
  /** A 0/1 flag. */
  flag: 'integer' | 'smallint';
  /** Milliseconds since the epoch, or a count that may pass 2^31. */
  milliseconds: 'integer' | 'bigint';
  /** A fractional number. */
  real: 'real' | 'double precision';
}

/** One step of the schema, its statements built for either database. */
export interface BuiltStep {
  version: number;
  name: string;
  /** The statements, in order (schema changes, and any data change with them); built, not run. */
  up(db: Kysely<StepTables>, types: ColumnTypes): readonly Compilable[];
}

export type SchemaDialect = 'sqlite' | 'postgres';

/** A dialect that compiles and never connects: its driver refuses to run anything. */
function compileOnly(
  adapter: SqliteAdapter | PostgresAdapter,
  compiler: () => SqliteQueryCompiler | PostgresQueryCompiler,
): Kysely<StepTables> {
  const isSqlite = adapter instanceof SqliteAdapter;
  const dialect: Dialect = {
    createAdapter: () => adapter,
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => (isSqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
    createQueryCompiler: compiler,
  };
  return new Kysely<StepTables>({ dialect });
}

const BUILDERS: Record<SchemaDialect, { db: Kysely<StepTables>; types: ColumnTypes }> = {
  sqlite: {
    db: compileOnly(new SqliteAdapter(), () => new SqliteQueryCompiler()),
    types: { flag: 'integer', milliseconds: 'integer', real: 'real' },
  },
  postgres: {
    db: compileOnly(new PostgresAdapter(), () => new PostgresQueryCompiler()),
    types: { flag: 'smallint', milliseconds: 'bigint', real: 'double precision' },
  },
};

/** The step's statements in `dialect`'s SQL, with their parameters (a schema change has none). */
export function compileStep(step: BuiltStep, dialect: SchemaDialect): CompiledQuery[] {
  const { db, types } = BUILDERS[dialect];
  return step.up(db, types).map((statement) => statement.compile());
}
