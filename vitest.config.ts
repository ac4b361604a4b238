import { defineConfig } from 'vitest/config';

/** Per package, just under what the whole suite covers (statements, branches, functions, lines in %). */
const COVERAGE_FLOORS = {};

// Two projects kept apart: `unit` is pure logic with no I/O and runs in parallel;
// `integration` talks to the real Kafka, Postgres and Redis that the global setup starts or finds.
export default defineConfig({
  test: {
    // On with `--coverage` (npm test): code run in the test workers is counted, services started as
    // child processes are not (docs/operating.md#test-coverage). Each package has a floor of its own.
    coverage: {
      provider: 'v8',
      include: ['{libs,services}/*/src/**/*.ts', 'bench/src/**/*.ts'],
      reporter: [['text-summary'], ['json-summary'], ['html', { subdir: 'html' }]],
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
          setupFiles: ['test/setup/process-warnings.ts', 'test/setup/service-logs-on-failure.ts'],
          // Every test stack gets topics of its own; 3 partitions each keep the broker's open files bounded.
          env: { KAFKA_TOPIC_MAX_PARTITIONS: '3' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Integration files share one broker and one database server on a 2-core machine.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
