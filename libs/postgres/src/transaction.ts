import { retry } from '@engage/kit';
import type pg from 'pg';

/** Serialization failure and deadlock: safe to run the whole transaction again. */
const RETRYABLE = new Set(['40001', '40P01']);

export class TransactionRetriesExhausted extends Error {
  override name = 'TransactionRetriesExhausted';
}

/**
 * The connection failed while COMMIT was under way: whether the transaction committed is unknown,
 * so running its work again could apply it twice. Never retried here.
 */
export class CommitOutcomeUnknown extends Error {
  override name = 'CommitOutcomeUnknown';
}

export interface TransactionOptions {
  isolation?: 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';
  /** Attempts after the first one when Postgres reports a serialization failure or deadlock. */
  retries?: number;
  onRetry?: (attempt: number, code: string) => void;
  /**
   * Statements sent together with `BEGIN`, one round trip instead of two, on any pool (see
   * `queryTogether`). Parameterised like any statement; their results, in order, are `work`'s
   * second argument.
   */
  startWith?: pg.QueryConfig[];
}

/**
 * Runs `work` in one transaction and commits it; rolls back on any error. Serialization failures
 * and deadlocks are retried with capped, jittered backoff; when retries run out the caller gets
 * TransactionRetriesExhausted (answered as the contract's concurrent_update codes). A connection lost
 * during COMMIT throws CommitOutcomeUnknown.
 */
export function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, started: pg.QueryResult[]) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  return retried(pool, options, async (client) => {
    const started = await begin(client, options);
    const result = await work(client, started);
    await commit(client);
    return result;
  });
}

/**
 * A transaction whose first statement is written together with its BEGIN, and whose last one
 * (`commitWith`) together with its COMMIT: a read-then-write transaction in two round trips instead
 * of four. Only on a pool created with `pipeline: true`; on another, the same statements go one
 * after another.
 */
export interface PipelinedTransaction {
  /** Runs a statement in the transaction (the first one carries the BEGIN). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
  /**
   * Runs the transaction's last statement and commits, in one round trip. A statement that fails
   * rolls the transaction back (its error is thrown); a connection lost meanwhile throws
   * CommitOutcomeUnknown, as the COMMIT may have run.
   */
  commitWith<R extends pg.QueryResultRow = pg.QueryResultRow>(
    config: pg.QueryConfig,
  ): Promise<pg.QueryResult<R>>;
}

/**
 * `withTransaction` for work written against a PipelinedTransaction: the same isolation, retries,
 * rollback and CommitOutcomeUnknown. Work that ends without `commitWith` is committed after it (a
 * transaction that ran no statement sends nothing).
 */
export function withPipelinedTransaction<T>(
  pool: pg.Pool,
  work: (tx: PipelinedTransaction) => Promise<T>,
  options: Omit<TransactionOptions, 'startWith'> = {},
): Promise<T> {
  return retried(pool, options, async (client) => {
    const tx = pipelinedTransaction(client, beginStatement(options));
    const result = await work(tx);
    await tx.finish();
    return result;
  });
}

function pipelinedTransaction(client: pg.PoolClient, beginSql: string) {
  let state: 'idle' | 'begun' | 'committed' = 'idle';
  const opening = (): (string | pg.QueryConfig)[] => (state === 'idle' ? [beginSql] : []);
  const usable = () => {
    if (state === 'committed') throw new Error('the transaction has already committed');
  };
  return {
    async query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
      usable();
      const statements = [...opening(), config];
      state = 'begun';
      return (await sendTogether(client, statements)).at(-1) as pg.QueryResult<R>;
    },
    async commitWith<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
      usable();
      const statements = [...opening(), config, 'COMMIT'];
      state = 'committed';
      let results: pg.QueryResult[];
      try {
        results = await sendTogether(client, statements);
      } catch (err) {
        throw commitFailure(err);
      }
      // COMMIT of a transaction an earlier error aborted answers ROLLBACK (the error was the caller's).
      if (results.at(-1)!.command !== 'COMMIT')
        throw new Error('the transaction was rolled back, not committed');
      return results.at(-2) as pg.QueryResult<R>;
    },
    async finish(): Promise<void> {
      if (state !== 'begun') return;
      state = 'committed';
      await commit(client);
    },
  };
}

/**
 * Sends statements in order and answers their results. On a pipelining client they are written in
 * one message, each still with its own Sync: a failed one does not stop the next (a COMMIT after a
 * failed statement answers ROLLBACK); the first failure, in statement order, is thrown once all
 * answered. On any other client they run one after another up to the first failure.
 */
async function sendTogether(client: pg.PoolClient, statements: (string | pg.QueryConfig)[]) {
  if (!client.pipeline) {
    const results: pg.QueryResult[] = [];
    for (const statement of statements) results.push(await client.query(statement));
    return results;
  }
  const stream = client.connection.stream;
  stream.cork();
  let pending: Promise<pg.QueryResult>[];
  try {
    pending = statements.map((statement) => client.query(statement));
  } finally {
    stream.uncork();
  }
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<pg.QueryResult>).value);
}

/**
 * Sends statements in one message (one round trip) on any idle client, pipelining or not, and
 * answers their results in order; the first failure is thrown once all answered (each statement has
 * its own Sync, so one failing does not stop the next). pg decides at each statement whether to wait
 * for the previous answer (`client.pipeline`), so a client of a pool without pipelining pipelines
 * these statements only, and is back to waiting once they all answered. This is how values reach
 * statements that must share a round trip (BEGIN and a first read) as parameters, never as text.
 */
export async function queryTogether(
  client: pg.PoolClient,
  statements: (string | pg.QueryConfig)[],
): Promise<pg.QueryResult[]> {
  if (client.pipeline) return sendTogether(client, statements);
  const switchable = client as { pipeline: boolean };
  switchable.pipeline = true;
  try {
    return await sendTogether(client, statements);
  } finally {
    switchable.pipeline = false;
  }
}

/** Runs `once` on a client of the pool, rolling back and retrying as `withTransaction` documents. */
async function retried<T>(
  pool: pg.Pool,
  options: TransactionOptions,
  once: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const attempts = (options.retries ?? 5) + 1;
  try {
    return await retry(
      async () => {
        const client = await pool.connect();
        let broken = false;
        try {
          return await once(client);
        } catch (err) {
          broken = err instanceof CommitOutcomeUnknown || (await rollbackQuietly(client));
          throw err;
        } finally {
          client.release(broken);
        }
      },
      {
        attempts,
        delayMs: (failed) => backoffMs(failed - 1),
        retryable: (err) => RETRYABLE.has(codeOf(err)),
        onRetry: (err, failed) => options.onRetry?.(failed, codeOf(err)),
      },
    );
  } catch (err) {
    const code = codeOf(err);
    if (RETRYABLE.has(code))
      throw new TransactionRetriesExhausted(`gave up after ${attempts} attempts (${code})`);
    throw err;
  }
}

const codeOf = (err: unknown): string => String((err as { code?: unknown } | null)?.code ?? '');

function beginStatement(options: Pick<TransactionOptions, 'isolation'>): string {
  return `BEGIN ISOLATION LEVEL ${options.isolation ?? 'READ COMMITTED'}`;
}

async function begin(client: pg.PoolClient, options: TransactionOptions): Promise<pg.QueryResult[]> {
  const statement = beginStatement(options);
  if (!options.startWith?.length) {
    await client.query(statement);
    return [];
  }
  return (await queryTogether(client, [statement, ...options.startWith])).slice(1);
}

async function commit(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('COMMIT');
  } catch (err) {
    throw commitFailure(err);
  }
}

/**
 * An ERROR answer means the transaction rolled back (the error as it is); anything else (a FATAL
 * answer, a lost connection) leaves the outcome unknown.
 */
function commitFailure(err: unknown): unknown {
  if ((err as { severity?: string }).severity === 'ERROR') return err;
  return new CommitOutcomeUnknown('the connection failed during COMMIT', { cause: err });
}

async function rollbackQuietly(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return false;
  } catch {
    return true;
  }
}

function backoffMs(attempt: number): number {
  const cap = Math.min(200, 5 * 2 ** attempt);
  return cap / 2 + Math.random() * (cap / 2);
}
