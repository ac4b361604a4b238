// `npm start`: the whole stack on this machine — Kafka, Postgres and Redis found or started,
// schemas migrated, topics created, the five services running, a demo tenant and its Sandbox key.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildConsole, consoleBuildIsStale } from '@engage/console/build.ts';
import { findRepoRoot } from '../kafka/paths.ts';
import {
  devAdminToken,
  devDemoOwnerPassword,
  devInternalAuthSecret,
  readJsonState,
  writeJsonState,
} from '../stack/dev-secrets.ts';
import { createCatalogTopics, ensureInfra, migrateAll } from '../stack/infra.ts';
import { SERVICES, serviceEntry, stackPort, urlVariable } from '../stack/services.ts';
import { type SupervisedProcess, startSupervised, stopSupervised } from '../stack/supervisor.ts';
import { printProcessWarnings } from './warnings.ts';

printProcessWarnings();

interface DemoTenant {
  ownerEmail?: string;
  organizationId: string;
  projectId: string;
  sandboxEnvironmentId: string;
  liveEnvironmentId: string;
  sandboxKey: string;
  liveKey: string;
}

const say = (line: string) => process.stdout.write(`[stack] ${line}\n`);
const repoRoot = findRepoRoot();
const topicPrefix = process.env.KAFKA_TOPIC_PREFIX ?? 'engage.';
const running: SupervisedProcess[] = [];
let stopping = false;

async function main() {
  const infra = await ensureInfra({ log: say });
  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    say(`${reason}: stopping services`);
    await stopSupervised(running);
    if (infra.kafka.startedHere) {
      say('stopping Kafka');
      await infra.kafka.stop();
    }
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('Ctrl-C', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));

  say('migrating schemas');
  await migrateAll(repoRoot, infra.databaseUrl);
  await createCatalogTopics(infra.brokers, topicPrefix, { security: infra.security });

  const adminToken = devAdminToken(repoRoot);
  const env: Record<string, string> = {
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    KAFKA_BROKERS: infra.brokers.join(','),
    KAFKA_TOPIC_PREFIX: topicPrefix,
    ADMIN_TOKEN: adminToken,
    INTERNAL_AUTH_SECRET: devInternalAuthSecret(repoRoot),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    HOST: process.env.HOST ?? '127.0.0.1',
    // Webhook endpoints on this machine (http://127.0.0.1:…) are accepted in development.
    WEBHOOK_ALLOW_INSECURE_URLS: process.env.WEBHOOK_ALLOW_INSECURE_URLS ?? 'true',
  };
  for (const service of SERVICES) env[urlVariable(service.name)] = localUrl(stackPort(service));

  const owners = SERVICES.filter((s) => s.name !== 'gateway' && s.name !== 'control-plane');
  const gateway = SERVICES.find((s) => s.name === 'gateway')!;
  const controlPlane = SERVICES.find((s) => s.name === 'control-plane')!;
  if (consoleBuildIsStale()) {
    say('building the console (its sources are newer than its build)');
    buildConsole();
  }
  say('starting services');
  const start = (s: (typeof SERVICES)[number], i: number) =>
    startSupervised({
      name: s.name,
      entry: serviceEntry(repoRoot, s.name),
      port: stackPort(s),
      env,
      cwd: repoRoot,
      colorIndex: i,
    });
  running.push(...(await Promise.all(owners.map(start))));
  running.push(
    ...(await Promise.all([start(gateway, owners.length), start(controlPlane, owners.length + 1)])),
  );
  for (const p of running) {
    p.child.once('exit', (code) => void shutdown(`${p.name} exited (code ${code})`, 1));
  }

  const urls = { gateway: localUrl(stackPort(gateway)), controlPlane: localUrl(stackPort(controlPlane)) };
  const demo = await demoTenant(urls, adminToken);
  banner(urls, adminToken, demo);
}

const localUrl = (port: number) => `http://127.0.0.1:${port}`;

/**
 * Reuses the demo tenant from an earlier start when its key still works (applying the demo
 * environment file again, so a changed file reaches it); provisions it otherwise.
 */
async function demoTenant(
  urls: { gateway: string; controlPlane: string },
  adminToken: string,
): Promise<DemoTenant> {
  const state = readJsonState<DemoTenant>(repoRoot, 'demo.json');
  // A tenant kept from before operators or the demo file existed is provisioned again: that adds
  // its Owner and records its environments.
  const known =
    state?.ownerEmail && state.sandboxEnvironmentId && (await keyWorks(urls.gateway, state.sandboxKey))
      ? state
      : undefined;
  say(known ? 'applying the demo environment file' : 'provisioning the demo organization');
  const result = spawnSync(
    process.execPath,
    [join(repoRoot, 'services/control-plane/src/tools/provision-demo.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ENGAGE_URL: urls.controlPlane,
        ENGAGE_ADMIN_TOKEN: adminToken,
        ENGAGE_DEMO_OWNER_PASSWORD: devDemoOwnerPassword(repoRoot),
        ...(known ? { ENGAGE_DEMO_TENANT: JSON.stringify(known) } : {}),
      },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`demo provisioning failed:\n${result.stderr}`);
  const demo = JSON.parse(result.stdout) as DemoTenant;
  writeJsonState(repoRoot, 'demo.json', demo);
  return demo;
}

async function keyWorks(url: string, key: string): Promise<boolean> {
  const res = await fetch(`${url}/v1/points?PlayerId=demo-player`, { headers: { authorization: key } });
  return res.ok;
}

function banner(urls: { gateway: string; controlPlane: string }, adminToken: string, demo: DemoTenant) {
  const url = urls.gateway;
  const admin = urls.controlPlane;
  process.stdout.write(`
  engage is running: gateway ${url}  (OpenAPI: ${admin}/openapi.json)
  Control plane:     ${admin}  (the admin API, /admin/v1)
  Console:           ${admin}/console/

  Demo Sandbox key:  ${demo.sandboxKey}
  Demo environment:  ${demo.sandboxEnvironmentId}   (Sandbox; defined by docs/examples/environment.yaml)
  Admin token:       ${adminToken}   (for the engage CLI: ENGAGE_ADMIN_TOKEN)
  Console sign-in:   ${demo.ownerEmail}  password ${devDemoOwnerPassword(repoRoot)}
                     (Owner of the Demo organization: POST ${admin}/admin/v1/session)

  Try it (README.md, "Try it"): a mission completed, its points arrived:
    KEY='${demo.sandboxKey}'
    curl -s ${url}/v1/missions -H "Authorization: $KEY" -H 'Content-Type: application/json' \\
      -d '{"playerId":"player-1"}'
    curl -s ${url}/v1/events -H "Authorization: $KEY" -H 'Content-Type: application/json' \\
      -d '{"events":[{"eventKey":"level_completed","playerId":"player-1","properties":{"level":1,"score":1200}}]}'
    curl -s '${url}/v1/points?PlayerId=player-1' -H "Authorization: $KEY"

  Ctrl-C stops everything.
`);
}

main().catch(async (err) => {
  process.stderr.write(`[stack] ${(err as Error).message}\n`);
  await stopSupervised(running);
  process.exit(1);
});
