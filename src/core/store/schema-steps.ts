// The schema's steps and how they combine. The core (migrations.ts) and each feature (beside its store areas)
// declare their own steps; the store runs them all, one version at a time, each version in one transaction
// (migrations.ts on SQLite, pg-migrations.ts on PostgreSQL). A released step stays the hand-written SQL it was
// released as, for each database; a newer one is written once with Kysely's schema builder and compiled for either.
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

/** A released step as it was released: its SQL for SQLite and its PostgreSQL twin (same tables, other types). */
export interface SqlStep {
  version: number;
  name: string;
  sql: string;
  postgres: string;
}

/** A step one owner (the core, a feature) declares. */
export type SchemaStep = SqlStep | BuiltStep;

/**
 * One version of the whole schema: the steps of that number, in their owners' order, run in one transaction and
 * recorded as one row of schema_migrations (named by their names, joined).
 */
export interface SchemaVersion {
  version: number;
  name: string;
  steps: readonly SchemaStep[];
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

/** A version's statements in `dialect`'s SQL: a released step's text whole, a built step's compiled. */
export function statementsOf(
  version: SchemaVersion,
  dialect: SchemaDialect,
): Array<{ sql: string; parameters: readonly unknown[] }> {
  return version.steps.flatMap((step): Array<{ sql: string; parameters: readonly unknown[] }> =>
    'up' in step
      ? compileStep(step, dialect)
      : [{ sql: dialect === 'sqlite' ? step.sql : step.postgres, parameters: [] }],
  );
}

/**
 * The whole schema from its owners' steps (e.g. the features' and the core's): each version's steps in the order the
 * owners are given. Versions run 1, 2, 3... without a gap, and an owner declares a version at most once; a schema
 * that breaks either stops start-up, naming the version.
 */
export function composeSchema(owners: ReadonlyArray<readonly SchemaStep[]>): SchemaVersion[] {
  const byVersion = new Map<number, SchemaStep[]>();
  for (const steps of owners) {
    const seen = new Set<number>();
    for (const step of steps) {
      if (seen.has(step.version)) throw new Error(`schema step ${step.version} is declared twice by one owner`);
      seen.add(step.version);
      byVersion.set(step.version, [...(byVersion.get(step.version) ?? []), step]);
    }
  }
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  versions.forEach((version, index) => {
    if (version !== index + 1) throw new Error(`schema step ${index + 1} is missing (the next is ${version})`);
  });
  return versions.map((version) => {
    const steps = byVersion.get(version)!;
    return { version, name: steps.map((step) => step.name).join(', '), steps };
  });
}

export class SchemaTooNewError extends Error {
  constructor(found: number, latest: number) {
    super(
      `The database is at schema version ${found}, newer than this SayBot knows (${latest}). ` +
        'Run the newer SayBot, or restore a backup made with this version.',
    );
    this.name = 'SchemaTooNewError';
  }
}
