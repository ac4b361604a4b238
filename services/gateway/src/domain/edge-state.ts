import type { ApiKeyState, EnvironmentKind, EventDefinitions, OrganizationState } from '@engage/contracts';
import type { EventDefinition } from '@engage/contracts/environment-file.ts';
import type { ApiKey, Organization } from '@engage/contracts/http/admin.ts';
import type { EventRule, EventRules } from './event-items.ts';

/**
 * What the edge (the gateway's /v1 path) knows of the control plane's state, as the compacted
 * topics api-keys.state.v1 and organizations.state.v1 and the `events` of definitions.applied.v1
 * carry it: the records built from what a write stored, and the rules the edge checks events with.
 */

export function apiKeyStateRecord(input: {
  apiKey: ApiKey;
  /** The hash of a key just created (a revoked key's record carries none). */
  secretSha256: Buffer | null;
  organizationId: string;
  environmentKind: EnvironmentKind;
  changedAt: Date;
}): ApiKeyState {
  return {
    publicId: input.apiKey.publicId,
    apiKeyId: input.apiKey.apiKeyId,
    secretSha256: input.apiKey.revokedAtUtc === null ? input.secretSha256 : null,
    revoked: input.apiKey.revokedAtUtc !== null,
    organizationId: input.organizationId,
    environmentId: input.apiKey.environmentId,
    environmentKind: input.environmentKind,
    changedAt: input.changedAt.toISOString(),
  };
}

export const organizationStateRecord = (organization: Organization): OrganizationState => ({
  organizationId: organization.organizationId,
  billingStatus: organization.billingStatus,
  liveMonthlyActivePlayersCap: organization.liveMonthlyActivePlayersCap,
  changedAt: organization.updatedAtUtc,
});

/** An environment's stored event definitions as definitions.applied.v1 carries them. */
export function eventDefinitionsRecord(state: {
  discovery: boolean;
  events: EventDefinition[];
}): EventDefinitions {
  return {
    discovery: state.discovery,
    definitions: state.events.map((e) => ({
      key: e.key,
      active: e.active,
      discovered: e.discovered ?? false,
      properties: Object.entries(e.properties).map(([name, p]) => ({
        name,
        type: p.type,
        required: p.required,
      })),
    })),
  };
}

/** The rules POST /v1/events checks items against, from a record's event definitions. */
export function eventRulesOf(events: EventDefinitions): EventRules {
  return {
    discovery: events.discovery,
    events: new Map(
      events.definitions.map((e): [string, EventRule] => [
        e.key,
        {
          key: e.key,
          active: e.active,
          properties: Object.fromEntries(
            e.properties.map((p) => [p.name, { type: p.type, required: p.required }]),
          ),
        },
      ]),
    ),
  };
}

/** An environment no definition was recorded for yet: discovery off, no events (as one created). */
export const NO_EVENT_RULES: EventRules = { discovery: false, events: new Map() };
