import type {} from 'vitest';

/** The servers a test file's stacks and fixtures use, and its database (`stackConfig()`). */
export interface StackConfig {
  /** The test file's own database (test/setup/file-database.ts). */
  databaseUrl: string;
  redisUrl: string;
  brokers: string[];
  repoRoot: string;
}

/** What the integration global setup hands to every test file (see test/setup/global-setup.ts). */
export interface ProvidedStack extends Omit<StackConfig, 'databaseUrl'> {
  /** The migrated database each file's own is copied from; nothing connects to it. */
  templateDatabaseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: ProvidedStack;
  }
}
