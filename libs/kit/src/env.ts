import { readFileSync } from 'node:fs';
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
  /** Kafka's own names: TLS when it ends in SSL, a SASL login when it starts with SASL. */
  KAFKA_SECURITY_PROTOCOL: z.enum(['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL']).default('PLAINTEXT'),
  /** PEM certificates the broker's must chain to; the system's trusted CAs when unset. */
  KAFKA_SSL_CA_FILE: unsetWhenEmpty(z.string()),
  /** A client certificate (PEM) and its unencrypted key, for brokers that authenticate clients by TLS. */
  KAFKA_SSL_CERT_FILE: unsetWhenEmpty(z.string()),
  KAFKA_SSL_KEY_FILE: unsetWhenEmpty(z.string()),
  KAFKA_SASL_MECHANISM: unsetWhenEmpty(z.enum(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])),
  KAFKA_SASL_USERNAME: unsetWhenEmpty(z.string()),
  KAFKA_SASL_PASSWORD: unsetWhenEmpty(z.string()),
  /** The password read from a file (a mounted Kubernetes secret), instead of KAFKA_SASL_PASSWORD. */
  KAFKA_SASL_PASSWORD_FILE: unsetWhenEmpty(z.string()),
  /**
   * A Confluent-compatible schema registry's base URL: set, records are written in the Confluent
   * wire format under ids from it (docs/operating.md#schema-registry). Unset, it is not used.
   */
  SCHEMA_REGISTRY_URL: unsetWhenEmpty(z.url()),
  SCHEMA_REGISTRY_USERNAME: unsetWhenEmpty(z.string()),
  SCHEMA_REGISTRY_PASSWORD: unsetWhenEmpty(z.string()),
  SCHEMA_REGISTRY_PASSWORD_FILE: unsetWhenEmpty(z.string()),
  /** The level each subject this deployment writes must have; set on a subject that has none. */
  SCHEMA_REGISTRY_COMPATIBILITY: z
    .enum([
      'BACKWARD',
      'BACKWARD_TRANSITIVE',
      'FORWARD',
      'FORWARD_TRANSITIVE',
      'FULL',
      'FULL_TRANSITIVE',
      'NONE',
    ])
    .default('BACKWARD'),
});

export type KafkaSettings = z.infer<typeof kafkaEnv>;

/** What a Kafka client needs to connect to brokers that are not plaintext, files already read. */
export interface KafkaSecurity {
  protocol: KafkaSettings['KAFKA_SECURITY_PROTOCOL'];
  /** Present for SSL and SASL_SSL. */
  tls?: { ca?: string; cert?: string; key?: string };
  /** Present for SASL_PLAINTEXT and SASL_SSL. */
  sasl?: {
    mechanism: NonNullable<KafkaSettings['KAFKA_SASL_MECHANISM']>;
    username: string;
    password: string;
  };
}

/** A schema registry to write and read records through; absent when SCHEMA_REGISTRY_URL is unset. */
export interface SchemaRegistrySettings {
  url: string;
  /** HTTP basic authentication, present with SCHEMA_REGISTRY_USERNAME. */
  auth?: { username: string; password: string };
  compatibility: KafkaSettings['SCHEMA_REGISTRY_COMPATIBILITY'];
}

function unsetWhenEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}

/**
 * Checks the Kafka security and schema registry settings together and reads the files they name.
 * zod keeps no object-wide rule through `.extend`, so a schema with `kafkaEnv` in it ends with
 * `.transform(withKafkaSecurity)`; its result carries `kafkaSecurity` for every Kafka client and
 * `schemaRegistry` (undefined when SCHEMA_REGISTRY_URL is unset).
 */
export function withKafkaSecurity<T extends KafkaSettings>(
  settings: T,
  ctx: z.RefinementCtx,
): T & { kafkaSecurity: KafkaSecurity; schemaRegistry: SchemaRegistrySettings | undefined } {
  const problems: Array<[keyof KafkaSettings, string]> = [];
  const protocol = settings.KAFKA_SECURITY_PROTOCOL;
  const usesTls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const usesSasl = protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL';
  const read = (variable: keyof KafkaSettings): string | undefined => {
    const file = settings[variable] as string | undefined;
    if (file === undefined) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      problems.push([variable, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
      return undefined;
    }
  };

  const tlsVariables = ['KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'] as const;
  const saslVariables = [
    'KAFKA_SASL_MECHANISM',
    'KAFKA_SASL_USERNAME',
    'KAFKA_SASL_PASSWORD',
    'KAFKA_SASL_PASSWORD_FILE',
  ] as const;
  if (!usesTls) {
    for (const variable of tlsVariables.filter((v) => settings[v] !== undefined))
      problems.push([
        variable,
        `is set but KAFKA_SECURITY_PROTOCOL=${protocol} uses no TLS (SSL or SASL_SSL do)`,
      ]);
  } else if ((settings.KAFKA_SSL_CERT_FILE === undefined) !== (settings.KAFKA_SSL_KEY_FILE === undefined)) {
    problems.push([
      settings.KAFKA_SSL_CERT_FILE === undefined ? 'KAFKA_SSL_CERT_FILE' : 'KAFKA_SSL_KEY_FILE',
      'a client certificate needs both KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE',
    ]);
  }
  if (!usesSasl) {
    for (const variable of saslVariables.filter((v) => settings[v] !== undefined))
      problems.push([
        variable,
        `is set but KAFKA_SECURITY_PROTOCOL=${protocol} logs in with no SASL (SASL_PLAINTEXT or SASL_SSL do)`,
      ]);
  } else {
    if (settings.KAFKA_SASL_MECHANISM === undefined)
      problems.push([
        'KAFKA_SASL_MECHANISM',
        `is required with ${protocol}: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512`,
      ]);
    if (settings.KAFKA_SASL_USERNAME === undefined)
      problems.push(['KAFKA_SASL_USERNAME', `is required with ${protocol}`]);
    const passwords = [settings.KAFKA_SASL_PASSWORD, settings.KAFKA_SASL_PASSWORD_FILE].filter(
      (p) => p !== undefined,
    );
    if (passwords.length !== 1)
      problems.push([
        'KAFKA_SASL_PASSWORD',
        `${protocol} needs exactly one of KAFKA_SASL_PASSWORD and KAFKA_SASL_PASSWORD_FILE`,
      ]);
  }

  const security: KafkaSecurity = { protocol };
  if (problems.length === 0 && usesTls) {
    const [ca, cert, key] = tlsVariables.map(read);
    security.tls = {
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
    };
  }
  if (problems.length === 0 && usesSasl) {
    // A mounted secret file usually ends with a newline that is no part of the password.
    const password = settings.KAFKA_SASL_PASSWORD ?? read('KAFKA_SASL_PASSWORD_FILE')?.replace(/\r?\n$/, '');
    if (password !== undefined)
      security.sasl = {
        mechanism: settings.KAFKA_SASL_MECHANISM!,
        username: settings.KAFKA_SASL_USERNAME!,
        password,
      };
  }
  const schemaRegistry = schemaRegistryOf(settings, problems, read);
  for (const [variable, message] of problems) ctx.addIssue({ code: 'custom', path: [variable], message });
  return { ...settings, kafkaSecurity: security, schemaRegistry };
}

function schemaRegistryOf(
  settings: KafkaSettings,
  problems: Array<[keyof KafkaSettings, string]>,
  read: (variable: keyof KafkaSettings) => string | undefined,
): SchemaRegistrySettings | undefined {
  const url = settings.SCHEMA_REGISTRY_URL;
  const login = [
    'SCHEMA_REGISTRY_USERNAME',
    'SCHEMA_REGISTRY_PASSWORD',
    'SCHEMA_REGISTRY_PASSWORD_FILE',
  ] as const;
  if (url === undefined) {
    for (const variable of login.filter((v) => settings[v] !== undefined))
      problems.push([variable, 'is set but SCHEMA_REGISTRY_URL is not']);
    return undefined;
  }
  const given = login.slice(1).filter((v) => settings[v] !== undefined);
  if (settings.SCHEMA_REGISTRY_USERNAME === undefined) {
    for (const variable of given) problems.push([variable, 'is set but SCHEMA_REGISTRY_USERNAME is not']);
    return { url, compatibility: settings.SCHEMA_REGISTRY_COMPATIBILITY };
  }
  if (given.length !== 1) {
    problems.push([
      'SCHEMA_REGISTRY_PASSWORD',
      'a registry login needs exactly one of SCHEMA_REGISTRY_PASSWORD and SCHEMA_REGISTRY_PASSWORD_FILE',
    ]);
    return undefined;
  }
  const password =
    settings.SCHEMA_REGISTRY_PASSWORD ?? read('SCHEMA_REGISTRY_PASSWORD_FILE')?.replace(/\r?\n$/, '');
  if (password === undefined) return undefined;
  return {
    url,
    auth: { username: settings.SCHEMA_REGISTRY_USERNAME, password },
    compatibility: settings.SCHEMA_REGISTRY_COMPATIBILITY,
  };
}

/** `kafkaEnv` alone, checked and with its files read: for tools that talk to Kafka and nothing else. */
export const kafkaConnectionEnv = kafkaEnv.transform(withKafkaSecurity);

export const portEnv = (defaultPort: number) => z.object({ PORT: port.default(defaultPort) });

/** Where GET /metrics is served: a port apart from the API's (see docs/operating.md#metrics). */
export const metricsPortEnv = (defaultPort: number) => z.object({ METRICS_PORT: port.default(defaultPort) });

/** Settings of a service that consumes Kafka topics in a consumer group. */
export const kafkaConsumerEnv = z.object({
  /** How long a crashed member holds its partitions; the broker's minimum is 6 s. */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(300_000).default(30_000),
});
