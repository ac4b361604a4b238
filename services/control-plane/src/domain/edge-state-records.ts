import type { ApiKeyState, EnvironmentKind, EventDefinitions, OrganizationState } from '@engage/contracts';
import type { EventDefinition } from '@engage/contracts/environment-file.ts';
import type { ApiKey, Organization } from '@engage/contracts/http/admin.ts';

/**
 * The records of the state the edge (the gateway's /v1 path) holds, built from what a write stored:
 * api-keys.state.v1, organizations.state.v1 and the `events` of definitions.applied.v1.
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
