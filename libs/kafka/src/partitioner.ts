import { type ICustomPartitioner, Partitioners } from 'kafkajs';

const MAX_REMEMBERED_KEYS = 200_000;

/**
 * kafkajs's default partitioner (Java-compatible murmur2 of the key, modulo the partition count),
 * remembering the answer per key and partition count. Its murmur2 runs on a 64-bit integer emulation
 * and was the largest cost of a produce call in the ingest profile; players send many events, so
 * the same keys come back. The partition chosen is exactly the default's: only keyed records
 * without an explicit partition are remembered, and those depend on nothing else.
 */
export const rememberingPartitioner: ICustomPartitioner = () => {
  const partitioner = Partitioners.DefaultPartitioner();
  let remembered = new Map<string, number>();
  return (args) => {
    const { topic, partitionMetadata, message } = args;
    if (typeof message.key !== 'string' || (message.partition !== undefined && message.partition !== null)) {
      return partitioner(args);
    }
    const id = `${topic}\u0000${partitionMetadata.length}\u0000${message.key}`;
    let partition = remembered.get(id);
    if (partition === undefined) {
      partition = partitioner(args);
      if (remembered.size >= MAX_REMEMBERED_KEYS) remembered = new Map();
      remembered.set(id, partition);
    }
    return partition;
  };
};
