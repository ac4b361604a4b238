import { CommitOutcomeUnknown, TransactionRetriesExhausted } from '@engage/postgres';

/**
 * SQLSTATE classes and codes that say the moment or the deployment, not the record, is at fault:
 * connection exceptions (08), invalid authorization (28), an unknown database or schema (3D, 3F),
 * an unknown table or column or a missing privilege (42: a migration not run yet), insufficient
 * resources (53), operator intervention such as a shutting-down server (57), system errors (58),
 * serialization failure, deadlock, lock not available. Setting records aside for these would set
 * every record aside; they stall the partition instead, which its alert shows.
 */
const TRANSIENT_SQLSTATE_CLASSES = ['08', '28', '3D', '3F', '42', '53', '57', '58'];
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03']);

/** Node's codes for a connection that failed or was cut. */
const TRANSIENT_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres throws, without a code, for a connection it lost or could not get. */
const TRANSIENT_MESSAGES =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable/i;

/**
 * Whether an error may go away by itself (a lost connection, a serialization failure, Postgres or
 * Kafka restarting): such a failure is retried for as long as it lasts and never sets a record
 * aside. Any other error (a data exception such as 22021 or 22P05, a check violation, an error the
 * service's own code threw for the record) is taken to come from the record.
 */
export function isTransient(err: unknown): boolean {
  if (err instanceof TransactionRetriesExhausted || err instanceof CommitOutcomeUnknown) return true;
  if (typeof err !== 'object' || err === null) return false;
  const { code, name, message, cause } = err as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SYSTEM_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  if (typeof name === 'string' && name.startsWith('KafkaJS')) return kafkaErrorIsTransient(err);
  if (typeof message === 'string' && TRANSIENT_MESSAGES.test(message)) return true;
  return cause !== undefined && cause !== err && isTransient(cause);
}

/**
 * Kafka's answers about a record itself (too large, invalid, corrupt) are not transient, nor is a
 * message kafkajs refuses to send; every other kafkajs error (a broker away, a timeout, a leader
 * moving, a missing topic or permission, retries spent on those) is.
 */
function kafkaErrorIsTransient(err: object): boolean {
  const { type, retriable, cause } = err as { type?: unknown; retriable?: unknown; cause?: unknown };
  if (typeof type === 'string') return !RECORD_REFUSALS.has(type);
  // kafkajs wraps the error its retries ended on (or gave up at once on) as the cause.
  if (cause && cause !== err) return isTransient(cause);
  // Without a cause, a non-retriable error is kafkajs refusing the message before sending it.
  return retriable !== false;
}

const RECORD_REFUSALS = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
  'UNSUPPORTED_COMPRESSION_TYPE',
]);

/** An error as a dead letter keeps it: the message, and the SQLSTATE or Kafka code when there is one. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? `${err.message} (${code})` : err.message;
}

/**
 * Thrown by a consumer's `apply` for a record it can tell it will never apply (malformed): the
 * record is set aside at once, without the attempts an error of unknown cause gets.
 */
export class UnapplicableRecordError extends Error {
  override name = 'UnapplicableRecordError';
}
