import { type EnvironmentKind, topics } from '@engage/contracts';
import { generateApiKey } from '@engage/contracts/api-key.ts';
import type { ApiKey, CreateOrganization, Organization, Project } from '@engage/contracts/http/admin.ts';
import { enqueueOutbox } from '@engage/kafka';
import type { Pool } from '@engage/postgres';
import { apiKeyStateRecord, organizationStateRecord } from '../domain/edge-state-records.ts';
import { apiKeyRecord } from '../domain/state-records.ts';
import {
  findProject,
  insertApiKey,
  insertOrganization,
  insertProjectIn,
  lockApiKey,
  lockOrganization,
  revokeApiKey,
  updateOrganization,
} from '../store/control-plane.ts';
import { insertMembership } from '../store/operators.ts';
import { audited, type WriteOrigin } from './audited.ts';
import type { StateOutbox } from './state-outbox.ts';

/** The control plane's writes through the admin API, each recorded in the audit log with its change. */

export async function createOrganization(
  pool: Pool,
  outbox: StateOutbox,
  origin: WriteOrigin,
  input: Required<CreateOrganization>,
): Promise<Organization> {
  const created = await audited(pool, origin, async (client) => {
    const organization = await insertOrganization(client, input);
    await enqueueOutbox(client, topics.organizationsState, outbox.topicPrefix, [
      organizationStateRecord(organization),
    ]);
    // An operator who creates an organization owns it (only the admin token may today).
    if (origin.actor.kind === 'operator') {
      await insertMembership(client, organization.organizationId, origin.actor.operatorId, 'owner');
    }
    const { organizationId } = organization;
    return {
      result: organization,
      change: { organizationId, targets: { organizationId }, after: organization },
    };
  });
  outbox.kick();
  return created;
}

export async function changeOrganization(
  pool: Pool,
  outbox: StateOutbox,
  origin: WriteOrigin,
  organizationId: string,
  patch: Parameters<typeof updateOrganization>[2],
): Promise<Organization | undefined> {
  const changed = await audited(pool, origin, async (client) => {
    const before = await lockOrganization(client, organizationId);
    if (!before) return { result: undefined, change: undefined };
    const after = await updateOrganization(client, organizationId, patch);
    if (after) {
      await enqueueOutbox(client, topics.organizationsState, outbox.topicPrefix, [
        organizationStateRecord(after),
      ]);
    }
    return { result: after, change: { organizationId, targets: { organizationId }, before, after } };
  });
  outbox.kick();
  return changed;
}

export function createProject(
  pool: Pool,
  origin: WriteOrigin,
  organizationId: string,
  name: string,
): Promise<Project | undefined> {
  return audited(pool, origin, async (client) => {
    const projectId = await insertProjectIn(client, organizationId, name);
    const project = projectId ? await findProject(client, projectId) : undefined;
    if (!project) return { result: undefined, change: undefined };
    return {
      result: project,
      change: { organizationId, targets: { organizationId, projectId: project.projectId }, after: project },
    };
  });
}

export async function createApiKey(
  pool: Pool,
  outbox: StateOutbox,
  origin: WriteOrigin,
  input: { organizationId: string; environmentId: string; kind: EnvironmentKind; name: string | null },
): Promise<ApiKey & { apiKey: string }> {
  const generated = generateApiKey(input.kind);
  const created = await audited(pool, origin, async (client) => {
    const stored = await insertApiKey(client, {
      environmentId: input.environmentId,
      publicId: generated.publicId,
      secretSha256: generated.secretSha256,
      name: input.name,
    });
    const targets = {
      organizationId: input.organizationId,
      environmentId: input.environmentId,
      apiKeyId: stored.apiKeyId,
    };
    await enqueueOutbox(client, topics.apiKeys, outbox.topicPrefix, [
      apiKeyRecord({
        kind: 'Created',
        apiKey: stored,
        organizationId: input.organizationId,
        environmentKind: input.kind,
        actor: origin.actor,
        occurredAt: new Date(stored.createdAtUtc),
      }),
    ]);
    await enqueueOutbox(client, topics.apiKeysState, outbox.topicPrefix, [
      apiKeyStateRecord({
        apiKey: stored,
        secretSha256: generated.secretSha256,
        organizationId: input.organizationId,
        environmentKind: input.kind,
        changedAt: new Date(stored.createdAtUtc),
      }),
    ]);
    // The secret is shown once to the caller and never recorded.
    return {
      result: { ...stored, apiKey: generated.key },
      change: { organizationId: input.organizationId, targets, after: stored },
    };
  });
  outbox.kick();
  return created;
}

/** Revoking a revoked key answers it as it is, and publishes nothing. */
export async function revokeKey(
  pool: Pool,
  outbox: StateOutbox,
  origin: WriteOrigin,
  apiKeyId: string,
): Promise<ApiKey | undefined> {
  const revoked = await audited(pool, origin, async (client) => {
    const locked = await lockApiKey(client, apiKeyId);
    if (!locked) return { result: undefined, change: undefined };
    const after = await revokeApiKey(client, apiKeyId);
    const { organizationId, apiKey: before } = locked;
    if (after && before.revokedAtUtc === null) {
      await enqueueOutbox(client, topics.apiKeys, outbox.topicPrefix, [
        apiKeyRecord({
          kind: 'Revoked',
          apiKey: after,
          organizationId,
          environmentKind: after.kind,
          actor: origin.actor,
          occurredAt: new Date(after.revokedAtUtc ?? Date.now()),
        }),
      ]);
      await enqueueOutbox(client, topics.apiKeysState, outbox.topicPrefix, [
        apiKeyStateRecord({
          apiKey: after,
          secretSha256: null,
          organizationId,
          environmentKind: after.kind,
          changedAt: new Date(after.revokedAtUtc ?? Date.now()),
        }),
      ]);
    }
    const targets = { organizationId, environmentId: before.environmentId, apiKeyId };
    return { result: after, change: { organizationId, targets, before, after } };
  });
  outbox.kick();
  return revoked;
}
