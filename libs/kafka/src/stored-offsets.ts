import { type PoolClient, type QueryConfig, type QueryResult, queryTogether } from '@engage/postgres';

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
export function lockAndAdvanceOffsets({ groupId, topic, next }: OffsetKeys): QueryConfig[] {
  const values = [groupId, topic, [...next.keys()], [...next.values()].map(String)];
  return [
    {
      name: 'engage.lock-stored-offsets',
      text: `SELECT o.partition, o.next_offset FROM kafka_offsets o
             WHERE o.group_id = $1 AND o.topic = $2 AND o.partition = ANY ($3::int[])
             ORDER BY o.partition FOR UPDATE`,
      values: values.slice(0, 3),
    },
    {
      name: 'engage.advance-stored-offsets',
      text: `UPDATE kafka_offsets o SET next_offset = GREATEST(o.next_offset, m.next_offset), updated_at = now()
             FROM unnest($3::int[], $4::bigint[]) AS m (partition, next_offset)
             WHERE o.group_id = $1 AND o.topic = $2 AND o.partition = m.partition`,
      values,
    },
  ];
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
  const [, created] = await queryTogether(client, [
    {
      text: `INSERT INTO kafka_offsets (group_id, topic, partition, next_offset)
             SELECT $1, $2, p, 0 FROM unnest($3::int[]) AS p ORDER BY p
             ON CONFLICT DO NOTHING`,
      values: [keys.groupId, keys.topic, [...missing.keys()]],
    },
    ...lockAndAdvanceOffsets({ ...keys, next: missing }),
  ]);
  for (const [partition, offset] of byPartition((created as QueryResult<OffsetRow>).rows))
    stored.set(partition, offset);
  return stored;
}

const byPartition = (rows: OffsetRow[]) =>
  new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));

interface OffsetRow {
  partition: number;
  next_offset: string;
}
