import { join } from 'node:path';

/** The four services, their default ports and the Postgres schema each one owns. */
export const SERVICES = [
  { name: 'gateway', port: 8080 },
  { name: 'rules', port: 8081 },
  { name: 'ledger', port: 8082 },
  { name: 'query', port: 8083 },
] as const;

export type ServiceName = (typeof SERVICES)[number]['name'];

export const serviceEntry = (repoRoot: string, name: ServiceName) =>
  join(repoRoot, 'services', name, 'src', 'main.ts');
export const serviceMigrations = (repoRoot: string, name: ServiceName) =>
  join(repoRoot, 'services', name, 'migrations');
