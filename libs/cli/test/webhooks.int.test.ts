import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  createTenant,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `engage webhooks …` against a real gateway and a loopback receiver: create (the secret printed
 * once), list, ping and see it delivered, replay it, pause and resume, change, rotate the secret,
 * delete; refusals exit non-zero with the gateway's answer.
 */

let stack: TestStack;
let tenant: Tenant;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // The gateway and the control plane (with their topics: it consumes the changes webhooks are made of).
  stack = await startStack({
    services: ['gateway'],
    webhooks: true,
    serviceEnv: { 'control-plane': { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' } },
  });
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Runs the `engage` binary as a script would. */
function engage(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const main = join(stackConfig().repoRoot, 'libs', 'cli', 'src', 'main.ts');
  const child = spawn(process.execPath, [main, '--url', stack.controlPlaneUrl, ...args], {
    env: { ...withoutEnvironment(process.env), ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

function withoutEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ENGAGE_ENVIRONMENT_ID: _, ...rest } = env;
  return rest;
}

/** The command's JSON output, once it exited 0. */
async function engageJson<T = Record<string, unknown>>(args: string[]): Promise<T> {
  const run = await engage(args);
  expect(run, run.err).toMatchObject({ code: 0 });
  return JSON.parse(run.out) as T;
}

describe('engage webhooks', () => {
  let webhookId: string;
  let secret: string;

  it('creates an endpoint, printing its secret once, and lists it as a table and as JSON', async () => {
    const created = await engageJson([
      'webhooks',
      'create',
      '-e',
      tenant.sandbox.environmentId,
      '--endpoint-url',
      receiverUrl,
      '--events',
      'mission.completed',
      'points.adjusted',
      '--description',
      'From the CLI',
    ]);
    expect(created).toMatchObject({
      url: receiverUrl,
      eventTypes: ['mission.completed', 'points.adjusted'],
      description: 'From the CLI',
      rankThreshold: 10,
      status: 'active',
    });
    expect(created.secret).toMatch(/^whsec_/);
    webhookId = created.id as string;
    secret = created.secret as string;

    const table = await engage(['webhooks', 'list', '-e', tenant.sandbox.environmentId]);
    expect(table.code, table.err).toBe(0);
    const [header, row] = table.out.trim().split('\n');
    expect(header).toMatch(/^ID\s+STATUS\s+URL\s+EVENTS/);
    expect(row).toContain(webhookId);
    expect(row).toContain('active');
    expect(row).toContain('mission.completed,points.adjusted');
    const listed = await engageJson<Record<string, unknown>[]>([
      'webhooks',
      'list',
      '-e',
      tenant.sandbox.environmentId,
      '--json',
    ]);
    expect(listed).toEqual([expect.objectContaining({ id: webhookId })]);
    expect(listed[0]).not.toHaveProperty('secret');
  });

  it('pings the endpoint: the receiver verifies it, and deliveries show it delivered', async () => {
    const ping = await engageJson(['webhooks', 'ping', webhookId]);
    expect(ping).toMatchObject({ webhookId, eventType: 'webhook.ping' });
    await expect
      .poll(
        async () =>
          (await engageJson<{ items: { status: string }[] }>(['webhooks', 'deliveries', webhookId, '--json']))
            .items[0]?.status,
        { timeout: 20_000 },
      )
      .toBe('delivered');
    expect(received).toHaveLength(1);
    const verified = new Webhook(secret).verify(
      received[0]!.body,
      received[0]!.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ id: ping.id, type: 'webhook.ping' });

    const table = await engage(['webhooks', 'deliveries', webhookId, '--status', 'delivered']);
    expect(table.code, table.err).toBe(0);
    const row = table.out.split('\n')[1];
    expect(row).toMatch(new RegExp(`^${ping.id}\\s.*webhook\\.ping\\s+delivered\\s+1\\s+204\\s+\\d+ms`));
  });

  it('replays the delivery with the same webhook-id', async () => {
    const [delivery] = (
      await engageJson<{ items: { id: string }[] }>(['webhooks', 'deliveries', webhookId, '--json'])
    ).items;
    const replayed = await engageJson(['webhooks', 'replay', webhookId, delivery!.id]);
    expect(replayed).toMatchObject({ id: delivery!.id });
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    expect(received[1]!.headers['webhook-id']).toBe(delivery!.id);
  });

  it('pauses, resumes and changes the endpoint, and shows it', async () => {
    expect(await engageJson(['webhooks', 'update', webhookId, '--pause'])).toMatchObject({
      status: 'paused',
    });
    expect(await engageJson(['webhooks', 'update', webhookId, '--resume'])).toMatchObject({
      status: 'active',
      pausedAt: null,
    });
    await engageJson([
      'webhooks',
      'update',
      webhookId,
      '--events',
      'leaderboard.rank_reached',
      '--rank-threshold',
      '3',
    ]);
    expect(await engageJson(['webhooks', 'show', webhookId])).toMatchObject({
      id: webhookId,
      eventTypes: ['leaderboard.rank_reached'],
      rankThreshold: 3,
      description: 'From the CLI',
    });
  });

  it('rotates the secret: a new one, printed once, the previous one expiring after the overlap', async () => {
    const before = Date.now();
    const rotated = await engageJson<{ secret: string; previousSecretExpiresAt: string }>([
      'webhooks',
      'rotate-secret',
      webhookId,
      '--overlap-seconds',
      '60',
    ]);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    const expires = Date.parse(rotated.previousSecretExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 59_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 61_000);
  });

  it('refuses bad options before calling, and prints the refusal of the gateway', async () => {
    const unknownType = await engage([
      'webhooks',
      'create',
      '-e',
      tenant.sandbox.environmentId,
      '--endpoint-url',
      receiverUrl,
      '--events',
      'player.born',
    ]);
    expect(unknownType.code).not.toBe(0);
    expect(unknownType.err).toContain('player.born');
    const noEnvironment = await engage(['webhooks', 'list']);
    expect(noEnvironment.code).not.toBe(0);
    expect(noEnvironment.err).toContain('--environment');
    const nothing = await engage(['webhooks', 'update', webhookId]);
    expect([nothing.code, nothing.err]).toEqual([1, expect.stringContaining('nothing to change')]);
    const badUrl = await engage([
      'webhooks',
      'update',
      webhookId,
      '--endpoint-url',
      'ftp://example.test/hooks',
    ]);
    expect([badUrl.code, badUrl.err]).toEqual([1, expect.stringContaining('admin API answered 400')]);
  });

  it('deletes the endpoint; it is then not found', async () => {
    expect(await engageJson(['webhooks', 'delete', webhookId])).toEqual({ deleted: webhookId });
    const shown = await engage(['webhooks', 'show', webhookId]);
    expect([shown.code, shown.err]).toEqual([1, expect.stringContaining('admin API answered 404')]);
    const listed = await engage(['webhooks', 'list', '-e', tenant.sandbox.environmentId]);
    expect(listed.out).toBe('no webhook endpoints\n');
  });
});
