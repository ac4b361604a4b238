import { type AcceptedEvent, topics } from '@engage/contracts';

const MAX_REMEMBERED_KEYS = 200_000;

/**
 * The record key of an accepted event (`environmentId:playerId`), one string kept per environment
 * and player. Players send many events: a key string used again keeps its computed hash, so
 * kafkajs's partitioner lookup (`rememberingPartitioner`) finds it without building, flattening
 * and hashing a new string per record. The key is the catalog's own (`topics.eventsAccepted.keyOf`).
 */
export function rememberedRecordKeys(maxKeys = MAX_REMEMBERED_KEYS): (record: AcceptedEvent) => string {
  let byEnvironment = new Map<string, Map<string, string>>();
  let remembered = 0;
  return (record) => {
    const known = byEnvironment.get(record.environmentId)?.get(record.playerId);
    if (known !== undefined) return known;
    if (remembered >= maxKeys) {
      byEnvironment = new Map();
      remembered = 0;
    }
    let keys = byEnvironment.get(record.environmentId);
    if (!keys) {
      keys = new Map();
      byEnvironment.set(record.environmentId, keys);
    }
    const key = topics.eventsAccepted.keyOf(record);
    keys.set(record.playerId, key);
    remembered++;
    return key;
  };
}
