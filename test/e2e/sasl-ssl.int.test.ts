import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BrokerCertificates,
  makeBrokerCertificates,
  type PrivateKafka,
  startPrivateKafka,
} from '@engage/devstack';
import {
  createTenant,
  eventually,
  serviceEnv,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type TestStack,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD, loadDefinition, PLAY, REWARD_MISSIONS, TALLY_MISSIONS } from './support/keyed-load.ts';

/**
 * The whole pipeline on a broker whose only client listener is SASL_SSL, with certificates this
 * test makes: all four services connect over TLS with the test's CA and log in with SCRAM (the
 * gateway's producer with SCRAM-SHA-256, the others with SCRAM-SHA-512 and a password file). An
 * event goes in; mission progress, reward points and the board score come out. A wrong password and
 * an untrusted CA stop a service at start with the cause in its log.
 */

const USER = { username: 'engage', password: 'correct-horse-battery-staple' };
/** How long a service may take to give up on a configuration that cannot work. */
const FAIL_FAST_MS = 30_000;

const dir = mkdtempSync(join(tmpdir(), 'engage-sasl-ssl-'));
let certificates: BrokerCertificates;
let untrusted: BrokerCertificates;
let broker: PrivateKafka | undefined;
let stack: TestStack | undefined;
let securedEnv: Record<string, string>;

beforeAll(async () => {
  [certificates, untrusted] = await Promise.all([
    makeBrokerCertificates(join(dir, 'trusted')),
    makeBrokerCertificates(join(dir, 'untrusted')),
  ]);
  broker = await startPrivateKafka({ saslSsl: { certificates, users: [USER] } });
  const passwordFile = join(dir, 'password');
  // As a mounted Kubernetes secret often is: with a trailing newline.
  writeFileSync(passwordFile, `${USER.password}\n`);
  securedEnv = {
    KAFKA_BROKERS: broker.brokers.join(','),
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SSL_CA_FILE: certificates.caFile,
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    KAFKA_SASL_USERNAME: USER.username,
    KAFKA_SASL_PASSWORD_FILE: passwordFile,
  };
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await broker?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('Kafka over SASL_SSL', () => {
  it('runs an event through all four services to missions, points and the board', async () => {
    stack = await startStack({
      brokers: broker!.brokers,
      security: broker!.security,
      env: securedEnv,
      serviceEnv: {
        gateway: {
          KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256',
          KAFKA_SASL_PASSWORD_FILE: '',
          KAFKA_SASL_PASSWORD: USER.password,
        },
      },
    });
    const running = stack;
    const tenant = await createTenant(running.gatewayUrl, TEST_ADMIN_TOKEN, {
      definition: loadDefinition(5),
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${tenant.sandbox.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const playerId = 'secured-1';
    expect((await call('POST', '/v1/missions', { playerId })).status).toBe(200);

    const firstSteps = REWARD_MISSIONS[0];
    const events = Array.from({ length: firstSteps.target }, (_, i) => ({
      eventKey: PLAY,
      playerId,
      properties: { value: i + 1 },
    }));
    const accepted = await call('POST', '/v1/events', { events });
    expect(accepted).toMatchObject({ status: 200, body: { accepted: events.length, rejected: 0 } });
    const score = events.reduce((sum, e) => sum + e.properties.value, 0);

    const missions = await eventually(
      'the rules service to apply the events',
      async () => {
        const { body } = await call('POST', '/v1/missions', { playerId });
        const byKey = new Map((body as Mission[]).map((m) => [m.missionKey, m]));
        return byKey.get(firstSteps.key)?.status === 'Completed' ? byKey : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(missions.get(TALLY_MISSIONS.count)?.objectives[0]?.progress.actual).toBe(events.length);
    expect(missions.get(TALLY_MISSIONS.sum)?.objectives[0]?.progress.actual).toBe(score);

    // The mission's reward went rules → Kafka → ledger.
    const points = await eventually(
      'the ledger to credit the reward',
      async () => {
        const { body } = await call('GET', `/v1/points?PlayerId=${playerId}`);
        return (body as { balance: number }).balance > 0 ? body : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(points).toMatchObject({ playerId, balance: firstSteps.points });

    const board = await eventually(
      'the query service to score the events',
      async () => {
        const { body } = await call('GET', `/v1/leaderboards/${BOARD}?PlayerId=${playerId}`);
        return (body as Board).leaderboard?.me ? (body as Board) : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(board.leaderboard?.me?.score).toBe(score);
    for (const service of Object.values(running.services))
      expect(service.logs()).not.toMatch(/"level":(50|60)/);
  }, 300_000);

  it('stops a consuming service at start with the cause when its password is wrong', async () => {
    const { code, elapsedMs, output } = await startAndWaitForExit('rules', {
      ...securedEnv,
      KAFKA_SASL_PASSWORD_FILE: '',
      KAFKA_SASL_PASSWORD: 'not-the-password',
    });
    expect({ code, inTime: elapsedMs < FAIL_FAST_MS }).toEqual({ code: 1, inTime: true });
    expect(output).toContain('Kafka refused the SASL login of user engage with SCRAM-SHA-512');
  });

  it("stops the gateway at start with the cause when the CA did not sign the broker's certificate", async () => {
    const { code, elapsedMs, output } = await startAndWaitForExit('gateway', {
      ...securedEnv,
      KAFKA_SSL_CA_FILE: untrusted.caFile,
    });
    expect({ code, inTime: elapsedMs < FAIL_FAST_MS }).toEqual({ code: 1, inTime: true });
    expect(output).toContain(
      "the Kafka broker's TLS certificate does not verify against the CA in KAFKA_SSL_CA_FILE",
    );
  });

  it('refuses a SASL protocol without a mechanism before connecting', async () => {
    const { code, output } = await startAndWaitForExit('ledger', { ...securedEnv, KAFKA_SASL_MECHANISM: '' });
    expect(code).toBe(78);
    expect(output).toContain('KAFKA_SASL_MECHANISM: is required with SASL_SSL');
  });
});

/** Runs one service process until it exits on its own (it is killed after FAIL_FAST_MS * 2). */
async function startAndWaitForExit(service: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [join(stackConfig().repoRoot, 'services', service, 'src', 'main.ts')],
    {
      cwd: stackConfig().repoRoot,
      env: {
        ...process.env,
        ...serviceEnv(uniqueTopicPrefix(), env),
        LOG_LEVEL: 'info',
        PORT: '0',
        METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = Date.now();
  const killer = setTimeout(() => child.kill('SIGKILL'), FAIL_FAST_MS * 2);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, elapsedMs: Date.now() - started, output };
}

interface Mission {
  missionKey: string;
  status: string;
  objectives: { progress: { actual: number } }[];
}

interface Board {
  leaderboard?: { me: { score: number } | null };
}
