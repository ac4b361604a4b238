// Run as a child process with --expose-gc: fills a rules progress cache with `players` players
// decoded as the consumer decodes them, and prints the heap and RSS it took as JSON.
import { ProgressCache } from '@engage/rules/application/progress-cache.ts';
import { toStoredProgress } from '@engage/rules/store/progress.ts';

const players = Number(process.argv[2]);
const missions = Number(process.argv[3]);
const gc = globalThis.gc!;

/** A player's rows as Postgres answers them: `missions` entries of one objective, and one streak. */
function storedRow(i: number) {
  const entries: Record<string, unknown> = {};
  for (let m = 0; m < missions; m++) {
    entries[`mission-${m}`] = [1, 1_764_000_000_000 + i, 0, 1_764_000_000_000 + i, 0, 0, { levels: m }];
  }
  return {
    environment_id: '6f1c1d52-8a55-4f4e-9d0a-3f7f3b2a9c11',
    player_id: `player-${i}`,
    revision: crypto.randomUUID(),
    counters: Array.from({ length: missions }, (_, m) => (i + m) % 7),
    missions: JSON.parse(JSON.stringify(entries)),
    streaks: {
      daily: {
        run: 1,
        currentCount: 3,
        longestCount: 3,
        lastQualifyingDate: '2026-12-06',
        timeZone: 'Europe/Berlin',
        pendingPeriod: null,
        pendingEvents: 0,
        reachedInRun: [],
        reachedEver: [],
      },
    },
  };
}

gc();
const before = process.memoryUsage();
const cache = new ProgressCache(Number.MAX_SAFE_INTEGER);
for (let i = 0; i < players; i++) {
  const row = storedRow(i);
  cache.keep([
    {
      key: `${row.environment_id}:${row.player_id}`,
      partition: i % 12,
      held: {
        revision: row.revision,
        eventsApplied: 12,
        activity: {
          eventsApplied: 12,
          lastOccurredAt: new Date(1_764_000_000_000 + i).toISOString(),
          appliedEventsDigest: crypto.randomUUID().replaceAll('-', '').repeat(2),
        },
        stored: toStoredProgress(row as Parameters<typeof toStoredProgress>[0]),
      },
    },
  ]);
}
gc();
const after = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({ held: cache.size, heapBytes: after.heapUsed - before.heapUsed, rssBytes: after.rss })}\n`,
);
