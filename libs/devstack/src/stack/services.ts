import { join } from 'node:path';

/** The four services, their default ports and the Postgres schema each one owns. */
export const SERVICES = [
  { name: 'gateway', port: 8080 },
  { name: 'rules', port: 8081 },
  { name: 'ledger', port: 8082 },
  { name: 'query', port: 8083 },
] as const;

/**
 * The port a service listens on under `npm start`: its default, moved by ENGAGE_PORT_BASE (the
 * gateway's port; the others follow it in this order) so a second stack can run beside the first.
 */
export function stackPort(
  service: (typeof SERVICES)[number],
  portBase = process.env.ENGAGE_PORT_BASE,
): number {
  const base = Number(portBase || SERVICES[0].port);
  return base + (service.port - SERVICES[0].port);
}

export type ServiceName = (typeof SERVICES)[number]['name'];

export const serviceEntry = (repoRoot: string, name: ServiceName) =>
  join(repoRoot, 'services', name, 'src', 'main.ts');
export const serviceMigrations = (repoRoot: string, name: ServiceName) =>
  join(repoRoot, 'services', name, 'migrations');
