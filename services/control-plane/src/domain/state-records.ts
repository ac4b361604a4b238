import { randomUUID } from 'node:crypto';
import type {
  ApiKeyChange,
  ChangeActor,
  DefinitionApplied,
  DefinitionChange,
  EnvironmentKind,
  EventDefinitions,
} from '@engage/contracts';
import type { ItemChange } from '@engage/contracts/environment-file.ts';
import type { ApiKey } from '@engage/contracts/http/admin.ts';
import type { Actor } from '../store/audit-log.ts';

/**
 * The records of the control plane's state changes on their topics (api-keys.v1,
 * definitions.applied.v1): what each says, built from what the change wrote.
 */

export const changeActor = (actor: Actor): ChangeActor =>
  actor.kind === 'operator'
    ? { kind: 'Operator', operatorId: actor.operatorId }
    : { kind: 'AdminToken', operatorId: null };

/** The record of an API key created or revoked; the secret is never part of it. */
export function apiKeyRecord(input: {
  kind: ApiKeyChange['kind'];
  apiKey: ApiKey;
  organizationId: string;
  environmentKind: EnvironmentKind;
  actor: Actor;
  occurredAt: Date;
}): ApiKeyChange {
  return {
    changeId: randomUUID(),
    kind: input.kind,
    apiKeyId: input.apiKey.apiKeyId,
    publicId: input.apiKey.publicId,
    name: input.apiKey.name,
    organizationId: input.organizationId,
    environmentId: input.apiKey.environmentId,
    environmentKind: input.environmentKind,
    actor: changeActor(input.actor),
    occurredAt: input.occurredAt.toISOString(),
  };
}

const CHANGE_KINDS = { created: 'Created', updated: 'Updated', removed: 'Removed' } as const;

/** The items an apply changed, as the record lists them (unchanged items left out). */
export function definitionChanges(changes: readonly ItemChange[]): DefinitionChange[] {
  return changes.flatMap((c) =>
    c.change === 'unchanged'
      ? []
      : [{ section: c.section, key: c.key, change: CHANGE_KINDS[c.change], fields: [...c.fields] }],
  );
}

export function definitionAppliedRecord(input: {
  applyId: string;
  organizationId: string;
  environmentId: string;
  environmentKind: EnvironmentKind;
  version: number;
  /** `discovery`: the change is events or properties defined by their first occurrence. */
  actor: Actor | 'discovery';
  changes: readonly ItemChange[];
  appliedAt: Date;
  events: EventDefinitions;
}): DefinitionApplied {
  return {
    applyId: input.applyId,
    organizationId: input.organizationId,
    environmentId: input.environmentId,
    environmentKind: input.environmentKind,
    version: input.version,
    actor: input.actor === 'discovery' ? { kind: 'Discovery', operatorId: null } : changeActor(input.actor),
    changes: definitionChanges(input.changes),
    appliedAt: input.appliedAt.toISOString(),
    events: input.events,
  };
}
