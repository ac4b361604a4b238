import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedEvent, writeAcceptedEvents } from './support/accepted-events.ts';

/**
 * `engage topics tail` against the real broker: records written as the gateway writes them (plain
 * Avro with the engage-schema header), on a topic prefix of this file's own.
 */

const prefix = uniqueTopicPrefix();
const organizationId = crypto.randomUUID();
const environmentA = crypto.randomUUID();
const environmentB = crypto.randomUUID();
const hour = 3_600_000;
const earlier = new Date(Math.floor(Date.now() / hour) * hour - 3 * hour);
const later = new Date(earlier.getTime() + hour);
/** More digits than a double holds: printed as written or the tail lost them. */
const exactDecimal = '12345678901234567890.12345678';

const event = (environmentId: string, playerId: string, level: string) =>
  acceptedEvent({ organizationId, environmentId }, playerId, level, earlier);

/** Offsets 0 and 1 written at `earlier`, 2 to 4 at `later`, all on partition 0. */
const written = [
  { at: earlier, value: event(environmentA, 'ada', '1') },
  { at: earlier, value: event(environmentB, 'ada', '2') },
  { at: later, value: event(environmentA, 'ada', exactDecimal) },
  { at: later, value: event(environmentA, 'grace', '-0.5') },
  { at: later, value: event(environmentB, 'grace', '4') },
];

beforeAll(() => writeAcceptedEvents(prefix, written), 60_000);

/** Runs the `engage` binary with this file's topic prefix, as an analyst would. */
function engage(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const main = join(stackConfig().repoRoot, 'libs', 'cli', 'src', 'main.ts');
  const child = spawn(process.execPath, [main, ...args], {
    env: { ...process.env, KAFKA_BROKERS: stackConfig().brokers.join(','), KAFKA_TOPIC_PREFIX: prefix },
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

async function tail(...args: string[]) {
  const run = await engage(['topics', 'tail', 'events.accepted.v1', ...args]);
  expect(run, run.err).toMatchObject({ code: 0 });
  return run.out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('engage topics tail', () => {
  it('prints every record decoded, one JSON line each, with where it is and exact decimals', async () => {
    const lines = await tail();
    expect(lines.map((l) => l.value)).toEqual(written.map((w) => w.value));
    expect(lines[2]).toEqual({
      topic: `${prefix}events.accepted.v1`,
      partition: 0,
      offset: '2',
      timestamp: later.toISOString(),
      key: `${environmentA}:ada`,
      value: written[2]!.value,
    });
    expect(lines[2].value.properties.level.number).toBe(exactDecimal);
  });

  it('starts at an offset', async () => {
    const lines = await tail('--from-offset', '3', '--partition', '0');
    expect(lines.map((l) => l.offset)).toEqual(['3', '4']);
  });

  it('starts at a time', async () => {
    const lines = await tail('--from-time', new Date(earlier.getTime() + 1).toISOString());
    expect(lines.map((l) => l.offset)).toEqual(['2', '3', '4']);
  });

  it('keeps only the records of one environment, and of one player', async () => {
    const ofEnvironment = await tail('--environment', environmentB);
    expect(ofEnvironment.map((l) => l.offset)).toEqual(['1', '4']);
    const ofPlayer = await tail('--environment', environmentA, '--player', 'ada');
    expect(ofPlayer.map((l) => l.offset)).toEqual(['0', '2']);
  });

  it('stops after --limit records', async () => {
    const lines = await tail('--limit', '2');
    expect(lines.map((l) => l.offset)).toEqual(['0', '1']);
  });

  it('refuses a topic not in the catalog, naming the ones that are', async () => {
    const run = await engage(['topics', 'tail', 'events.acepted.v1']);
    expect(run.code).toBe(1);
    expect(run.err).toContain("no topic 'events.acepted.v1' in the catalog");
    expect(run.err).toContain('events.accepted.v1');
    expect(run.out).toBe('');
  });
});
