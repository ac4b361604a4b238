import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureKcat } from '@engage/devstack';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedEvent, writeAcceptedEvents } from './support/accepted-events.ts';

/**
 * The stock-tool recipes of docs/topics.md, run as written against the real broker, on a topic
 * prefix of this file's own: each prints every record with its partition, offset, key and schema.
 */

const prefix = uniqueTopicPrefix();
const tenant = { organizationId: crypto.randomUUID(), environmentId: crypto.randomUUID() };
const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
const written = ['ada', 'grace', 'alan'].map((player, i) => ({
  at,
  value: acceptedEvent(tenant, player, String(i + 1), at),
}));

beforeAll(async () => {
  ensureKcat((line) => process.stdout.write(`[kcat] ${line}\n`));
  await writeAcceptedEvents(prefix, written);
}, 300_000);

/** The command of the fenced block after `<!-- recipe:name -->`, on this file's topic and broker. */
function recipe(name: string): string {
  const page = readFileSync(join(stackConfig().repoRoot, 'docs', 'topics.md'), 'utf8');
  const block = new RegExp(`<!-- recipe:${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(page)?.[1];
  if (!block) throw new Error(`docs/topics.md has no recipe ${name}`);
  return block
    .replaceAll('engage.events.accepted.v1', `${prefix}events.accepted.v1`)
    .replaceAll('127.0.0.1:9092', stackConfig().brokers.join(','));
}

function shell(command: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn('sh', ['-c', command], {
    cwd: stackConfig().repoRoot,
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

const keys = written.map((w) => `${tenant.environmentId}:${w.value.playerId}`);

describe('the stock-tool recipes of docs/topics.md', () => {
  it('kcat prints each record with its partition, offset, key and schema', async () => {
    const run = await shell(recipe('kcat'));
    expect(run, run.err).toMatchObject({ code: 0 });
    const lines = run.out.trim().split('\n');
    expect(lines).toHaveLength(3);
    lines.forEach((line, offset) => {
      expect(line).toContain(`partition 0 offset ${offset} time ${at.getTime()} key ${keys[offset]}`);
      expect(line).toMatch(/schema engage-schema=events\.accepted\.v1;fingerprint=[0-9a-f]{16}/);
    });
  });

  it("the broker's console consumer prints each record with its partition, offset, key and schema", async () => {
    const run = await shell(recipe('console-consumer'));
    // Its log (the timeout that ends it) goes to stdout too.
    const lines = run.out.split('\n').filter((line) => line.startsWith('CreateTime:'));
    expect(lines, run.err).toHaveLength(3);
    lines.forEach((line, offset) => {
      expect(line).toContain(`CreateTime:${at.getTime()}`);
      expect(line).toContain(`Partition:0\tOffset:${offset}`);
      expect(line).toMatch(/engage-schema:events\.accepted\.v1;fingerprint=[0-9a-f]{16}/);
      expect(line).toContain(keys[offset]);
    });
    expect(run.err).toContain('Processed a total of 3 messages');
  });
});
