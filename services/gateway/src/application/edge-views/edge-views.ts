import { type ApiKeyState, type DefinitionApplied, type OrganizationState, topics } from '@engage/contracts';
import type { KafkaClient } from '@engage/kafka';
import type { Logger } from '@engage/kit';
import { eventRulesOf, NO_EVENT_RULES } from '../../domain/edge-state.ts';
import type { EventRule, EventRules } from '../../domain/event-items.ts';
import { startTopicReader, type TopicReader } from './topic-reader.ts';

/**
 * What the edge knows of the control plane's state, in memory, fed by its topics: API keys by
 * public id (api-keys.state.v1), organizations' billing and Live player cap
 * (organizations.state.v1), and each environment's event definitions (the latest record of
 * definitions.applied.v1, plus what discovery answered since). Read whole before the gateway
 * listens; kept current while it runs. docs/architecture.md says how quickly a change arrives.
 */
export interface EdgeViews {
  apiKey(publicId: string): ApiKeyState | undefined;
  organization(organizationId: string): OrganizationState | undefined;
  eventRules(environmentId: string): EventRules;
  /** Events as the control plane answered a discovery: checked against until a newer record. */
  learn(environmentId: string, events: readonly EventRule[]): void;
  /**
   * Resolves true as soon as `known()` holds, false if it does not within `timeoutMs`: for a
   * change just committed that may still be on its way (a key created a moment ago).
   */
  until(known: () => boolean, timeoutMs: number): Promise<boolean>;
  /** Every record on the topics now applied (bounded by `timeoutMs`; false: not within it). */
  catchUp(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

interface EnvironmentDefinitions {
  version: number;
  rules: EventRules;
}

export async function startEdgeViews(options: {
  kafka: KafkaClient;
  topicPrefix: string;
  log: Logger;
  onStopped: (err: unknown) => void;
}): Promise<EdgeViews> {
  const apiKeys = new Map<string, ApiKeyState>();
  const organizations = new Map<string, OrganizationState>();
  const definitions = new Map<string, EnvironmentDefinitions>();

  const reader: TopicReader = await startTopicReader({
    ...options,
    readerGroup: 'gateway-views',
    handlers: [
      {
        topic: topics.apiKeysState,
        apply: (publicId: string, record: ApiKeyState | null) => {
          // A revoked key stays revoked, whatever order a re-sent record arrives in.
          if (!record) apiKeys.delete(publicId);
          else if (!apiKeys.get(publicId)?.revoked) apiKeys.set(publicId, record);
        },
      },
      {
        topic: topics.organizationsState,
        apply: (organizationId: string, record: OrganizationState | null) => {
          if (record) organizations.set(organizationId, record);
          else organizations.delete(organizationId);
        },
      },
      {
        topic: topics.definitionsApplied,
        apply: (environmentId: string, record: DefinitionApplied | null) => {
          // Records older than their field carry no definitions; a re-sent older version is stale.
          if (!record?.events) return;
          const held = definitions.get(environmentId);
          if (held && held.version >= record.version) return;
          definitions.set(environmentId, { version: record.version, rules: eventRulesOf(record.events) });
        },
      },
    ],
  });

  const withTimeout = async (work: Promise<unknown>, timeoutMs: number): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([work.then(() => true as const), expired]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    apiKey: (publicId) => apiKeys.get(publicId),
    organization: (organizationId) => organizations.get(organizationId),
    eventRules: (environmentId) => definitions.get(environmentId)?.rules ?? NO_EVENT_RULES,
    learn(environmentId, events) {
      const held = definitions.get(environmentId) ?? { version: 0, rules: NO_EVENT_RULES };
      const merged = new Map(held.rules.events);
      for (const event of events) merged.set(event.key, event);
      definitions.set(environmentId, { version: held.version, rules: { ...held.rules, events: merged } });
    },
    async until(known, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!known()) {
        const left = deadline - Date.now();
        if (left <= 0 || !(await withTimeout(reader.nextChange(), left))) return known();
      }
      return true;
    },
    catchUp: (timeoutMs) => withTimeout(reader.catchUp(), timeoutMs).catch(() => false),
    stop: () => reader.stop(),
  };
}
