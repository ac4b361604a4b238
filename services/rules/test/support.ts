import type {
  AcceptedEvent,
  AttributeValue,
  EnvironmentContext,
  MissionSchema,
  ProblemDocument,
} from '@engage/contracts';
import { topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { consumerGroupId } from '@engage/kafka';
import type { SectionItemChange } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import {
  fetchAsGateway,
  internalHeaders,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { eventually } from '@engage/testkit/events.ts';
import type { z } from 'zod';
import { chainDigest, EMPTY_DIGEST } from '../src/domain/activity.ts';

/** A fresh topic prefix with the catalog's topics created under it. */
export async function freshTopics(): Promise<string> {
  const prefix = uniqueTopicPrefix();
  await createCatalogTopics(stackConfig().brokers, prefix);
  return prefix;
}

/** The rules service as its own process; a crashed member is noticed after 6 s (the broker minimum). */
export function spawnRules(prefix: string): Promise<ServiceProcess> {
  return spawnService(
    stackConfig().repoRoot,
    'rules',
    serviceEnv(prefix, { KAFKA_SESSION_TIMEOUT_MS: '6000' }),
  );
}

export interface Applied {
  eventsApplied: number;
  digest: string;
}

/** What a correct consumer ends with: every event applied once, each player's in produce order. */
export function expectedActivity(produced: AcceptedEvent[]): Map<string, Applied> {
  const expected = new Map<string, Applied>();
  for (const event of produced) {
    const before = expected.get(event.playerId) ?? { eventsApplied: 0, digest: EMPTY_DIGEST };
    expected.set(event.playerId, {
      eventsApplied: before.eventsApplied + 1,
      digest: chainDigest(before.digest, event.eventId),
    });
  }
  return expected;
}

export async function appliedActivity(pool: Pool, environmentId: string): Promise<Map<string, Applied>> {
  const { rows } = await pool.query<{
    player_id: string;
    events_applied: number;
    applied_events_digest: string;
  }>(
    'SELECT player_id, events_applied, applied_events_digest FROM player_counters WHERE environment_id = $1 AND events_applied > 0',
    [environmentId],
  );
  return new Map(
    rows.map((r) => [r.player_id, { eventsApplied: r.events_applied, digest: r.applied_events_digest }]),
  );
}

/** How many records of the events topic the rules group has applied (the sum of its stored offsets). */
export async function consumedRecords(pool: Pool, prefix: string): Promise<number> {
  const { rows } = await pool.query<{ consumed: string | null }>(
    'SELECT sum(next_offset)::text AS consumed FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
    [consumerGroupId('rules', prefix), topicName(topics.eventsAccepted, prefix)],
  );
  return Number(rows[0]?.consumed ?? 0);
}

/** Waits until the stored offsets of the rules group cover `total` records of the events topic. */
export async function waitUntilConsumed(pool: Pool, prefix: string, total: number, timeoutMs = 45_000) {
  await eventually(
    `rules to apply ${total} records`,
    async () => ((await consumedRecords(pool, prefix)) >= total ? true : undefined),
    { timeoutMs, intervalMs: 200 },
  );
}

export { readTopicRecords as readTopic, seededRandom } from '@engage/testkit';

/** Applies one of the rules service's sections of the environment file through its internal endpoint. */
export async function applySection(
  rulesUrl: string,
  env: EnvironmentContext,
  section: 'missions' | 'missionCollections' | 'streaks',
  items: unknown[],
  dryRun = false,
): Promise<{ status: number; body: { changes?: SectionItemChange[] } }> {
  const res = await fetchAsGateway(
    `${rulesUrl}/internal/v1/environments/${env.environmentId}/definition/${section}?dryRun=${dryRun}`,
    { method: 'PUT', headers: internalHeaders(env), body: items },
  );
  return { status: res.status, body: (await res.json()) as { changes?: SectionItemChange[] } };
}

export type Mission = z.infer<typeof MissionSchema>;
/** A mission, or the problem document of a refusal. */
export type MissionAnswer = Mission & Partial<Pick<ProblemDocument, 'code' | 'instance'>>;

/** POSTs as the gateway would forward it, for the given player; `T` is the expected answer. */
export async function postAs<T = MissionAnswer>(
  url: string,
  env: EnvironmentContext,
  player: { id: string; attributes?: Record<string, AttributeValue>; timeZone?: string | null },
  body: Record<string, unknown> = {},
) {
  const res = await fetchAsGateway(url, {
    method: 'POST',
    headers: internalHeaders(env, player),
    body: { playerId: player.id, ...body },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}
