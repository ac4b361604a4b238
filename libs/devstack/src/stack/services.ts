import { join } from 'node:path';

/**
 * The five services, their default ports and the Postgres schema each one owns. The gateway's
 * migrations run before the control plane's: the control plane's first one takes its tables over
 * from the gateway's schema.
 */
export const SERVICES = [
  { name: 'gateway', port: 8080, schema: 'gateway' },
  { name: 'rules', port: 8081, schema: 'rules' },
  { name: 'ledger', port: 8082, schema: 'ledger' },
  { name: 'query', port: 8083, schema: 'query' },
  { name: 'control-plane', port: 8084, schema: 'control_plane' },
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

/** The variable a service's address is given to the others in (CONTROL_PLANE_URL, RULES_URL, …). */
export const urlVariable = (name: ServiceName) => `${name.toUpperCase().replaceAll('-', '_')}_URL`;

export const serviceEntry = (repoRoot: string, name: ServiceName) =>
  join(repoRoot, 'services', name, 'src', 'main.ts');
export const serviceMigrations = (repoRoot: string, name: ServiceName) =>
  join(repoRoot, 'services', name, 'migrations');
