import pg from 'pg';

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
   * Statements sent in the same message as `BEGIN`, one round trip instead of two. They go by the
   * simple protocol, so values must be written into the text as literals (`sqlLiteral`); their
   * results, in order, are `work`'s second argument.
   */
  startWith?: string;
}

/**
 * Runs `work` in one transaction and commits it; rolls back on any error. Serialization failures
 * and deadlocks are retried with capped, jittered backoff; when retries run out the caller gets
 * TransactionRetriesExhausted (answered as the contract's concurrent_update codes). A connection lost
 * during COMMIT throws CommitOutcomeUnknown.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, started: pg.QueryResult[]) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const retries = options.retries ?? 5;
  for (let attempt = 0; ; attempt++) {
    const client = await pool.connect();
    let broken = false;
    try {
      const started = await begin(client, options);
      const result = await work(client, started);
      await commit(client);
      return result;
    } catch (err) {
      broken = err instanceof CommitOutcomeUnknown || (await rollbackQuietly(client));
      const code = (err as { code?: string }).code;
      if (code && RETRYABLE.has(code)) {
        if (attempt >= retries)
          throw new TransactionRetriesExhausted(`gave up after ${attempt + 1} attempts (${code})`);
        options.onRetry?.(attempt + 1, code);
        await sleep(backoffMs(attempt));
        continue;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }
}

async function begin(client: pg.PoolClient, options: TransactionOptions): Promise<pg.QueryResult[]> {
  const statement = `BEGIN ISOLATION LEVEL ${options.isolation ?? 'READ COMMITTED'}`;
  if (!options.startWith) {
    await client.query(statement);
    return [];
  }
  // A simple-protocol message of several statements answers with one result per statement.
  const results = (await client.query(`${statement}; ${options.startWith}`)) as unknown as pg.QueryResult[];
  return results.slice(1);
}

/** A value written into statement text (for `startWith`): a quoted string, or a number as it is. */
export function sqlLiteral(value: string | number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  return pg.escapeLiteral(value);
}

async function commit(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('COMMIT');
  } catch (err) {
    // An ERROR answer means the transaction rolled back; anything else (a FATAL answer, a lost
    // connection) leaves the outcome unknown.
    if ((err as { severity?: string }).severity === 'ERROR') throw err;
    throw new CommitOutcomeUnknown('the connection failed during COMMIT', { cause: err });
  }
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
