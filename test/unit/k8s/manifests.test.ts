import { allTopics, topicName, topics } from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { kafkaAccessOf } from '../../k8s/kafka-access.ts';
import {
  containerOf,
  envKeysOf,
  find,
  type Manifest,
  render,
  resolveEnvironment,
  validateAgainstKubernetesSchema,
} from '../../k8s/manifests.ts';
import { OVERLAYS, SERVICES } from '../../k8s/overlays.ts';

const APP_OVERLAYS = ['overlays/dev', 'overlays/prod'] as const;
const CONSUMERS = ['rules', 'ledger'] as const;
const SHUTDOWN_TIMEOUT_MS_DEFAULT = 25_000;

const StrimziMetadataSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string()).refine((l) => Boolean(l['strimzi.io/cluster'])),
  })
  .strict();

/**
 * Strimzi's KafkaTopic and KafkaUser as Strimzi 1.0 serves them (kafka.strimzi.io/v1, the only
 * version it serves): no Kubernetes schema ships them, so the fields used are here.
 */
const KafkaTopicSchema = z
  .object({
    apiVersion: z.literal('kafka.strimzi.io/v1'),
    kind: z.literal('KafkaTopic'),
    metadata: StrimziMetadataSchema,
    spec: z
      .object({
        topicName: z.string().regex(/^[a-zA-Z0-9._-]{1,249}$/),
        partitions: z.number().int().min(1),
        replicas: z.number().int().min(1).max(32767),
        config: z.record(z.string(), z.string()),
      })
      .strict(),
  })
  .strict();

const AclOperation = z.enum([
  'Read',
  'Write',
  'Create',
  'Delete',
  'Alter',
  'Describe',
  'ClusterAction',
  'AlterConfigs',
  'DescribeConfigs',
  'IdempotentWrite',
  'All',
]);

/** v1 dropped the single `operation` of an ACL rule: `operations` is the only form. */
const KafkaUserSchema = z
  .object({
    apiVersion: z.literal('kafka.strimzi.io/v1'),
    kind: z.literal('KafkaUser'),
    metadata: StrimziMetadataSchema,
    spec: z
      .object({
        authentication: z.object({ type: z.enum(['tls', 'tls-external', 'scram-sha-512']) }).strict(),
        authorization: z
          .object({
            type: z.literal('simple'),
            acls: z.array(
              z
                .object({
                  resource: z
                    .object({
                      type: z.enum(['topic', 'group', 'cluster', 'transactionalId']),
                      name: z.string().optional(),
                      patternType: z.enum(['literal', 'prefix']).optional(),
                    })
                    .strict(),
                  type: z.enum(['allow', 'deny']).optional(),
                  operations: z.array(AclOperation).min(1),
                  host: z.string().optional(),
                })
                .strict(),
            ),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

const STRIMZI_SCHEMAS: Record<string, z.ZodType> = {
  KafkaTopic: KafkaTopicSchema,
  KafkaUser: KafkaUserSchema,
};

const rendered = new Map<string, Manifest[]>(OVERLAYS.map((overlay) => [overlay, render(overlay)]));
const objectsOf = (overlay: string) => rendered.get(overlay) ?? [];
const ofKind = (objects: Manifest[], kind: string) => objects.filter((o) => o.kind === kind);

describe.each(OVERLAYS)('k8s/%s', (overlay) => {
  it('renders, and every object is valid against its schema', () => {
    const objects = objectsOf(overlay);
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const strimzi = STRIMZI_SCHEMAS[object.kind];
      if (strimzi) strimzi.parse(object);
      else validateAgainstKubernetesSchema(object);
    }
  });

  it('names every object once', () => {
    const keys = objectsOf(overlay).map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe.each(APP_OVERLAYS)('k8s/%s: the services', (overlay) => {
  const objects = objectsOf(overlay);

  it.each(SERVICES)('%s: the Deployment sets every variable its env schema reads', async (service) => {
    const container = containerOf(find(objects, 'Deployment', service));
    const environment = resolveEnvironment(objects, container);
    const missing = (await envKeysOf(service)).filter((key) => !environment.has(key));
    expect(missing).toEqual([]);
  });

  it.each(SERVICES)('%s: secrets come from a Secret, and the rest never does', (service) => {
    const environment = resolveEnvironment(objects, containerOf(find(objects, 'Deployment', service)));
    const secretKeys = [...environment].filter(([, source]) => source.from === 'secret').map(([key]) => key);
    const everyService = ['DATABASE_URL', 'INTERNAL_AUTH_SECRET', 'INTERNAL_AUTH_SECRET_PREVIOUS'];
    expect(secretKeys.sort()).toEqual(
      service === 'control-plane' ? ['ADMIN_TOKEN', ...everyService] : everyService,
    );
  });

  it.each(SERVICES)('%s: the previous signing secret is optional (set only while rotating)', (service) => {
    const env = containerOf(find(objects, 'Deployment', service)).env as Manifest[];
    const previous = env.find((e) => e.name === 'INTERNAL_AUTH_SECRET_PREVIOUS');
    expect(previous?.valueFrom.secretKeyRef).toMatchObject({
      key: 'INTERNAL_AUTH_SECRET_PREVIOUS',
      optional: true,
    });
  });

  it.each(SERVICES)('%s: listens on 0.0.0.0 at the ports its Service, probes and scrape name', (service) => {
    const deployment = find(objects, 'Deployment', service);
    const container = containerOf(deployment);
    const environment = resolveEnvironment(objects, container);
    const port = Number((environment.get('PORT') as { value: string }).value);
    const metricsPort = Number((environment.get('METRICS_PORT') as { value: string }).value);
    expect(metricsPort).not.toBe(port);
    expect((environment.get('HOST') as { value: string }).value).toBe('0.0.0.0');
    expect(container.ports).toEqual([
      { name: 'http', containerPort: port, protocol: 'TCP' },
      { name: 'metrics', containerPort: metricsPort, protocol: 'TCP' },
    ]);
    expect(deployment.spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/port': String(metricsPort),
      'prometheus.io/path': '/metrics',
    });
    expect(container.command).toEqual(['node', `services/${service}/src/main.ts`]);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const svc = find(objects, 'Service', service);
    expect(svc.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(svc.spec.ports).toEqual([
      { name: 'http', port, targetPort: 'http', protocol: 'TCP' },
      { name: 'metrics', port: metricsPort, targetPort: 'metrics', protocol: 'TCP' },
    ]);
  });

  it.each(SERVICES)(
    '%s: runs unprivileged, with resources, and outlives its graceful shutdown',
    (service) => {
      const pod = find(objects, 'Deployment', service).spec.template.spec;
      const container = containerOf(find(objects, 'Deployment', service));
      const environment = resolveEnvironment(objects, container);
      const shutdownMs = Number(
        (environment.get('SHUTDOWN_TIMEOUT_MS') as { value: string } | undefined)?.value ??
          SHUTDOWN_TIMEOUT_MS_DEFAULT,
      );
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.resources.requests).toHaveProperty('cpu');
      expect(container.resources.requests).toHaveProperty('memory');
      expect(container.resources.limits).toHaveProperty('memory');
      const preStopSeconds = Number(container.lifecycle.preStop.exec.command[1]);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(shutdownMs / 1000 + preStopSeconds);
    },
  );

  it.each(SERVICES)('%s: has an autoscaler and a disruption budget for its pods', (service) => {
    const deployment = find(objects, 'Deployment', service);
    const hpa = find(objects, 'HorizontalPodAutoscaler', service);
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: service });
    expect(hpa.spec.metrics.map((m: Manifest) => m.resource?.name)).toEqual(['cpu']);
    expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    expect(deployment.spec.replicas).toBeUndefined();
    const pdb = find(objects, 'PodDisruptionBudget', service);
    expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
  });

  it.each(CONSUMERS)('%s: scales up to the partition count of the events topic, no further', (service) => {
    expect(find(objects, 'HorizontalPodAutoscaler', service).spec.maxReplicas).toBe(
      topics.eventsAccepted.partitions,
    );
  });

  it('all run the same image, which the migration Job runs too', () => {
    const images = [
      ...SERVICES.map((s) => find(objects, 'Deployment', s)),
      find(objects, 'Job', 'engage-migrate'),
    ].map((workload) => containerOf(workload).image);
    expect(new Set(images).size).toBe(1);
    expect(images[0]).toMatch(/^[^:]+:[\w.-]+$/);
  });

  it('the migration Job gets its database and Kafka settings from the services’ configuration', () => {
    const job = find(objects, 'Job', 'engage-migrate');
    const container = containerOf(job);
    expect(container.command).toEqual(['node', 'libs/devstack/src/cli/migrate.ts']);
    const environment = resolveEnvironment(objects, container);
    const kafkaSecurity = [
      'KAFKA_SASL_MECHANISM',
      'KAFKA_SASL_PASSWORD',
      'KAFKA_SASL_PASSWORD_FILE',
      'KAFKA_SASL_USERNAME',
      'KAFKA_SECURITY_PROTOCOL',
      'KAFKA_SSL_CA_FILE',
      'KAFKA_SSL_CERT_FILE',
      'KAFKA_SSL_KEY_FILE',
    ];
    expect([...environment.keys()].sort()).toEqual(
      ['DATABASE_URL', 'KAFKA_BROKERS', 'KAFKA_TOPIC_PREFIX', ...kafkaSecurity].sort(),
    );
    // It logs in as its own KafkaUser, with everything else as the services do.
    expect(environment.get('KAFKA_SASL_USERNAME')).toEqual({ from: 'value', value: 'engage-migrate' });
    const gatewayEnv = resolveEnvironment(objects, containerOf(find(objects, 'Deployment', 'gateway')));
    for (const [key, source] of environment)
      if (key !== 'KAFKA_SASL_USERNAME') expect(source).toEqual(gatewayEnv.get(key));
  });

  it.each([
    ...SERVICES.map((s) => ['Deployment', s, `engage-${s}`]),
    ['Job', 'engage-migrate', 'engage-migrate'],
  ])(
    '%s %s logs in to Kafka as the KafkaUser %s, with its Secret and the cluster CA mounted',
    (kind, name, user) => {
      const workload = find(objects, kind, name);
      const container = containerOf(workload);
      const environment = resolveEnvironment(objects, container);
      const value = (key: string) => (environment.get(key) as { value: string }).value;
      expect([value('KAFKA_SECURITY_PROTOCOL'), value('KAFKA_SASL_USERNAME')]).toEqual(['SASL_SSL', user]);
      const volumes = new Map(
        (workload.spec.template.spec.volumes as Manifest[]).map((v) => [v.name as string, v]),
      );
      const fileFrom = (path: string) => {
        const mount = (container.volumeMounts as Manifest[]).find((m) => path.startsWith(`${m.mountPath}/`))!;
        const secret = volumes.get(mount.name)!.secret as Manifest;
        const item = (secret.items as Manifest[]).find((i) => `${mount.mountPath}/${i.path}` === path)!;
        return `${secret.secretName}/${item.key}`;
      };
      expect(fileFrom(value('KAFKA_SASL_PASSWORD_FILE'))).toBe(`${user}/password`);
      expect(fileFrom(value('KAFKA_SSL_CA_FILE'))).toBe('engage-cluster-ca-cert/ca.crt');
    },
  );

  it('the gateway finds the services at their Services', () => {
    const environment = resolveEnvironment(objects, containerOf(find(objects, 'Deployment', 'gateway')));
    for (const service of ['rules', 'ledger', 'query']) {
      const url = new URL((environment.get(`${service.toUpperCase()}_URL`) as { value: string }).value);
      expect(url.hostname).toBe(service);
      expect(Number(url.port)).toBe(find(objects, 'Service', service).spec.ports[0].port);
    }
  });

  it('the control plane finds the gateway and the owners at their Services', () => {
    const environment = resolveEnvironment(
      objects,
      containerOf(find(objects, 'Deployment', 'control-plane')),
    );
    for (const service of ['gateway', 'rules', 'ledger', 'query']) {
      const url = new URL((environment.get(`${service.toUpperCase()}_URL`) as { value: string }).value);
      expect(url.hostname).toBe(service);
      expect(Number(url.port)).toBe(find(objects, 'Service', service).spec.ports[0].port);
    }
  });

  it('only the gateway’s and the control plane’s APIs accept traffic from outside; the owners’ only from them; Prometheus reaches metrics ports only', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'engage-default-deny');
    expect(deny?.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny?.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/part-of': 'engage' });
    const ingressRulesOf = (service: string) =>
      policies
        .filter(
          (p) =>
            p.spec.policyTypes.includes('Ingress') &&
            p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === service,
        )
        .flatMap((p) => p.spec.ingress ?? []);
    const monitoring = {
      from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      ports: [{ port: 'metrics', protocol: 'TCP' }],
    };
    expect(ingressRulesOf('gateway')).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }] }, monitoring]);
    expect(ingressRulesOf('control-plane')).toEqual([
      { ports: [{ port: 'http', protocol: 'TCP' }] },
      monitoring,
    ]);
    for (const service of ['rules', 'ledger', 'query']) {
      expect(ingressRulesOf(service)).toEqual([
        {
          from: [
            {
              podSelector: {
                matchExpressions: [
                  { key: 'app.kubernetes.io/name', operator: 'In', values: ['gateway', 'control-plane'] },
                ],
                matchLabels: { 'app.kubernetes.io/part-of': 'engage' },
              },
            },
          ],
          ports: [{ port: 'http', protocol: 'TCP' }],
        },
        monitoring,
      ]);
    }
  });

  it('lets every engage pod reach DNS, Postgres, Redis and Kafka', () => {
    const egress = find(objects, 'NetworkPolicy', 'engage-egress');
    expect(egress.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/part-of': 'engage' });
    const ports = egress.spec.egress.flatMap((rule: Manifest) => rule.ports.map((p: Manifest) => p.port));
    expect(ports).toEqual(expect.arrayContaining([53, 5432, 6379, 9093]));
  });
});

describe('k8s/overlays/prod: Ingresses', () => {
  const ingresses = ofKind(objectsOf('overlays/prod'), 'Ingress');
  const routesOf = (name: string) => {
    const ingress = find(ingresses, 'Ingress', name);
    return ingress.spec.rules.flatMap((rule: Manifest) =>
      rule.http.paths.map((p: Manifest) => ({
        host: rule.host,
        path: p.path,
        pathType: p.pathType,
        backend: `${p.backend.service.name}:${p.backend.service.port.name}`,
      })),
    );
  };

  it('the public host routes /v1 and the OpenAPI document to the gateway’s API port, nothing else', () => {
    expect(routesOf('gateway')).toEqual([
      { host: 'api.engage.example.com', path: '/v1', pathType: 'Prefix', backend: 'gateway:http' },
      { host: 'api.engage.example.com', path: '/openapi.json', pathType: 'Exact', backend: 'gateway:http' },
    ]);
  });

  it('the admin API and the console have a host of their own, to the control plane, narrowed to a source range', () => {
    const admin = routesOf('control-plane-admin');
    expect(admin).toEqual([
      {
        host: 'admin.engage.example.com',
        path: '/admin/v1',
        pathType: 'Prefix',
        backend: 'control-plane:http',
      },
      {
        host: 'admin.engage.example.com',
        path: '/console',
        pathType: 'Prefix',
        backend: 'control-plane:http',
      },
    ]);
    expect(routesOf('gateway').map((r: Manifest) => r.host)).not.toContain(admin[0].host);
    expect(
      find(ingresses, 'Ingress', 'control-plane-admin').metadata.annotations[
        'nginx.ingress.kubernetes.io/whitelist-source-range'
      ],
    ).toBeTruthy();
  });

  it('no Ingress reaches a metrics port, the root path or another service', () => {
    expect(ingresses.map((i) => i.metadata.name).sort()).toEqual(['control-plane-admin', 'gateway']);
    for (const route of routesOf('gateway')) expect(route.backend).toBe('gateway:http');
    for (const route of routesOf('control-plane-admin')) expect(route.backend).toBe('control-plane:http');
    const all = [...routesOf('gateway'), ...routesOf('control-plane-admin')];
    for (const route of all) {
      expect(['/', '/metrics', '/admin']).not.toContain(route.path);
    }
  });
});

const prefixOf = (appOverlay: string): string => {
  const app = objectsOf(appOverlay);
  const prefix = resolveEnvironment(app, containerOf(find(app, 'Deployment', 'gateway'))).get(
    'KAFKA_TOPIC_PREFIX',
  ) as { value: string };
  return prefix.value;
};

/** A KafkaUser's ACLs as `type name operation` lines, sorted: one per permission granted. */
const permissionsOf = (user: Manifest): string[] =>
  user.spec.authorization.acls
    .flatMap((acl: Manifest) =>
      acl.operations.map(
        (operation: string) =>
          `${acl.type ?? 'allow'} ${acl.resource.type} ${acl.resource.patternType} ${acl.resource.name} ${operation}`,
      ),
    )
    .sort();

/** What a service's code does on Kafka, as the permissions it needs and nothing more. */
function permissionsNeededBy(service: string, prefix: string): string[] {
  const access = kafkaAccessOf(service, prefix);
  const topic = (id: keyof typeof topics) => topicName(topics[id], prefix);
  return [
    ...access.consumes.flatMap(({ topic: id, group }) => [
      `allow topic literal ${topic(id)} Read`,
      `allow topic literal ${topic(id)} Describe`,
      `allow group literal ${group} Read`,
    ]),
    ...access.reads.flatMap(({ topic: id, groupPrefix }) => [
      `allow topic literal ${topic(id)} Read`,
      `allow topic literal ${topic(id)} Describe`,
      `allow group prefix ${groupPrefix} Read`,
    ]),
    ...access.produces.flatMap((id) => [
      `allow topic literal ${topic(id)} Write`,
      `allow topic literal ${topic(id)} Describe`,
    ]),
  ]
    .filter((permission, i, all) => all.indexOf(permission) === i)
    .sort();
}

describe('Strimzi users', () => {
  const cases = [
    { usersOverlay: 'overlays/dev', appOverlay: 'overlays/dev' },
    { usersOverlay: 'overlays/prod/topics', appOverlay: 'overlays/prod' },
  ];

  it('each service’s Kafka use is found in its code (consumer groups, topics it produces)', () => {
    const found = Object.fromEntries(SERVICES.map((s) => [s, kafkaAccessOf(s, 'engage.')]));
    expect(found.gateway?.consumes).toEqual([]);
    expect(found.gateway?.produces.sort()).toEqual(['eventsAccepted', 'playersAttributes']);
    // The webhook groups keep the names they had in the gateway, and so their committed offsets.
    expect(found['control-plane']?.consumes).toEqual([
      { topic: 'rulesProgress', group: 'engage-gateway-webhooks-progress' },
      { topic: 'pointsJournal', group: 'engage-gateway-webhooks-journal' },
      { topic: 'shopPurchases', group: 'engage-gateway-webhooks-purchases' },
      { topic: 'leaderboardsSettled', group: 'engage-gateway-webhooks-settled' },
    ]);
    expect(found.gateway?.reads).toEqual([
      { topic: 'apiKeysState', groupPrefix: 'engage-gateway-views-' },
      { topic: 'organizationsState', groupPrefix: 'engage-gateway-views-' },
      { topic: 'definitionsApplied', groupPrefix: 'engage-gateway-views-' },
    ]);
    expect(found.gateway?.produces.sort()).toEqual(['eventsAccepted', 'playersAttributes']);
    expect(found['control-plane']?.produces.sort()).toEqual(
      ['apiKeys', 'apiKeysState', 'definitionsApplied', 'organizationsState'].sort(),
    );
    for (const service of ['rules', 'ledger', 'query']) {
      expect(found[service]?.consumes.map((c) => c.group)).toEqual([`engage-${service}`]);
      expect(found[service]?.produces.length).toBeGreaterThan(0);
    }
  });

  it.each(cases)(
    '$usersOverlay: a KafkaUser per service allowed exactly what its code does on Kafka',
    ({ usersOverlay, appOverlay }) => {
      const prefix = prefixOf(appOverlay);
      const users = ofKind(objectsOf(usersOverlay), 'KafkaUser');
      for (const service of SERVICES) {
        const user = find(users, 'KafkaUser', `engage-${service}`);
        expect(permissionsOf(user)).toEqual(permissionsNeededBy(service, prefix));
      }
    },
  );

  it.each(cases)(
    '$usersOverlay: the migration Job may create, describe and grow the catalog’s topics, nothing else',
    ({ usersOverlay, appOverlay }) => {
      const prefix = prefixOf(appOverlay);
      const users = ofKind(objectsOf(usersOverlay), 'KafkaUser');
      expect(users.map((u) => u.metadata.name).sort()).toEqual(
        ['engage-migrate', ...SERVICES.map((s) => `engage-${s}`)].sort(),
      );
      expect(permissionsOf(find(users, 'KafkaUser', 'engage-migrate'))).toEqual(
        allTopics()
          .flatMap((def) =>
            ['Create', 'Describe', 'Alter'].map(
              (operation) => `allow topic literal ${topicName(def, prefix)} ${operation}`,
            ),
          )
          .sort(),
      );
    },
  );

  it('every user authenticates, and the User Operator of the topics’ cluster manages it', () => {
    const topicCluster = ofKind(objectsOf('overlays/prod/topics'), 'KafkaTopic')[0]?.metadata.labels[
      'strimzi.io/cluster'
    ];
    for (const user of ofKind(objectsOf('overlays/prod/topics'), 'KafkaUser')) {
      expect(user.spec.authentication.type).toBe('scram-sha-512');
      expect(user.metadata.labels['strimzi.io/cluster']).toBe(topicCluster);
      expect(user.metadata.namespace).toBe('kafka');
    }
  });
});

describe('Strimzi topics', () => {
  const cases = [
    { topicsOverlay: 'overlays/dev', appOverlay: 'overlays/dev' },
    { topicsOverlay: 'overlays/prod/topics', appOverlay: 'overlays/prod' },
  ];

  it.each(cases)(
    '$topicsOverlay: one KafkaTopic per catalog topic, with its partitions and settings',
    ({ topicsOverlay, appOverlay }) => {
      const app = objectsOf(appOverlay);
      const prefix = (
        resolveEnvironment(app, containerOf(find(app, 'Deployment', 'gateway'))).get(
          'KAFKA_TOPIC_PREFIX',
        ) as {
          value: string;
        }
      ).value;
      const kafkaTopics = ofKind(objectsOf(topicsOverlay), 'KafkaTopic');
      expect(kafkaTopics.map((t) => t.spec.topicName).sort()).toEqual(
        allTopics()
          .map((t) => `${prefix}${t.base}`)
          .sort(),
      );
      for (const def of allTopics()) {
        const topic = kafkaTopics.find((t) => t.spec.topicName === `${prefix}${def.base}`);
        expect(topic?.spec.partitions).toBe(def.partitions);
        expect(topic?.spec.config).toMatchObject(def.config);
        expect(Number(topic?.spec.config['min.insync.replicas'])).toBeLessThanOrEqual(topic?.spec.replicas);
      }
    },
  );

  it('production keeps three replicas of each topic, two in sync', () => {
    for (const topic of ofKind(objectsOf('overlays/prod/topics'), 'KafkaTopic')) {
      expect(topic.spec.replicas).toBe(3);
      expect(topic.spec.config['min.insync.replicas']).toBe('2');
    }
  });
});
