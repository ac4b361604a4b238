import type {} from 'vitest';

/** What the integration global setup hands to every test file (see test/setup/global-setup.ts). */
export interface StackConfig {
  databaseUrl: string;
  redisUrl: string;
  brokers: string[];
  repoRoot: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackConfig;
  }
}
