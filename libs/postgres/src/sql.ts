import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type pg from 'pg';

/**
 * A typed query builder over a service's tables that only writes SQL: statements are compiled with
 * `.compile()` and sent on the caller's own connection (`execute`), so they run inside the
 * transactions, pipelines and retries of this library like any hand-written statement. `Tables`
 * describes the service's schema (column names and types), so a renamed or added column is a type
 * error rather than a renumbered placeholder.
 */
export function sqlBuilder<Tables>(): Kysely<Tables> {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

/**
 * The `pg` query config of a built statement. `name` makes it a prepared statement on each
 * connection (for statements run many times a second).
 */
export function queryConfig<Row>(statement: Compilable<Row>, name?: string): pg.QueryConfig {
  const compiled = statement.compile();
  return { text: compiled.sql, values: [...compiled.parameters], ...(name ? { name } : {}) };
}

/** Runs a built statement on a pool or a transaction's client and returns its rows. */
export async function execute<Row>(
  connection: Pick<pg.ClientBase, 'query'>,
  statement: Compilable<Row>,
  name?: string,
): Promise<Row[]> {
  const result = await connection.query(queryConfig(statement, name));
  return result.rows as Row[];
}
