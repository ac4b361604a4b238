import { defineConfig } from 'vitest/config';

/**
 * Per package, in %: `npm test` fails when a package's code covered by the unit and integration
 * projects together falls below its floor. Set a little under what the unit project alone covers;
 * raise a floor when tests are added, never lower it to let a gap through.
 */
const COVERAGE_FLOORS: Record<string, Floor> = {
  'bench/src/**': floor(4, 3, 10, 3),
  'libs/cli/src/**': floor(34, 23, 20, 37),
  'libs/contracts/src/**': floor(94, 88, 86, 94),
  'libs/devstack/src/**': floor(7, 3, 4, 7),
  'libs/kafka/src/**': floor(24, 24, 13, 25),
  'libs/kit/src/**': floor(66, 64, 62, 66),
  'libs/postgres/src/**': floor(9, 13, 8, 10),
  'libs/redis/src/**': floor(1, 0, 0, 1),
  'libs/sdk/src/**': floor(70, 75, 50, 75),
  'libs/testkit/src/**': floor(7, 11, 9, 7),
  'services/control-plane/src/**': floor(18, 17, 17, 18),
  'services/gateway/src/**': floor(27, 29, 22, 27),
  'services/ledger/src/**': floor(41, 50, 26, 42),
  'services/query/src/**': floor(23, 23, 14, 24),
  'services/rules/src/**': floor(50, 53, 36, 53),
};

interface Floor {
  statements: number;
  branches: number;
  functions: number;
  lines: number;
}

function floor(statements: number, branches: number, functions: number, lines: number): Floor {
  return { statements, branches, functions, lines };
}

// Two projects kept apart: `unit` is pure logic with no I/O and runs in parallel;
// `integration` talks to the real Kafka, Postgres and Redis that the global setup starts or finds.
export default defineConfig({
  test: {
    // On with `--coverage` (npm test): code run in the test workers is counted, services started as
    // child processes are not (README, "Tests and benchmarks"). Each package has a floor of its own.
    coverage: {
      provider: 'v8',
      include: ['{libs,services}/*/src/**/*.ts', 'bench/src/**/*.ts'],
      // Summaries only by default: an HTML report is `--coverage.reporter=html` away.
      reporter: [['text-summary'], ['json-summary']],
      reportsDirectory: 'coverage',
      thresholds: COVERAGE_FLOORS,
    },
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: [
            '{libs,services}/*/test/**/*.test.ts',
            'bench/test/**/*.test.ts',
            'test/unit/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: [
            '{libs,services}/*/test/**/*.int.test.ts',
            'console/test/**/*.int.test.ts',
            'test/**/*.int.test.ts',
          ],
          exclude: ['**/node_modules/**'],
          globalSetup: ['test/setup/global-setup.ts'],
          // A database of its own for each file, copied from the template the global setup migrated.
          setupFiles: [
            'test/setup/file-database.ts',
            'test/setup/process-warnings.ts',
            'test/setup/service-logs-on-failure.ts',
          ],
          // Every test stack gets topics of its own; 3 partitions each keep the broker's open files bounded.
          env: { KAFKA_TOPIC_MAX_PARTITIONS: '3' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Integration files share one broker and one database server (each with topics and a
          // database of its own) on a 2-core machine.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
