import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import {
  createTenant,
  eventually,
  serviceEnv,
  stackConfig,
  TEST_ADMIN_TOKEN,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { expect } from 'vitest';
import { BOARD, loadDefinition, PLAY, REWARD_MISSIONS, TALLY_MISSIONS } from './keyed-load.ts';

interface Mission {
  missionKey: string;
  status: string;
  objectives: { progress: { actual: number } }[];
}

interface Board {
  leaderboard?: { me: { score: number } | null };
}

const WAIT = { timeoutMs: 60_000, intervalMs: 250 };

/**
 * One new tenant and one player's events through the gateway, then what each service made of them:
 * the missions' progress (rules), the first mission's reward in points (rules → Kafka → ledger) and
 * the board's score (query).
 */
export async function walkOnePlayer(
  stack: { gatewayUrl: string; controlPlaneUrl: string },
  playerId: string,
): Promise<void> {
  const { gatewayUrl } = stack;
  const tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: loadDefinition(5),
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${tenant.sandbox.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
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
    WAIT,
  );
  expect(missions.get(TALLY_MISSIONS.count)?.objectives[0]?.progress.actual).toBe(events.length);
  expect(missions.get(TALLY_MISSIONS.sum)?.objectives[0]?.progress.actual).toBe(score);

  const points = await eventually(
    'the ledger to credit the reward',
    async () => {
      const { body } = await call('GET', `/v1/points?PlayerId=${playerId}`);
      return (body as { balance: number }).balance > 0 ? body : undefined;
    },
    WAIT,
  );
  expect(points).toMatchObject({ playerId, balance: firstSteps.points });

  const board = await eventually(
    'the query service to score the events',
    async () => {
      const { body } = await call('GET', `/v1/leaderboards/${BOARD}?PlayerId=${playerId}`);
      return (body as Board).leaderboard?.me ? (body as Board) : undefined;
    },
    WAIT,
  );
  expect(board.leaderboard?.me?.score).toBe(score);
}

/**
 * Runs one service process with a test stack's environment until it exits on its own (it is killed
 * after `killAfterMs`): for a service expected to refuse to start.
 */
export async function startAndWaitForExit(
  service: string,
  env: Record<string, string>,
  killAfterMs: number,
): Promise<{ code: number | null; elapsedMs: number; output: string }> {
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
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, elapsedMs: Date.now() - started, output };
}
