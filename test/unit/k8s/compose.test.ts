import { describe, expect, it } from 'vitest';
import {
  containerOf,
  envKeysOf,
  find,
  loadCompose,
  type Manifest,
  render,
  resolveEnvironment,
} from '../../k8s/manifests.ts';
import { SERVICES } from '../../k8s/overlays.ts';

const compose = loadCompose();
const services = compose.services as Record<string, Manifest>;
const environmentOf = (service: string) => services[service]?.environment as Record<string, string>;

describe('deploy/compose.yaml', () => {
  it('runs Kafka, Postgres, Redis, the migration and the four services', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['kafka', 'postgres', 'redis', 'migrate', ...SERVICES]),
    );
    expect(services.kafka?.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
  });

  it.each(SERVICES)(
    '%s: sets every variable its env schema reads, and listens on 0.0.0.0',
    async (service) => {
      const environment = environmentOf(service);
      const missing = (await envKeysOf(service)).filter((key) => !(key in environment));
      expect(missing).toEqual([]);
      expect(environment.HOST).toBe('0.0.0.0');
      expect(services[service]?.command).toEqual(['node', `services/${service}/src/main.ts`]);
    },
  );

  it.each(SERVICES)('%s: starts after the migration, and sets what the dev overlay sets', (service) => {
    expect(services[service]?.depends_on.migrate).toEqual({ condition: 'service_completed_successfully' });
    const dev = render('overlays/dev');
    const manifestKeys = [...resolveEnvironment(dev, containerOf(find(dev, 'Deployment', service))).keys()];
    expect(Object.keys(environmentOf(service)).sort()).toEqual(manifestKeys.sort());
  });

  it('the gateway finds the services, the Postgres and the Redis defined here', () => {
    const gateway = environmentOf('gateway');
    for (const service of ['rules', 'ledger', 'query']) {
      const url = new URL(gateway[`${service.toUpperCase()}_URL`] ?? '');
      expect(url.hostname).toBe(service);
      expect(url.port).toBe(environmentOf(service).PORT);
    }
    expect(new URL(gateway.DATABASE_URL ?? '').hostname).toBe('postgres');
    expect(new URL(gateway.REDIS_URL ?? '').hostname).toBe('redis');
    expect(gateway.KAFKA_BROKERS).toBe('kafka:9092');
  });

  it('builds one image from deploy/Dockerfile, which the migration runs too', () => {
    for (const name of ['migrate', ...SERVICES]) {
      expect(services[name]?.image).toBe('engage:dev');
      expect(services[name]?.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
    }
    expect(services.migrate?.command).toEqual(['node', 'libs/devstack/src/cli/migrate.ts']);
  });
});
