import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
export const K8S_DIR = join(REPO_ROOT, 'k8s');

/** Every kustomization a platform team applies, relative to k8s/. */
export const OVERLAYS = [
  'overlays/dev',
  'overlays/prod',
  'overlays/prod/topics',
  'overlays/prod/monitoring',
] as const;

/** The services, each with a Deployment of the same name. */
export const SERVICES = ['gateway', 'rules', 'ledger', 'query', 'control-plane'] as const;
