import { type ICustomPartitioner, Partitioners } from 'kafkajs';

const MAX_REMEMBERED_KEYS = 200_000;

/**
 * kafkajs's default partitioner (Java-compatible murmur2 of the key, modulo the partition count),
 * remembering the answer per key and partition count. Its murmur2 runs on a 64-bit integer emulation
 * and is a large cost of a produce call; players send many events, so
 * the same keys come back. The partition chosen is exactly the default's: only keyed records
 * without an explicit partition are remembered, and those depend on nothing else.
 *
 * Answers are kept in one map of keys per topic and partition count; kafkajs asks for every record
 * of a send with the same topic and metadata, so that map is found once per run of records rather
 * than by building a combined key per record.
 */
export const rememberingPartitioner: ICustomPartitioner = () => {
  const partitioner = Partitioners.DefaultPartitioner();
  let byTopic = new Map<string, Map<string, number>>();
  let remembered = 0;
  let lastTopic: string | undefined;
  let lastCount = -1;
  let lastKeys: Map<string, number> | undefined;
  const keysOf = (topic: string, count: number): Map<string, number> => {
    if (lastKeys && topic === lastTopic && count === lastCount) return lastKeys;
    const id = `${topic}\u0000${count}`;
    let keys = byTopic.get(id);
    if (!keys) {
      keys = new Map();
      byTopic.set(id, keys);
    }
    lastTopic = topic;
    lastCount = count;
    lastKeys = keys;
    return keys;
  };
  return (args) => {
    const { topic, partitionMetadata, message } = args;
    if (typeof message.key !== 'string' || (message.partition !== undefined && message.partition !== null)) {
      return partitioner(args);
    }
    const keys = keysOf(topic, partitionMetadata.length);
    let partition = keys.get(message.key);
    if (partition === undefined) {
      partition = partitioner(args);
      if (remembered >= MAX_REMEMBERED_KEYS) {
        byTopic = new Map();
        lastKeys = undefined;
        remembered = 0;
      }
      keysOf(topic, partitionMetadata.length).set(message.key, partition);
      remembered++;
    }
    return partition;
  };
};
