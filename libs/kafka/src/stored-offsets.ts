import { type PoolClient, type QueryResult, sqlLiteral } from '@engage/postgres';

/** The partitions of one group and topic whose stored offsets a transaction moves. */
export interface OffsetKeys {
  groupId: string;
  topic: string;
  /** Each partition with the offset after the last record the transaction applies of it. */
  next: Map<number, bigint>;
}

/**
 * Sent with `BEGIN`: locks the partitions' stored offsets in partition order (so two transactions
 * over overlapping partitions cannot deadlock), reads them, and moves each to its `next` (never
 * back: a redelivered chunk wholly below it leaves it where it is). The same transaction applies
 * the records at or above the offsets read, so the moves commit exactly with them, and the locks
 * serialise a zombie consumer with a partition's new owner.
 */
export function lockAndAdvanceOffsets({ groupId, topic, next }: OffsetKeys): string {
  const partitions = [...next.keys()].map(sqlLiteral).join(', ');
  const moves = [...next].map(([partition, offset]) => `(${sqlLiteral(partition)}, ${sqlLiteral(offset)})`);
  const where = `o.group_id = ${sqlLiteral(groupId)} AND o.topic = ${sqlLiteral(topic)} AND o.partition IN (${partitions})`;
  return `SELECT o.partition, o.next_offset FROM kafka_offsets o WHERE ${where} ORDER BY o.partition FOR UPDATE;
    UPDATE kafka_offsets o SET next_offset = GREATEST(o.next_offset, m.next_offset), updated_at = now()
    FROM (VALUES ${moves.join(', ')}) AS m (partition, next_offset)
    WHERE ${where} AND o.partition = m.partition`;
}

/**
 * The offsets read by `lockAndAdvanceOffsets`, by partition, as they were before it moved them.
 * Only a partition's first chunk finds no row: the missing rows are created, then locked and moved
 * on their own. The rows already read are not read again: they now hold the offsets just moved to,
 * and their chunks' records would be taken for applied ones.
 */
export async function storedOffsets(
  client: PoolClient,
  keys: OffsetKeys,
  started: QueryResult[],
): Promise<Map<number, bigint>> {
  const stored = byPartition((started[0] as QueryResult<OffsetRow>).rows);
  const missing = new Map([...keys.next].filter(([partition]) => !stored.has(partition)));
  if (missing.size === 0) return stored;
  await client.query(
    `INSERT INTO kafka_offsets (group_id, topic, partition, next_offset)
     SELECT $1, $2, p, 0 FROM unnest($3::int[]) AS p ORDER BY p
     ON CONFLICT DO NOTHING`,
    [keys.groupId, keys.topic, [...missing.keys()]],
  );
  const [created] = (await client.query(lockAndAdvanceOffsets({ ...keys, next: missing }))) as unknown as [
    QueryResult<OffsetRow>,
  ];
  for (const [partition, offset] of byPartition(created.rows)) stored.set(partition, offset);
  return stored;
}

const byPartition = (rows: OffsetRow[]) =>
  new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));

interface OffsetRow {
  partition: number;
  next_offset: string;
}
