import type { TopicDefinition } from '@engage/contracts';
import { retry } from '@engage/kit';
import { type Pool, type PoolClient, withTransaction } from '@engage/postgres';
import type { Consumer, EachBatchPayload, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { KafkaClient } from './client.ts';
import { decodeRecord } from './codec.ts';
import { type DeadLetter, reportDeadLetters, storeDeadLetter } from './dead-letters.ts';
import { errorText, isTransient, UnapplicableRecordError } from './failures.ts';
import { FetchRounds } from './fetch-rounds.ts';
import { batchSize, recordsSkipped } from './metrics.ts';
import { type OffsetCommits, offsetCommits } from './offset-commits.ts';
import { PartitionProgress } from './partition-progress.ts';
import { loadWriterSchemas } from './schema-registry.ts';
import { lockAndAdvanceOffsets, type OffsetKeys, storedOffsets } from './stored-offsets.ts';
import { withConsumeSpan } from './tracing.ts';

export interface ConsumedRecord<T> {
  partition: number;
  offset: string;
  key: string;
  value: T;
  headers: IHeaders;
  timestamp: string;
  /** The record's value as it arrived. */
  raw: Buffer;
}

export interface ApplyBatch<T> {
  /** The open transaction: write every effect of `records` with it. It commits with the offsets. */
  client: PoolClient;
  /** Partition by partition (in partition order), each partition's records in offset order. */
  records: ConsumedRecord<T>[];
  topic: string;
  /** The partitions the transaction moves the offsets of: one, or several with `fetchRoundTransactions`. */
  partitions: number[];
}

/** What one committed transaction applied, and what `apply` answered for it. */
export interface CommittedBatch<T, R> {
  records: ConsumedRecord<T>[];
  partitions: number[];
  result: R;
}

/**
 * Called when kafkajs gives a consumer up (a crash it does not restart from): nothing of the topic is
 * applied any more, so a service should stop and let its orchestrator start it again.
 */
export type ConsumerStopped = (error: Error) => void;

export interface ExactlyOnceConsumerOptions<T, R = void> {
  kafka: KafkaClient;
  pool: Pool;
  groupId: string;
  /** Full topic name (with the deployment prefix). */
  topic: string;
  definition: TopicDefinition<T>;
  log: Logger;
  /**
   * Writes the effects of the records, each partition's in offset order, inside the given
   * transaction. An error that is not transient (`isTransient`) is taken to come from a record:
   * the records are then applied one by one, and one that still fails after a few attempts is kept
   * in `dead_letters` with its error while its partition goes on.
   */
  apply: (batch: ApplyBatch<T>) => Promise<R>;
  /**
   * Runs after each transaction that applied records committed (e.g. to refresh a cache from what
   * was written), with the records `apply` received and what it answered.
   */
  afterCommit?: (batch: CommittedBatch<T, R>) => Promise<void>;
  /**
   * Called with the partitions the member holds after each rebalance, so a service can drop what
   * it keeps in memory for partitions it no longer owns.
   */
  onAssignment?: (partitions: readonly number[]) => void;
  /** Upper bound on records of one partition applied in one transaction. */
  maxRecordsPerTransaction?: number;
  /** Most bytes fetched per partition in one fetch (kafkajs default 1 MiB): larger, fewer transactions. */
  maxBytesPerPartition?: number;
  /**
   * The least a fetch waits for (the broker answers once this many bytes are ready, or after 100 ms):
   * above 1, a steady stream arrives in fewer, larger rounds, each costing one set of transactions,
   * at the price of up to 100 ms more before a record is applied. Default 1 (answer at once).
   */
  minBytesPerFetch?: number;
  /**
   * Partitions applied at the same time (each in its own transaction), so one partition's
   * computation overlaps another's database round trips. Default 1; ignored with `fetchRoundTransactions`.
   */
  partitionsConsumedConcurrently?: number;
  /**
   * Applies the batches of every partition kafkajs fetched in one round in this many transactions
   * at once, each over a slice of the round's partitions (one offset statement for all of them, one
   * `apply`, one commit), instead of one transaction per partition batch: fewer, larger
   * transactions, while one slice's computation overlaps another's database round trips. Each
   * partition's offset still moves exactly with its records. Every assigned partition is then
   * handed over at once.
   */
  fetchRoundTransactions?: number;
  /**
   * The record's own id, for topics where a producer may write the same record twice at different
   * offsets (an event re-sent with its eventId). A record whose id the group already applied is
   * skipped in the same transaction, so its effects still happen once. Undefined for a record the
   * producer can never write twice: it is not claimed (a claim is an index insert per record).
   */
  recordId?: (value: T) => string | undefined;
  /** How long claimed record ids are kept: at least the topic's retention. Default 8 days. */
  recordIdRetentionMs?: number;
  /**
   * How long the group waits for a silent member (a crashed process) before moving its partitions
   * to the others. Kafka refuses values below the broker's group.min.session.timeout.ms (6 s).
   */
  sessionTimeoutMs?: number;
  /** Without it, the consumer logs the failure at level fatal. */
  onStopped?: ConsumerStopped | undefined;
}

/**
 * How often Kafka learns the offsets applied: one request for every partition, instead of one per
 * applied chunk on the path of the next fetch.
 */
const KAFKA_COMMIT_INTERVAL_MS = 1_000;

/** The longest the broker holds a fetch while fewer than `minBytesPerFetch` bytes are ready. */
const MAX_FETCH_WAIT_MS = 100;

export interface RunningConsumer {
  consumer: Consumer;
  stop: () => Promise<void>;
}

/**
 * Consumes a topic with effects that happen exactly once.
 *
 * A partition's batch is applied in one Postgres transaction together with the next offset to read,
 * stored in `kafka_offsets`. Records below the stored offset were applied before (redelivery after a
 * crash, a rebalance, a replay) and are skipped, and the row lock serialises a zombie consumer with
 * the partition's new owner. Kafka's own committed offset only moves after the commit (at most once
 * a second, see `offsetCommits`), so it is a shortcut for restarts, never the source of truth.
 */
export async function startExactlyOnceConsumer<T, R = void>(
  options: ExactlyOnceConsumerOptions<T, R>,
): Promise<RunningConsumer> {
  const { kafka, pool, groupId, topic, log } = options;
  const maxRecords = options.maxRecordsPerTransaction ?? 1000;
  const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout,
    heartbeatInterval: Math.min(3_000, Math.floor(sessionTimeout / 3)),
    maxWaitTimeInMs: MAX_FETCH_WAIT_MS,
    minBytes: options.minBytesPerFetch ?? 1,
    ...(options.maxBytesPerPartition ? { maxBytesPerPartition: options.maxBytesPerPartition } : {}),
    allowAutoTopicCreation: false,
    readUncommitted: false,
  });

  const commits = offsetCommits({ consumer, topic, intervalMs: KAFKA_COMMIT_INTERVAL_MS, log });

  const progress = new PartitionProgress(groupId, topic);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const partitions = payload.memberAssignment[topic] ?? [];
    progress.assigned(partitions);
    options.onAssignment?.(partitions);
    void seekToStoredOffsets(consumer, pool, groupId, topic, partitions).catch((err) =>
      log.warn({ err, topic }, 'could not seek to stored offsets; the stored offsets still filter'),
    );
  });

  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart) return;
    if (options.onStopped) options.onStopped(payload.error);
    else log.fatal({ err: payload.error, groupId, topic }, 'the consumer stopped for good');
  });

  await consumer.connect();
  // A topic created a moment ago can still be unknown to the broker's metadata ("does not host this
  // topic-partition", a retriable error): subscribing is tried again for a few seconds.
  try {
    await retry(() => consumer.subscribe({ topic, fromBeginning: true }), {
      attempts: 8,
      delayMs: (failed) => 250 * failed,
      retryable: (err) => (err as { retriable?: boolean }).retriable === true,
    });
  } catch (err) {
    // A caller that tries again later must not leave this connection open.
    await consumer.disconnect().catch(() => undefined);
    throw err;
  }
  await waitForGroupCoordinator(kafka, groupId, log);
  const applying: RoundContext<T, R> = { options, commits, maxRecords, progress };
  const slices = options.fetchRoundTransactions;
  const rounds = slices
    ? new FetchRounds<EachBatchPayload>(async (batches) => {
        const inPartitionOrder = batches.toSorted((a, b) => a.batch.partition - b.batch.partition);
        // Every slice settles before the round does: a failed round is fetched again only once no
        // transaction of it is still running.
        const outcomes = await Promise.allSettled(
          sliced(inPartitionOrder, slices).map((slice) => applyRound(applying, slice)),
        );
        const failed = outcomes.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      })
    : undefined;
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: rounds
      ? options.definition.partitions
      : (options.partitionsConsumedConcurrently ?? 1),
    eachBatch: async (payload) => {
      const { partition, highWatermark } = payload.batch;
      progress.fetched(partition, highWatermark, payload.batch.firstOffset() ?? highWatermark);
      await (rounds ? rounds.add(payload) : applyRound(applying, [payload]));
    },
  });

  const sweeper = options.recordId ? sweepPeriodically(options) : undefined;
  let stopped: Promise<void> | undefined;
  return {
    consumer,
    stop: () => {
      if (sweeper) clearInterval(sweeper);
      progress.close();
      // disconnect() waits for the batch in progress to finish before leaving the group.
      stopped ??= commits.close().then(() => consumer.disconnect());
      return stopped;
    },
  };
}

interface RoundContext<T, R> {
  options: ExactlyOnceConsumerOptions<T, R>;
  commits: OffsetCommits;
  maxRecords: number;
  progress: PartitionProgress;
}

/**
 * Applies partition batches together: the first chunk of each in one transaction, then the second
 * of those that have one, and so on. A batch whose partition was revoked or sought meanwhile takes
 * no part from then on (its later chunks would leave a gap below the offset they move to).
 */
async function applyRound<T, R>(context: RoundContext<T, R>, payloads: EachBatchPayload[]): Promise<void> {
  const { commits, maxRecords, progress } = context;
  await loadWriterSchemas(
    context.options.definition,
    payloads.map((payload) => payload.batch.messages),
  );
  const parts = payloads
    .map((payload) => ({ payload, chunks: [...chunks(payload.batch.messages, maxRecords)], left: false }))
    .sort((a, b) => a.payload.batch.partition - b.payload.batch.partition);
  for (let step = 0; ; step++) {
    const taking = parts.filter((part) => {
      part.left ||= !part.payload.isRunning() || part.payload.isStale();
      return !part.left && step < part.chunks.length;
    });
    if (taking.length === 0) return;
    const chunksNow = taking.map(({ payload, chunks }) => ({
      partition: payload.batch.partition,
      messages: chunks[step]!,
    }));
    const heartbeat = () => taking[0]!.payload.heartbeat();
    await applyIsolating(context, chunksNow, heartbeat);
    taking.forEach(({ payload }, i) => {
      const last = chunksNow[i]!.messages.at(-1)!;
      const next = nextOffset(last).toString();
      payload.resolveOffset(last.offset);
      commits.note(payload.batch.partition, next);
      progress.advanced(payload.batch.partition, payload.batch.highWatermark, next);
    });
    await heartbeat();
  }
}

interface Chunk {
  partition: number;
  messages: KafkaMessage[];
}

/** Attempts at one record that fails with an error that is not transient, before it is set aside. */
const RECORD_ATTEMPTS = 3;
/** The pause after a record's failed attempt grows by this much each time. */
const RECORD_RETRY_STEP_MS = 200;

/**
 * Applies the chunks in one transaction; when that fails with an error that is not transient,
 * applies each partition's chunk in a transaction of its own, and a chunk that still fails record
 * by record, setting aside a record that fails every attempt (`applyOrSetAside`). A transient
 * error is thrown at any point: the batch is fetched again, and what committed meanwhile is
 * skipped then by the stored offsets.
 */
async function applyIsolating<T, R>(
  context: RoundContext<T, R>,
  chunksNow: Chunk[],
  heartbeat: () => Promise<void>,
): Promise<void> {
  const { options } = context;
  try {
    await commitChunks(options, chunksNow);
    return;
  } catch (err) {
    if (isTransient(err)) throw err;
    options.log.warn(
      { err, topic: options.topic, partitions: chunksNow.map((c) => c.partition) },
      'applying a batch failed; applying its records apart to find the one at fault',
    );
  }
  for (const chunk of chunksNow) {
    if (chunksNow.length > 1) {
      try {
        await commitChunks(options, [chunk]);
        continue;
      } catch (err) {
        if (isTransient(err)) throw err;
      }
    }
    for (const message of chunk.messages) {
      await applyOrSetAside(options, { partition: chunk.partition, messages: [message] });
      await heartbeat();
    }
  }
}

/** One record's transaction, tried a few times; one that keeps failing is kept in dead_letters. */
async function applyOrSetAside<T, R>(
  options: ExactlyOnceConsumerOptions<T, R>,
  single: Chunk,
): Promise<void> {
  try {
    await retry(() => commitChunks(options, [single]), {
      attempts: RECORD_ATTEMPTS,
      delayMs: (failed) => RECORD_RETRY_STEP_MS * failed,
      retryable: (err) => !isTransient(err) && !(err instanceof UnapplicableRecordError),
    });
  } catch (err) {
    if (isTransient(err)) throw err;
    await setAside(options, single, err);
  }
}

/**
 * Keeps a record that cannot be applied in dead_letters, in the transaction that moves its
 * partition's offset past it. Its id is not claimed, so a replay of it is applied.
 */
async function setAside<T, R>(options: ExactlyOnceConsumerOptions<T, R>, single: Chunk, err: unknown) {
  const { pool, groupId, topic, log } = options;
  const message = single.messages[0]!;
  const keys: OffsetKeys = { groupId, topic, next: new Map([[single.partition, nextOffset(message)]]) };
  const letter: DeadLetter = {
    source: groupId,
    topic,
    partition: single.partition,
    offset: message.offset,
    key: message.key,
    raw: message.value,
    headers: message.headers ?? {},
    reason: 'unapplicable',
    error: errorText(err),
  };
  const kept = await withTransaction(
    pool,
    async (client, started) => {
      const stored = await storedOffsets(client, keys, started);
      // Applied or set aside meanwhile (another member took the partition over).
      if (stored.get(single.partition)! > BigInt(message.offset)) return false;
      await storeDeadLetter(client, letter);
      return true;
    },
    { startWith: lockAndAdvanceOffsets(keys) },
  );
  if (kept) reportDeadLetters([letter], log);
}

/** `applyChunks`, then, once committed, `afterCommit` with what was applied. */
async function commitChunks<T, R>(options: ExactlyOnceConsumerOptions<T, R>, chunksNow: Chunk[]) {
  const { records, result, letters } = await applyChunks(options, chunksNow);
  reportDeadLetters(letters, options.log);
  // Before anything that can throw on a rebalance: a redelivery skips these records, so this is
  // the only chance to run afterCommit for them.
  if (records.length > 0 && options.afterCommit) {
    await options.afterCommit({
      records,
      partitions: chunksNow.map((c) => c.partition),
      result: result as R,
    });
  }
}

/**
 * Applies chunks of distinct partitions, in partition order, in one transaction with their offsets:
 * answers the records applied, what `apply` answered (undefined when nothing was left to apply) and
 * the undecodable records kept in dead_letters.
 */
async function applyChunks<T, R>(
  options: ExactlyOnceConsumerOptions<T, R>,
  chunksOfPartitions: Chunk[],
): Promise<{ records: ConsumedRecord<T>[]; result: R | undefined; letters: DeadLetter[] }> {
  const { pool, groupId, topic } = options;
  const keys: OffsetKeys = {
    groupId,
    topic,
    next: new Map(chunksOfPartitions.map((c) => [c.partition, nextOffset(c.messages.at(-1)!)])),
  };
  const partitions = [...keys.next.keys()];
  return withConsumeSpan(
    topic,
    partitions,
    chunksOfPartitions.flatMap((c) => c.messages),
    () =>
      withTransaction(
        pool,
        async (client, started) => {
          const stored = await storedOffsets(client, keys, started);
          const records: ConsumedRecord<T>[] = [];
          const letters: DeadLetter[] = [];
          for (const chunk of chunksOfPartitions) {
            const fresh = await freshRecords(options, client, chunk, stored.get(chunk.partition)!);
            records.push(...fresh.records);
            letters.push(...fresh.letters);
          }
          const unique = options.recordId
            ? await claimRecordIds(client, groupId, records, options.recordId)
            : records;
          if (unique.length < records.length) {
            recordsSkipped.inc({ group: groupId, topic }, records.length - unique.length);
          }
          const result =
            unique.length > 0
              ? await options.apply({ client, records: unique, topic, partitions })
              : undefined;
          batchSize.observe({ group: groupId, topic }, unique.length);
          return { records: unique, result, letters };
        },
        { startWith: lockAndAdvanceOffsets(keys) },
      ),
  );
}

/**
 * The chunk's records at or above the partition's stored offset (those below were applied before),
 * decoded. An undecodable record is kept in dead_letters in the same transaction.
 */
async function freshRecords<T, R>(
  options: ExactlyOnceConsumerOptions<T, R>,
  client: PoolClient,
  { partition, messages }: Chunk,
  stored: bigint,
): Promise<{ records: ConsumedRecord<T>[]; letters: DeadLetter[] }> {
  const { groupId, topic, definition } = options;
  const fresh = messages.filter((m) => BigInt(m.offset) >= stored);
  if (fresh.length < messages.length) {
    recordsSkipped.inc({ group: groupId, topic }, messages.length - fresh.length);
  }
  const records: ConsumedRecord<T>[] = [];
  const letters: DeadLetter[] = [];
  for (const m of fresh) {
    try {
      records.push(toRecord(definition, partition, m));
    } catch (err) {
      const letter: DeadLetter = {
        source: groupId,
        topic,
        partition,
        offset: m.offset,
        key: m.key,
        raw: m.value,
        headers: m.headers ?? {},
        reason: 'undecodable',
        error: errorText(err),
      };
      await storeDeadLetter(client, letter);
      letters.push(letter);
    }
  }
  return { records, letters };
}

/**
 * Claims the ids of `records` for the group in one statement and keeps the records whose id was not
 * applied before (the first of several copies within the batch too), in offset order.
 */
async function claimRecordIds<T>(
  client: PoolClient,
  groupId: string,
  records: ConsumedRecord<T>[],
  recordId: (value: T) => string | undefined,
): Promise<ConsumedRecord<T>[]> {
  const ids = records.map((r) => recordId(r.value));
  const claimable = [...new Set(ids.filter((id) => id !== undefined))];
  if (claimable.length === 0) return records;
  const { rows } = await client.query<{ record_id: string }>({
    name: 'engage.claim-record-ids',
    text: `INSERT INTO consumed_records (group_id, record_id)
     SELECT $1, id FROM unnest($2::text[]) AS id
     ON CONFLICT DO NOTHING RETURNING record_id`,
    values: [groupId, claimable],
  });
  const claimed = new Set(rows.map((row) => row.record_id));
  return records.filter((_, i) => ids[i] === undefined || claimed.delete(ids[i]));
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;
const DEFAULT_RECORD_ID_RETENTION_MS = 8 * 24 * 3600 * 1000;

function sweepPeriodically<T, R>(options: ExactlyOnceConsumerOptions<T, R>): NodeJS.Timeout {
  const retention = options.recordIdRetentionMs ?? DEFAULT_RECORD_ID_RETENTION_MS;
  const timer = setInterval(() => {
    sweepConsumedRecords(options.pool, options.groupId, retention).catch((err) =>
      options.log.warn({ err }, 'sweeping consumed record ids failed; will try again'),
    );
  }, SWEEP_EVERY_MS);
  timer.unref();
  return timer;
}

/** Deletes claimed record ids older than the topic's retention (they can no longer be redelivered). */
export async function sweepConsumedRecords(
  pool: Pool,
  groupId: string,
  olderThanMs: number,
): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM consumed_records WHERE group_id = $1 AND applied_at < now() - make_interval(secs => $2)`,
    [groupId, olderThanMs / 1000],
  );
  return rowCount ?? 0;
}

async function seekToStoredOffsets(
  consumer: Consumer,
  pool: Pool,
  groupId: string,
  topic: string,
  partitions: number[],
) {
  if (partitions.length === 0) return;
  const { rows } = await pool.query<{ partition: number; next_offset: number }>(
    'SELECT partition, next_offset FROM kafka_offsets WHERE group_id = $1 AND topic = $2 AND partition = ANY($3)',
    [groupId, topic, partitions],
  );
  for (const row of rows) consumer.seek({ topic, partition: row.partition, offset: String(row.next_offset) });
}

function toRecord<T>(definition: TopicDefinition<T>, partition: number, m: KafkaMessage): ConsumedRecord<T> {
  if (!m.value) throw new Error('empty record value');
  return {
    partition,
    offset: m.offset,
    key: m.key?.toString() ?? '',
    value: decodeRecord(definition, m.value, m.headers),
    headers: m.headers ?? {},
    timestamp: m.timestamp,
    raw: m.value,
  };
}

function nextOffset(message: KafkaMessage): bigint {
  return BigInt(message.offset) + 1n;
}

/**
 * Waits until the group's coordinator answers for it. On a broker that has just started, the
 * coordinator is still creating or loading its offsets topic; a consumer that joined then would
 * crash, and kafkajs's restart closes connections that still have requests to write ("write after
 * end"). kafkajs's admin retries these answers; a coordinator still not ready is left to the
 * consumer's own restarts.
 */
async function waitForGroupCoordinator(kafka: KafkaClient, groupId: string, log: Logger): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.describeGroups([groupId]);
  } catch (err) {
    log.warn({ err, groupId }, 'the group coordinator is not ready yet; the consumer joins anyway');
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * The consumer group of one service. Topic prefixes let several stacks (test runs, previews) share a
 * broker; their groups must not be shared either, or one stack's crash stalls the others' rebalances.
 */
export function consumerGroupId(service: string, topicPrefix: string): string {
  const base = `engage-${service}`;
  return topicPrefix === DEFAULT_TOPIC_PREFIX ? base : `${topicPrefix}${base}`;
}

const DEFAULT_TOPIC_PREFIX = 'engage.';

/** `items` in at most `count` contiguous slices of nearly equal length. */
function sliced<T>(items: T[], count: number): T[][] {
  const size = Math.ceil(items.length / Math.max(1, count));
  return [...chunks(items, size)];
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
