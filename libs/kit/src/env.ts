import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses configuration once, at start. Every invalid variable is reported in one message so a
 * misconfigured deployment fails fast and says exactly what to fix.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  source: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

const port = z.coerce.number().int().min(0).max(65535);
const milliseconds = z.coerce.number().int().min(0);

/** Settings every service reads. */
export const baseEnv = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  SHUTDOWN_TIMEOUT_MS: milliseconds.default(25_000),
  /** See gc-tuning.ts; 0 leaves V8's own rule. */
  GC_MARKING_START_PERCENT: z.coerce.number().int().min(0).max(95).default(80),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
});

export const postgresEnv = z.object({
  DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/engage'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
});

export const redisEnv = z.object({
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().default(''),
});

export const kafkaEnv = z.object({
  KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((s) =>
      s
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[^:]+:\d+$/, 'each broker must be host:port')).min(1)),
  KAFKA_CLIENT_ID: z.string().optional(),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .default('engage.'),
});

export const portEnv = (defaultPort: number) => z.object({ PORT: port.default(defaultPort) });

/** Where GET /metrics is served: a port apart from the API's (see docs/operating.md#metrics). */
export const metricsPortEnv = (defaultPort: number) => z.object({ METRICS_PORT: port.default(defaultPort) });

/** Settings of a service that consumes Kafka topics in a consumer group. */
export const kafkaConsumerEnv = z.object({
  /** How long a crashed member holds its partitions; the broker's minimum is 6 s. */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(300_000).default(30_000),
});
