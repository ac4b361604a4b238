import { envKey } from '@engage/redis';

/**
 * The query service's Redis keys. All of an environment's keys share its hash tag (one Cluster slot),
 * and carry the service name so no other service's keys can collide with them.
 */
export function eventCountBoardKey(prefix: string, environmentId: string, eventKey: string): string {
  return envKey(prefix, environmentId, 'query', 'event-counts', eventKey);
}

/** Present while the environment's boards are complete; missing after Redis lost its data. */
export function mirrorMarkerKey(prefix: string, environmentId: string): string {
  return envKey(prefix, environmentId, 'query', 'mirrored');
}
