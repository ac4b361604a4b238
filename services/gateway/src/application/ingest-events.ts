import { randomUUID } from 'node:crypto';
import type { AcceptedEvent, EnvironmentContext } from '@engage/contracts';
import type { EventBatchResult, EventItemError, EventItemResult } from '@engage/contracts/http/events.ts';
import { type Logger, Problem, problem, unexpectedProblem } from '@engage/kit';
import { type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import type { ItemOutcome, ValidEvent } from '../domain/event-items.ts';
import {
  dayOf,
  QUOTA_CODES,
  type QuotaCode,
  roomLeft,
  SANDBOX_DAILY_EVENTS_ADMITTED,
} from '../domain/quota.ts';
import type { EventProducer } from '../kafka/event-producer.ts';
import {
  abandonKeys,
  claimId,
  claimKeys,
  commitKeys,
  type KeyClaim,
  readKeys,
  releaseKeys,
} from '../store/idempotency.ts';
import { type PlayerRecord, readSightings, upsertPlayers } from '../store/players.ts';
import { addToCounter, lockCounter } from '../store/usage.ts';
import type { ControlPlane } from '../upstreams/control-plane.ts';
import { admitPlayers, liveCapOf } from './admit-players.ts';
import { checkBatch } from './check-batch.ts';
import { currentMonth } from './current-month.ts';
import type { EdgeViews } from './edge-views/edge-views.ts';
import { type PlayerDirectory, quotaMessage, type Sighting } from './player-directory.ts';
import { eventPlayers } from './player-metrics.ts';
import type { RecentEvents } from './recent-events.ts';

export interface IngestDeps {
  pool: Pool;
  producer: EventProducer;
  topicPrefix: string;
  /** The keys, organizations and event definitions this replica holds. */
  views: EdgeViews;
  /** Where discoveries are recorded. */
  controlPlane: ControlPlane;
  players: PlayerDirectory;
  log: Logger;
  /** A key still pending after this long is produced again with its original eventId. */
  pendingKeyTimeoutMs: number;
  /** The live event debugger's record (absent: nothing recorded). */
  recentEvents?: RecentEvents;
}

/** One accepted item of the batch on its way to the topic (or replayed without being written). */
interface Candidate {
  index: number;
  event: ValidEvent;
  eventId: string;
}

type Settled = { eventId: string } | { errors: EventItemError[] };

/** A broker restart takes seconds; the send fails within a few while it is down. */
const UNACKNOWLEDGED_RETRY_AFTER_SECONDS = 1;

/**
 * POST /v1/events after the checks of each item:
 * 0. the items checked against the definitions this replica holds (what discovery defined recorded
 *    by the control plane and the batch checked again against it as stored, see checkBatch), and
 *    the players this replica does not know for the month read in one statement (see knowPlayers);
 * 1. one transaction, only when something must be written: idempotency keys claimed as
 *    `pending` (a key seen before is a replay of its original eventId), quotas admitted (item by
 *    item, in order), players new to the month created or updated — each one multi-row statement
 *    for the whole batch;
 * 2. one send of every new record (and of records whose key was left pending by a failed request,
 *    with their original eventId) to `events.accepted.v1`, acknowledged by all in-sync replicas;
 * 3. the keys marked `committed`. The answer is built only after the broker's acknowledgement.
 * If the broker does not acknowledge, the answer is a retryable 500 (with Retry-After) and nothing
 * is reported accepted; the keys claimed are marked abandoned so a retry produces the same eventIds
 * (see giveBack).
 */
export async function ingestEvents(
  deps: IngestDeps,
  environment: EnvironmentContext,
  items: readonly unknown[],
): Promise<EventBatchResult> {
  const receivedAt = new Date();
  const outcomes = await checkBatch(deps, environment.environmentId, items, receivedAt);

  const month = currentMonth(receivedAt.getTime());
  const mark = deps.players.mark();
  const batch = await admitBatch(deps, environment, outcomes, month, dayOf(receivedAt));
  await settleYoungPendingKeys(deps, environment.environmentId, batch);

  const toProduce = batch.candidates.filter((c) => batch.produce.has(c.index));
  const receivedIso = receivedAt.toISOString();
  const records = toProduce.map((c) =>
    toRecord(c, environment, receivedIso, batch.players.get(c.event.playerId)?.timeZone),
  );
  try {
    await deps.producer.send(records);
  } catch (err) {
    deps.log.error(
      { err, environmentId: environment.environmentId },
      'accepted events were not acknowledged',
    );
    await giveBack(deps, environment, batch).catch((e) =>
      deps.log.error({ err: e }, 'could not give back the claims of a failed batch'),
    );
    throw new Problem(500, unexpectedProblem().errors, {
      'retry-after': String(UNACKNOWLEDGED_RETRY_AFTER_SECONDS),
    });
  }
  const keysToCommit = toProduce.flatMap((c) => claimOf(c) ?? []);
  await commitKeys(deps.pool, environment.environmentId, keysToCommit).catch((err) =>
    // Harmless: a retry finding the key pending produces the same eventId again.
    deps.log.warn({ err }, 'could not mark idempotency keys committed'),
  );
  // Only what changed: a player this replica knows for the month stays as it is (a change made
  // through another replica drops it, see PlayerDirectory).
  const sighted = deps.players.knownOf(environment.environmentId);
  for (const [playerId, player] of batch.sightingsCurrent ? [] : batch.players) {
    const known = sighted(playerId);
    if (known?.activeMonth === month && known.timeZone === player.timeZone) continue;
    // A zone written by this batch leaves the attributes as they were.
    deps.players.remember(mark, environment.environmentId, playerId, {
      ...player,
      attributes: known?.attributes,
      activeMonth: month,
    });
  }
  const result = answer(batch.outcomes, batch.settled, batch.sameAs);
  deps.recentEvents?.record(environment.environmentId, receivedAt, items, result.results);
  return result;
}

/** The items that passed their checks, each idempotency key once. */
interface Screened {
  outcomes: ItemOutcome[];
  candidates: Candidate[];
  /** Items repeating an earlier item's idempotency key: they share its fate and its eventId. */
  sameAs: Map<number, number>;
}

function screen(outcomes: ItemOutcome[]): Screened {
  const firstWithKey = new Map<string, number>();
  const sameAs = new Map<number, number>();
  const candidates: Candidate[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const { event } = outcome;
    if (event.idempotencyKey !== null) {
      const id = claimId({ ...event, idempotencyKey: event.idempotencyKey });
      const first = firstWithKey.get(id);
      if (first !== undefined) {
        sameAs.set(outcome.index, first);
        continue;
      }
      firstWithKey.set(id, outcome.index);
    }
    candidates.push({ index: outcome.index, event, eventId: randomUUID() });
  }
  return { outcomes, candidates, sameAs };
}

interface AdmittedBatch extends Screened {
  /** Final answer of every candidate, by item index. */
  settled: Map<number, Settled>;
  /** Candidates whose record goes to the topic now. */
  produce: Set<number>;
  /** Replays whose key another request still holds pending (young): waited for before producing. */
  waiting: Map<number, KeyClaim>;
  /** Claims made by this request (given back if the send fails). */
  claims: KeyClaim[];
  /** Events without a key counted against the Sandbox's day (given back if the send fails). */
  countedToday: { day: string; keyless: number } | null;
  players: Map<string, { timeZone: string | null }>;
  /** Every player came from this replica's current sightings (nothing to remember afterwards). */
  sightingsCurrent: boolean;
}

async function admitBatch(
  deps: IngestDeps,
  environment: EnvironmentContext,
  outcomes: ItemOutcome[],
  month: string,
  day: string,
): Promise<AdmittedBatch> {
  const { environmentId } = environment;
  const first = screen(outcomes);
  const sighted = await knowPlayers(deps, environmentId, first.candidates, month);
  const firstSightings = sightingsOf(first.candidates, sighted, month);
  const nothingToWrite =
    first.candidates.every((c) => c.event.idempotencyKey === null) &&
    firstSightings.needsAdmission.size === 0 &&
    environment.environmentKind === 'Live' &&
    !firstSightings.zonesChange;
  if (nothingToWrite) {
    const { candidates } = first;
    return {
      ...first,
      settled: new Map(candidates.map((c) => [c.index, { eventId: c.eventId }])),
      produce: new Set(candidates.map((c) => c.index)),
      waiting: new Map(),
      claims: [],
      countedToday: null,
      players: firstSightings.known,
      sightingsCurrent: true,
    };
  }
  try {
    return await withTransaction(deps.pool, async (client) => {
      const settled = new Map<number, Settled>();
      const produce = new Set<number>();
      const waiting = new Map<number, KeyClaim>();
      const { candidates } = first;
      const { known, needsAdmission } = firstSightings;
      const withKeys = candidates.filter((c) => c.event.idempotencyKey !== null);

      const claims = withKeys.map(claimOf) as KeyClaim[];
      const { claimed, found } = await claimKeys(client, environmentId, claims);
      const fresh: Candidate[] = [];
      for (const c of candidates) {
        const key = claimOf(c);
        const earlier = key && !claimed.has(claimId(key)) ? found.get(claimId(key)) : undefined;
        if (!earlier) {
          fresh.push(c);
          continue;
        }
        // A replay: the original eventId. Pending means its record may not have reached the broker.
        c.eventId = earlier.eventId;
        settled.set(c.index, { eventId: earlier.eventId });
        if (earlier.state !== 'committed') {
          if (earlier.state === 'abandoned' || earlier.ageMs >= deps.pendingKeyTimeoutMs)
            produce.add(c.index);
          else waiting.set(c.index, { ...key!, eventId: earlier.eventId });
        }
      }

      const refusedPlayers = await admitPlayers(
        client,
        environment,
        liveCapOf(deps.views, environment),
        month,
        [...needsAdmission],
      );
      let admitted = fresh.filter((c) => {
        const code = refusedPlayers.get(c.event.playerId);
        if (code) settled.set(c.index, { errors: [quotaError(code)] });
        return !code;
      });
      let countedToday: AdmittedBatch['countedToday'] = null;
      if (environment.environmentKind === 'Sandbox' && admitted.length > 0) {
        const used = await lockCounter(client, environmentId, 'daily_events', day);
        const room = roomLeft(SANDBOX_DAILY_EVENTS_ADMITTED, used, admitted.length);
        for (const c of admitted.slice(room)) {
          settled.set(c.index, { errors: [quotaError(QUOTA_CODES.sandboxEvents)] });
        }
        admitted = admitted.slice(0, room);
        await addToCounter(client, environmentId, 'daily_events', day, room);
        countedToday = { day, keyless: admitted.filter((c) => c.event.idempotencyKey === null).length };
      }
      for (const c of admitted) {
        settled.set(c.index, { eventId: c.eventId });
        produce.add(c.index);
      }
      const admittedIndexes = new Set(admitted.map((c) => c.index));
      const refused = fresh.filter((c) => !admittedIndexes.has(c.index));
      await releaseKeys(
        client,
        environmentId,
        refused.flatMap((c) => claimOf(c) ?? []),
      );

      const players = new Map<string, { timeZone: string | null }>();
      const sightings = admitted.filter((c) => {
        const player = known.get(c.event.playerId);
        return !player || player.activeMonth !== month || zoneChanges(c.event, player);
      });
      const records: Map<string, PlayerRecord> = await upsertPlayers(
        client,
        environmentId,
        sightings.map((c) => ({ externalId: c.event.playerId, timeZone: c.event.timeZone })),
      );
      for (const c of admitted) {
        const id = c.event.playerId;
        const player = records.get(id) ?? known.get(id);
        if (player) players.set(id, { timeZone: player.timeZone });
      }
      return {
        ...first,
        settled,
        produce,
        waiting,
        claims: admitted.flatMap((c) => claimOf(c) ?? []),
        countedToday,
        players,
        sightingsCurrent: false,
      };
    });
  } catch (err) {
    if (err instanceof TransactionRetriesExhausted) {
      throw problem(
        'event_batch.concurrent_update',
        'Other requests were creating the same players at the same instant; nothing was written. Send the batch again.',
      );
    }
    throw err;
  }
}

/**
 * The players of the batch as known for the month. Those this replica knows cost nothing; the
 * others are read in one statement, and those stored and already active this month are kept by the
 * directory from then on. Only players new to the environment or to the month are left for
 * admission, a transaction.
 */
async function knowPlayers(
  deps: IngestDeps,
  environmentId: string,
  candidates: Candidate[],
  month: string,
): Promise<(playerId: string) => Sighting | undefined> {
  const sighted = deps.players.knownOf(environmentId);
  const players = new Set(candidates.map((c) => c.event.playerId));
  const unknown = [...players].filter((id) => sighted(id)?.activeMonth !== month);
  eventPlayers.inc({ outcome: 'known' }, players.size - unknown.length);
  if (unknown.length === 0) return sighted;
  const mark = deps.players.mark();
  const stored = await readSightings(deps.pool, environmentId, unknown, month);
  const read = new Map<string, Sighting>();
  for (const [id, player] of stored) {
    if (!player.active) continue;
    const sighting = { timeZone: player.timeZone, activeMonth: month };
    read.set(id, sighting);
    // Attributes known from an earlier month are still current: a change would have dropped them.
    deps.players.remember(mark, environmentId, id, { ...sighting, attributes: sighted(id)?.attributes });
  }
  eventPlayers.inc({ outcome: 'read' }, read.size);
  eventPlayers.inc({ outcome: 'admission' }, unknown.length - read.size);
  return (id) => read.get(id) ?? sighted(id);
}

/** The players of the candidates as known for the month, and what admitting them needs. */
function sightingsOf(
  candidates: Candidate[],
  sighted: (playerId: string) => Sighting | undefined,
  month: string,
) {
  const known = new Map<string, Sighting>();
  const needsAdmission = new Set<string>();
  let zonesChange = false;
  for (const c of candidates) {
    const id = c.event.playerId;
    const player = known.get(id) ?? sighted(id);
    if (player) known.set(id, player);
    if (player?.activeMonth !== month) needsAdmission.add(id);
    if (zoneChanges(c.event, player)) zonesChange = true;
  }
  return { known, needsAdmission, zonesChange };
}

/**
 * Replays of a key another request claimed moments ago wait for that request to finish: once its
 * record is acknowledged the key is committed and the replay answers the same eventId. A key still
 * pending after `pendingKeyTimeoutMs` belongs to a request that failed or died: its record is
 * produced now with the original eventId.
 */
async function settleYoungPendingKeys(deps: IngestDeps, environmentId: string, batch: AdmittedBatch) {
  let delayMs = 20;
  while (batch.waiting.size > 0) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 500);
    const keys = await readKeys(deps.pool, environmentId, [...batch.waiting.values()]);
    for (const [index, claim] of batch.waiting) {
      const stored = keys.get(claimId(claim));
      if (stored?.state === 'committed' && stored.eventId === claim.eventId) {
        batch.waiting.delete(index);
      } else if (!stored || stored.state === 'abandoned' || stored.ageMs >= deps.pendingKeyTimeoutMs) {
        // Given back (its batch failed) or abandoned: this request produces it.
        if (!stored) await claimAgain(deps, environmentId, claim);
        batch.produce.add(index);
        batch.waiting.delete(index);
      }
    }
  }
}

async function claimAgain(deps: IngestDeps, environmentId: string, claim: KeyClaim) {
  await deps.pool.query(
    `INSERT INTO event_idempotency_keys (environment_id, player_id, event_key, idempotency_key, event_id)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [environmentId, claim.playerId, claim.eventKey, claim.idempotencyKey, claim.eventId],
  );
}

/**
 * After a failed send (nothing is reported accepted): the keys claimed keep their eventId and are
 * marked abandoned, so a retry produces the same eventId again at once; events without a key are
 * given back to the Sandbox's day, since a retry writes (and counts) them anew.
 */
async function giveBack(deps: IngestDeps, environment: EnvironmentContext, batch: AdmittedBatch) {
  await withTransaction(deps.pool, async (client) => {
    await abandonKeys(client, environment.environmentId, batch.claims);
    if (batch.countedToday) {
      const { day, keyless } = batch.countedToday;
      await addToCounter(client, environment.environmentId, 'daily_events', day, -keyless);
    }
  });
}

function answer(
  outcomes: ItemOutcome[],
  settled: Map<number, Settled>,
  sameAs: Map<number, number>,
): EventBatchResult {
  let accepted = 0;
  const results = outcomes.map((outcome): EventItemResult => {
    if (!outcome.ok) return { index: outcome.index, accepted: false, eventId: null, errors: outcome.errors };
    const result = settled.get(sameAs.get(outcome.index) ?? outcome.index);
    if (!result || 'errors' in result) {
      return { index: outcome.index, accepted: false, eventId: null, errors: result?.errors ?? [] };
    }
    accepted++;
    return { index: outcome.index, accepted: true, eventId: result.eventId, errors: [] };
  });
  return { accepted, rejected: outcomes.length - accepted, results };
}

function claimOf(c: Candidate): KeyClaim | undefined {
  const { idempotencyKey, playerId, eventKey } = c.event;
  return idempotencyKey === null ? undefined : { playerId, eventKey, idempotencyKey, eventId: c.eventId };
}

const zoneChanges = (event: ValidEvent, player: Sighting | undefined) =>
  event.timeZone !== null && event.timeZone !== player?.timeZone;

const quotaError = (code: QuotaCode): EventItemError => ({ code, message: quotaMessage(code), meta: {} });

function toRecord(
  candidate: Candidate,
  environment: EnvironmentContext,
  receivedAt: string,
  playerTimeZone: string | null | undefined,
): AcceptedEvent {
  const { event } = candidate;
  return {
    eventId: candidate.eventId,
    organizationId: environment.organizationId,
    environmentId: environment.environmentId,
    environmentKind: environment.environmentKind,
    playerId: event.playerId,
    eventKey: event.eventKey,
    occurredAt: event.occurredAt,
    receivedAt,
    timeZone: event.timeZone ?? playerTimeZone ?? null,
    properties: event.properties,
    idempotencyKey: event.idempotencyKey,
  };
}
