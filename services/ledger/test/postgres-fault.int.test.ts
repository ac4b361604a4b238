import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { EnvironmentContext } from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import { fetchAsGateway, internalHeaders, randomEnvironment, type ServiceProcess } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import {
  callLedger,
  type HttpAnswer,
  type LedgerProcess,
  startLedgerProcess,
} from './support/ledger-process.ts';
import { seededRandom, testSeed } from './support/seeded-random.ts';

type Request =
  | { kind: 'adjust'; playerId: string; amount: number; idempotencyKey: string }
  | { kind: 'buy'; playerId: string; itemKey: string; idempotencyKey: string };

const GEM_STOCK = 40;
const PRICES: Record<string, number> = { gem: 7, coin: 2 };

let ledger: LedgerProcess;
let service: ServiceProcess;
let pool: Pool;

beforeAll(async () => {
  ledger = await startLedgerProcess({ poolSize: 2 });
  service = ledger.service;
  pool = ledger.pool;
});

afterAll(async () => {
  await ledger?.stop();
});

/** The local ports of the process's TCP connections to Postgres (port 5432), from /proc. */
function postgresClientPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const [, local, remote] = fields;
      if (inodes.has(fields[9]!) && remote!.endsWith(':1538'))
        ports.push(Number.parseInt(local!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** Terminates every Postgres backend serving the ledger process, whatever it was doing. */
async function terminateLedgerConnections(): Promise<number> {
  const ports = postgresClientPorts(service.pid()!);
  const { rows } = await pool.query<{ terminated: boolean }>(
    `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
     WHERE datname = current_database() AND client_port = ANY($1)`,
    [ports],
  );
  return rows.filter((r) => r.terminated).length;
}

async function send(env: EnvironmentContext, request: Request): Promise<HttpAnswer> {
  const path =
    request.kind === 'adjust'
      ? '/v1/points/adjustments'
      : `/v1/marketplace-items/${request.itemKey}/purchases`;
  const body =
    request.kind === 'adjust'
      ? { playerId: request.playerId, amount: request.amount, idempotencyKey: request.idempotencyKey }
      : { playerId: request.playerId, idempotencyKey: request.idempotencyKey };
  const answer = await callLedger(service, { method: 'POST', path, env, playerId: request.playerId, body });
  if (answer === 'unknown') throw new Error(`no answer to ${path}`);
  return answer;
}

describe("the ledger's Postgres connections terminated under load", () => {
  it('charges nothing twice, replays every completed key, oversells nothing and recovers without a restart', async () => {
    const random = seededRandom(testSeed('ledger postgres fault'));
    const env = randomEnvironment();
    const putShop = await fetchAsGateway(
      `${service.url}/internal/v1/environments/${env.environmentId}/definition/marketplace`,
      {
        method: 'PUT',
        headers: internalHeaders(env),
        body: {
          items: [
            { key: 'gem', name: 'Gem', priceInPoints: PRICES.gem, stock: GEM_STOCK },
            { key: 'coin', name: 'Coin', priceInPoints: PRICES.coin },
          ],
          collections: [],
        },
      },
    );
    expect(putShop.status).toBe(200);
    const players = ['a', 'b', 'c', 'd'].map((p) => `${p}-${crypto.randomUUID()}`);
    const requests: Request[] = [
      ...players.map((playerId) => ({
        kind: 'adjust' as const,
        playerId,
        amount: 150,
        idempotencyKey: 'opening',
      })),
      ...Array.from({ length: 280 }, (_, i): Request => {
        const playerId = players[i % players.length]!;
        const idempotencyKey = `op-${i}`;
        const roll = random();
        if (roll < 0.4)
          return { kind: 'buy', playerId, itemKey: roll < 0.25 ? 'gem' : 'coin', idempotencyKey };
        const amount = roll < 0.7 ? -(1 + Math.floor(random() * 20)) : 1 + Math.floor(random() * 20);
        return { kind: 'adjust', playerId, amount, idempotencyKey };
      }),
    ];

    // Eight clients send the requests in order; after 60, 130 and 200 answers every connection of the
    // ledger to Postgres is terminated, with transactions in flight.
    const first: HttpAnswer[] = new Array(requests.length);
    const terminateAfter = [60, 130, 200];
    let terminated = 0;
    let answered = 0;
    let next = 0;
    const client = async () => {
      while (next < requests.length) {
        const i = next++;
        first[i] = await send(env, requests[i]!);
        answered++;
        if (answered >= (terminateAfter[0] ?? Number.POSITIVE_INFINITY)) {
          terminateAfter.shift();
          terminated += await terminateLedgerConnections();
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client)).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${service.logs().slice(-3000)}`);
    });
    expect(terminateAfter).toEqual([]);
    expect(terminated).toBeGreaterThan(0);
    const failed = first.filter((a) => a.status >= 500).length;
    process.stdout.write(
      `[ledger postgres fault] ${terminated} backends terminated, ${failed} of ${requests.length} first answers were 5xx\n`,
    );

    // The same process, never restarted: every request again with its key.
    const retried = await Promise.all(requests.map((request) => send(env, request)));
    for (const [i, answer] of retried.entries()) {
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
      expect(String(answer.body.code ?? '')).not.toMatch(/idempotency_key_conflict/);
      if (first[i]!.status < 500 && first[i]!.body.code !== 'points.concurrent_update') {
        expect(answer).toEqual(first[i]);
      }
    }
    expect(await Promise.all(requests.map((request) => send(env, request)))).toEqual(retried);

    // Exactly the answered effects: journal, balances, units sold.
    await expectLedgerInvariants(pool, env.environmentId);
    const journal = await journalOf(pool, env.environmentId);
    const succeeded = retried.filter((a) => a.status === 200);
    expect(new Set(journal.map((e) => e.entryId))).toEqual(
      new Set(succeeded.map((a) => a.body.transactionId as string)),
    );
    for (const playerId of players) {
      const expected = requests.reduce((sum, request, i) => {
        if (request.playerId !== playerId || retried[i]!.status !== 200) return sum;
        return sum + (request.kind === 'adjust' ? request.amount : -PRICES[request.itemKey]!);
      }, 0);
      expect(await storedBalance(pool, env.environmentId, playerId)).toBe(expected);
    }
    const gemsBought = requests.filter(
      (r, i) => r.kind === 'buy' && r.itemKey === 'gem' && retried[i]!.status === 200,
    );
    const { rows: sales } = await pool.query<{ sold: number }>(
      `SELECT sold FROM item_sales WHERE environment_id = $1 AND item_key = 'gem'`,
      [env.environmentId],
    );
    expect(sales[0]?.sold ?? 0).toBe(gemsBought.length);
    expect(gemsBought.length).toBeLessThanOrEqual(GEM_STOCK);
  });
});
