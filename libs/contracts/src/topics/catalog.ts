import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { acceptedEventDefect } from './accepted-event-defect.ts';
import { logicalTypes } from './logical-types.ts';

/**
 * The one catalog of Kafka topics: name, partition count, key and Avro schema of each.
 * Topic names are `<prefix><base>`; the prefix (KAFKA_TOPIC_PREFIX, default `engage.`) lets several
 * stacks or test runs share one broker without seeing each other's records.
 */
export interface TopicDefinition<T> {
  /** Name without the deployment prefix, e.g. `events.accepted.v1`. */
  readonly base: string;
  readonly partitions: number;
  readonly config: Readonly<Record<string, string>>;
  readonly description: string;
  /** The record key; records with the same key land on the same partition, in order. */
  readonly keyOf: (record: T) => string;
  readonly schemaFile: string;
  readonly type: avro.Type;
  /**
   * Why a decoded record is one its producer's edge would have refused (undefined: none). A consumer
   * sets such a record aside instead of applying it.
   */
  readonly defectOf?: (record: T) => string | undefined;
}

export function loadSchema(file: string): avro.Type {
  return avro.Type.forSchema(JSON.parse(schemaText(file)) as avro.Schema, { logicalTypes });
}

/** A schema file's text as in the repository, docs and every logicalType attribute included. */
export function schemaText(file: string): string {
  return readFileSync(new URL(`./avro/${file}`, import.meta.url), 'utf8');
}

function defineTopic<T>(def: Omit<TopicDefinition<T>, 'type'>): TopicDefinition<T> {
  return { ...def, type: loadSchema(def.schemaFile) };
}

/** Key of every per-player record: one player's records stay in order on one partition. */
export const playerKey = (r: { environmentId: string; playerId: string }) =>
  `${r.environmentId}:${r.playerId}`;

export type PropertyValue =
  | { type: 'String'; string: string; number: null; boolean: null; dateTime: null }
  | { type: 'Number'; string: null; number: string; boolean: null; dateTime: null }
  | { type: 'Boolean'; string: null; number: null; boolean: boolean; dateTime: null }
  | { type: 'DateTime'; string: null; number: null; boolean: null; dateTime: string };

export interface AcceptedEvent {
  eventId: string;
  organizationId: string;
  environmentId: string;
  environmentKind: 'Sandbox' | 'Live';
  playerId: string;
  eventKey: string;
  occurredAt: string;
  receivedAt: string;
  timeZone: string | null;
  properties: Record<string, PropertyValue>;
  idempotencyKey: string | null;
}

/**
 * The id a consumer claims an accepted event under, or undefined when it need not be claimed: only
 * an event with an idempotencyKey can be on the topic twice (the gateway re-sends it with its
 * eventId after a crash or a failed send); a keyless event never is, and claiming it would cost an
 * index insert for nothing.
 */
export const acceptedEventClaimId = (event: AcceptedEvent): string | undefined =>
  event.idempotencyKey === null ? undefined : event.eventId;

export interface PointsJournalEntry {
  entryId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  kind: 'adjustment' | 'purchase' | 'reward';
  amount: number;
  balanceAfter: number;
  reason: string | null;
  idempotencyKey: string | null;
  sourceRef: string | null;
  occurredAt: string;
  /** A purchase's marketplace item; null for other kinds (and in records older than the field). */
  marketplaceItemKey: string | null;
}

/** One purchase, free or not (a free one moves no balance, so it has no journal entry). */
export interface ShopPurchase {
  purchaseId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  marketplaceItemKey: string;
  occurrenceNumber: number;
  priceInPoints: number;
  /** The purchase's journal entry (the transactionId it answered); null for a free item. */
  entryId: string | null;
  balanceAfter: number;
  idempotencyKey: string | null;
  contents: PurchasedContent[];
  purchasedAt: string;
}

export interface PurchasedContent {
  catalogItemKey: string;
  value: number | string | boolean;
}

export interface GrantedReward {
  kind: 'Points' | 'CatalogItem';
  pointsAmount: number | null;
  catalogItemKey: string | null;
  catalogItemValue: string | number | boolean | null;
}

export interface RewardGrant {
  grantId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  source: 'Mission' | 'StreakMilestone';
  sourceKey: string;
  occurrenceNumber: number;
  milestoneThreshold: number | null;
  rewards: GrantedReward[];
  grantedAt: string;
}

export interface LeaderboardResult {
  resultId: string;
  organizationId: string;
  environmentId: string;
  leaderboardKey: string;
  periodStartsAt: string;
  periodEndsAt: string | null;
  rowKind: 'Player' | 'Team';
  rowKey: string;
  rank: number;
  score: string;
  tierKey: string | null;
  groupNumber: number | null;
  movement: 'Promoted' | 'Relegated' | 'Stayed' | null;
  nextTierKey: string | null;
  settledAt: string;
}

export type RulesProgressKind =
  | 'MissionEntered'
  | 'MissionAccepted'
  | 'ObjectiveSatisfied'
  | 'MissionCompleted'
  | 'StreakExtended'
  | 'StreakMilestoneReached'
  | 'StreakBroken';

export interface RulesProgress {
  recordId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  kind: RulesProgressKind;
  subjectKey: string;
  occurrenceNumber: number;
  objectiveKey: string | null;
  value: number | null;
  milestoneThreshold: number | null;
  localDate: string | null;
  causeEventId: string | null;
  occurredAt: string;
  /** StreakBroken: when the ended run broke. */
  endedAt: string | null;
}

export type AttributeRecordValue =
  | { type: 'String'; string: string; number: null; boolean: null }
  | { type: 'Number'; string: null; number: string; boolean: null }
  | { type: 'Boolean'; string: null; number: null; boolean: boolean };

export interface PlayerAttributesChanged {
  changeId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  /** The player's whole attribute set after the change. */
  attributes: Record<string, AttributeRecordValue>;
  changedKeys: string[];
  timeZone: string | null;
  timeZoneChanged: boolean;
  isNewPlayer: boolean;
  changedAt: string;
}

/** Who made a change through the admin API. */
export interface ChangeActor {
  /** Discovery: an event or property defined by its first occurrence in traffic (definitions only). */
  kind: 'AdminToken' | 'Operator' | 'Discovery';
  operatorId: string | null;
}

export interface ApiKeyChange {
  changeId: string;
  kind: 'Created' | 'Revoked';
  apiKeyId: string;
  publicId: string;
  name: string | null;
  organizationId: string;
  environmentId: string;
  environmentKind: 'Sandbox' | 'Live';
  actor: ChangeActor;
  occurredAt: string;
}

export interface DefinitionChange {
  section: string;
  key: string;
  change: 'Created' | 'Updated' | 'Removed';
  fields: string[];
}

export interface PropertyDefinitionState {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'dateTime';
  required: boolean;
}

export interface EventDefinitionState {
  key: string;
  active: boolean;
  discovered: boolean;
  properties: PropertyDefinitionState[];
}

/** An environment's event definitions, whole, as the edge checks events against them. */
export interface EventDefinitions {
  discovery: boolean;
  definitions: EventDefinitionState[];
}

export interface DefinitionApplied {
  applyId: string;
  organizationId: string;
  environmentId: string;
  environmentKind: 'Sandbox' | 'Live';
  version: number;
  actor: ChangeActor;
  changes: DefinitionChange[];
  appliedAt: string;
  /** The environment's event definitions after the change (null in records older than the field). */
  events: EventDefinitions | null;
}

/** The current state of one API key, for the edge: the latest record of a publicId is the key. */
export interface ApiKeyState {
  publicId: string;
  apiKeyId: string;
  /** Null once the key is revoked. */
  secretSha256: Buffer | null;
  revoked: boolean;
  organizationId: string;
  environmentId: string;
  environmentKind: 'Sandbox' | 'Live';
  changedAt: string;
}

/** The current state of one organization as the edge enforces it. */
export interface OrganizationState {
  organizationId: string;
  billingStatus: 'active' | 'none' | 'overdue';
  liveMonthlyActivePlayersCap: number | null;
  changedAt: string;
}

export const topics = {
  eventsAccepted: defineTopic<AcceptedEvent>({
    base: 'events.accepted.v1',
    partitions: 12,
    config: { 'retention.ms': String(7 * 24 * 3600 * 1000) },
    description: 'Every event accepted by POST /v1/events, once.',
    keyOf: playerKey,
    schemaFile: 'events.accepted.v1.avsc',
    defectOf: acceptedEventDefect,
  }),
  pointsJournal: defineTopic<PointsJournalEntry>({
    base: 'points.journal.v1',
    partitions: 12,
    config: { 'retention.ms': String(30 * 24 * 3600 * 1000) },
    description:
      'Every committed change of a points balance, one record per journal entry (dedupe by entryId).',
    keyOf: playerKey,
    schemaFile: 'points.journal.v1.avsc',
  }),
  shopPurchases: defineTopic<ShopPurchase>({
    base: 'shop.purchases.v1',
    partitions: 12,
    config: { 'retention.ms': String(30 * 24 * 3600 * 1000) },
    description:
      'Every committed purchase, free items too, one record each (dedupe by purchaseId): the item, its price and contents, the balance after.',
    keyOf: playerKey,
    schemaFile: 'shop.purchases.v1.avsc',
  }),
  rewardsGranted: defineTopic<RewardGrant>({
    base: 'rewards.granted.v1',
    partitions: 12,
    config: { 'retention.ms': String(30 * 24 * 3600 * 1000) },
    description: 'Rewards earned from missions and streak milestones, credited once each by the ledger.',
    keyOf: playerKey,
    schemaFile: 'rewards.granted.v1.avsc',
  }),
  rulesProgress: defineTopic<RulesProgress>({
    base: 'rules.progress.v1',
    partitions: 12,
    config: { 'retention.ms': String(30 * 24 * 3600 * 1000) },
    description:
      'Mission and streak steps of each player (entered, objective satisfied, completed, streak extended, milestone reached), for analysts.',
    keyOf: playerKey,
    schemaFile: 'rules.progress.v1.avsc',
  }),
  leaderboardsSettled: defineTopic<LeaderboardResult>({
    base: 'leaderboards.settled.v1',
    partitions: 12,
    config: { 'retention.ms': String(30 * 24 * 3600 * 1000) },
    description:
      'Final standings of every settled leaderboard period (one record per player or team), for analysts.',
    keyOf: (r) => `${r.environmentId}:${r.leaderboardKey}`,
    schemaFile: 'leaderboards.settled.v1.avsc',
  }),
  playersAttributes: defineTopic<PlayerAttributesChanged>({
    base: 'players.attributes.v1',
    partitions: 12,
    config: { 'retention.ms': String(30 * 24 * 3600 * 1000) },
    description:
      "Every committed change of a player's attributes or time zone, with the whole attribute set after it, for analysts.",
    keyOf: playerKey,
    schemaFile: 'players.attributes.v1.avsc',
  }),
  definitionsApplied: defineTopic<DefinitionApplied>({
    base: 'definitions.applied.v1',
    partitions: 3,
    config: { 'retention.ms': '-1' },
    description:
      'Every environment file apply that changed something and every discovery: version, who, the items it changed, and the event definitions after it.',
    keyOf: (r) => r.environmentId,
    schemaFile: 'definitions.applied.v1.avsc',
  }),
  apiKeys: defineTopic<ApiKeyChange>({
    base: 'api-keys.v1',
    partitions: 3,
    config: { 'retention.ms': '-1' },
    description: 'API keys created and revoked through the admin API (never the secret).',
    keyOf: (r) => r.environmentId,
    schemaFile: 'api-keys.v1.avsc',
  }),
  apiKeysState: defineTopic<ApiKeyState>({
    base: 'api-keys.state.v1',
    partitions: 3,
    config: { 'cleanup.policy': 'compact' },
    description:
      'The current state of every API key, with the hash of its secret, for the edge to authenticate (compacted).',
    keyOf: (r) => r.publicId,
    schemaFile: 'api-keys.state.v1.avsc',
  }),
  organizationsState: defineTopic<OrganizationState>({
    base: 'organizations.state.v1',
    partitions: 3,
    config: { 'cleanup.policy': 'compact' },
    description:
      'The current billing status and Live monthly-active-player cap of every organization, for the edge (compacted).',
    keyOf: (r) => r.organizationId,
    schemaFile: 'organizations.state.v1.avsc',
  }),
} as const;

export type TopicId = keyof typeof topics;

export function topicName(def: { readonly base: string }, prefix: string): string {
  return `${prefix}${def.base}`;
}

export function allTopics(): TopicDefinition<unknown>[] {
  return Object.values(topics) as TopicDefinition<unknown>[];
}
