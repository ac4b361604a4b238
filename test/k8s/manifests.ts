import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prometheusOperatorModels from '@kubernetes-models/prometheus-operator';
import * as models from 'kubernetes-models';
import { parse } from 'yaml';
import type { ZodObject } from 'zod';
import { containersOf, kustomize, type Manifest } from './kustomize.ts';
import { K8S_DIR, REPO_ROOT } from './overlays.ts';

export type { Manifest };

export function render(overlay: string): Manifest[] {
  return kustomize(join(K8S_DIR, overlay));
}

export function find(objects: Manifest[], kind: string, name: string): Manifest {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

/**
 * Validates an object against the Kubernetes OpenAPI schema of its kind (the `kubernetes-models`
 * package, generated from the API server's schemas, and `@kubernetes-models/prometheus-operator`,
 * from the Prometheus Operator's CRDs); throws with the schema's complaints.
 */
export function validateAgainstKubernetesSchema(object: Manifest): void {
  const apiVersion: string = object.apiVersion;
  const [group = '', version = ''] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  // Groups are exported as camel-cased namespaces: networking.k8s.io -> networkingK8sIo; core -> v1.
  const groupKey = group.replace(/\.(\w)/g, (_: string, c: string) => c.toUpperCase());
  const modelsByGroup = { ...models, ...prometheusOperatorModels } as unknown as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  const versions = group === '' ? { [version]: modelsByGroup[version] } : modelsByGroup[groupKey];
  const Model = versions?.[version]?.[object.kind] as
    | (new (
        data: Manifest,
      ) => { validate(): void })
    | undefined;
  if (!Model) throw new Error(`no Kubernetes schema for ${object.apiVersion} ${object.kind}`);
  new Model(object).validate();
}

/** The names of the environment variables a service reads: the keys of its exported zod schema. */
export async function envKeysOf(service: string): Promise<string[]> {
  const module = (await import(join(REPO_ROOT, 'services', service, 'src', 'env.ts'))) as Record<
    string,
    unknown
  >;
  // A schema is an object, or an object piped into a transform (`.transform(withKafkaSecurity)`).
  const objectOf = (value: unknown): ZodObject | undefined => {
    if (typeof value !== 'object' || value === null) return undefined;
    if ('shape' in value) return value as ZodObject;
    return 'in' in value ? objectOf((value as { in: unknown }).in) : undefined;
  };
  const schemas = Object.values(module).flatMap((value) => objectOf(value) ?? []);
  if (schemas.length !== 1)
    throw new Error(`services/${service}/src/env.ts exports ${schemas.length} schemas`);
  return Object.keys(schemas[0]!.shape);
}

/** Where each environment variable of a workload's containers comes from. */
export type EnvSource =
  | { from: 'value'; value: string }
  | { from: 'configMap'; name: string; key: string; value: string }
  | { from: 'secret'; name: string; key: string; value?: string };

/**
 * Resolves a container's environment the way the kubelet does (envFrom first, then env, later
 * entries winning). ConfigMaps must be part of the render; a Secret may be the platform's own
 * (production), in which case the value is unknown but the reference is kept.
 */
export function resolveEnvironment(objects: Manifest[], container: Manifest): Map<string, EnvSource> {
  const env = new Map<string, EnvSource>();
  const configMap = (name: string) => find(objects, 'ConfigMap', name);
  const secret = (name: string) => objects.find((o) => o.kind === 'Secret' && o.metadata.name === name);
  const secretValue = (name: string, key: string) => {
    const data = secret(name)?.data?.[key];
    return data === undefined ? undefined : Buffer.from(data, 'base64').toString();
  };
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const { name } = source.configMapRef;
      for (const [key, value] of Object.entries(configMap(name).data ?? {})) {
        env.set(key, { from: 'configMap', name, key, value: String(value) });
      }
    } else if (source.secretRef) {
      const { name } = source.secretRef;
      for (const key of Object.keys(secret(name)?.data ?? {})) {
        env.set(key, { from: 'secret', name, key, value: secretValue(name, key) });
      }
    }
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom;
    if (ref?.configMapKeyRef) {
      const { name, key } = ref.configMapKeyRef;
      const value = configMap(name).data?.[key];
      if (value === undefined) throw new Error(`ConfigMap ${name} has no key ${key}`);
      env.set(entry.name, { from: 'configMap', name, key, value });
    } else if (ref?.secretKeyRef) {
      const { name, key } = ref.secretKeyRef;
      env.set(entry.name, { from: 'secret', name, key, value: secretValue(name, key) });
    } else if (entry.value !== undefined) {
      env.set(entry.name, { from: 'value', value: String(entry.value) });
    } else {
      throw new Error(`env ${entry.name} has neither a value nor a supported valueFrom`);
    }
  }
  return env;
}

export function containerOf(workload: Manifest): Manifest {
  const [container, ...others] = containersOf(workload);
  if (!container || others.length > 0) throw new Error(`${workload.metadata.name}: expected one container`);
  return container;
}

export function loadCompose(): Manifest {
  return parse(readFileSync(join(REPO_ROOT, 'deploy', 'compose.yaml'), 'utf8'), { merge: true }) as Manifest;
}

export function readRepoFile(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}
