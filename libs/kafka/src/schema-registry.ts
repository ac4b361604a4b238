import { logicalTypes, schemaText, type TopicDefinition, topicName } from '@engage/contracts';
import { retry, type SchemaRegistrySettings } from '@engage/kit';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { Type } from 'avsc';
import type { IHeaders } from 'kafkajs';
import type { Logger } from 'pino';
import { SCHEMA_HEADER, WIRE_PREFIX_BYTES, wireSchemaIdOf } from './wire-format.ts';

/**
 * Registry mode (SCHEMA_REGISTRY_URL): at start a service registers the schema of each topic it
 * writes under the subject `<topic>-value` (TopicNameStrategy) and keeps the ids; its records are
 * then framed in the Confluent wire format (wire-format.ts). Its consumers read framed records by
 * the writer schema the registry has under the record's id, fetched once per id, resolved to the
 * topic's own schema; plain records as before. The registry is called at start and once per id
 * never seen before, never per record.
 *
 * One registry per process, kept here: toMessages and decodeRecord are called from every layer of
 * every service, and a schema's id in one registry is the same for every subject it is under.
 */
let active: RegistryMode | undefined;

/** Why a service cannot start in registry mode: an unreachable registry, a refused schema. */
export class SchemaRegistryError extends Error {
  override name = 'SchemaRegistryError';
}

type Reader = (body: Buffer) => unknown;
/** What registry mode needs of a topic's definition (any record type). */
type TopicSchema = Pick<TopicDefinition<unknown>, 'base' | 'type' | 'schemaFile'>;

class RegistryMode {
  readonly #writerIds = new WeakMap<object, number>();
  readonly #readers = new WeakMap<object, Map<number, Reader | Error>>();

  readonly client: SchemaRegistry;
  readonly url: string;

  constructor(client: SchemaRegistry, url: string) {
    this.client = client;
    this.url = url;
  }

  writerId(def: object): number | undefined {
    return this.#writerIds.get(def);
  }

  setWriterId(def: object, id: number): void {
    this.#writerIds.set(def, id);
  }

  readersOf(def: object): Map<number, Reader | Error> {
    let readers = this.#readers.get(def);
    if (!readers) {
      readers = new Map();
      this.#readers.set(def, readers);
    }
    return readers;
  }
}

/** The id records of `def` are framed under, or undefined when this process writes plain Avro. */
export function writerSchemaIdOf(def: object): number | undefined {
  return active?.writerId(def);
}

/**
 * Connects this process to the registry of `settings` and registers the schemas of the topics in
 * `writes` (under `topicPrefix`); with no settings, records stay plain Avro. Throws a
 * SchemaRegistryError, for the service to stop with, when the registry cannot be reached, refuses a
 * login, or refuses a schema as incompatible with the subject's versions.
 */
export async function startSchemaRegistryMode(
  settings: SchemaRegistrySettings | undefined,
  options: { writes: readonly TopicSchema[]; topicPrefix: string; log: Logger },
): Promise<void> {
  if (!settings) {
    active = undefined;
    return;
  }
  const client = new SchemaRegistry(
    {
      host: settings.url,
      ...(settings.auth ? { auth: settings.auth } : {}),
      clientId: 'engage',
      // A few quick attempts: a registry that does not answer stops the service at start.
      retry: { retries: 2, initialRetryTimeInSecs: 0.2, maxRetryTimeInSecs: 2 },
    },
    // Writer schemas with the topics' own logical types, which resolve only to their own kind.
    { [SchemaType.AVRO]: { logicalTypes } },
  );
  const mode = new RegistryMode(client, settings.url);
  for (const def of options.writes) {
    const subject = `${topicName(def, options.topicPrefix)}-value`;
    const id = await registerSchema(client, def, subject, settings, options.log);
    mode.setWriterId(def, id);
    options.log.info({ subject, schemaId: id, compatibility: settings.compatibility }, 'schema registered');
  }
  active = mode;
}

/** Back to plain Avro (a test that started registry mode ends it). */
export function stopSchemaRegistryMode(): void {
  active = undefined;
}

async function registerSchema(
  client: SchemaRegistry,
  def: TopicSchema,
  subject: string,
  settings: SchemaRegistrySettings,
  log: Logger,
): Promise<number> {
  // The file's schema, compacted: avsc would drop the logical types it has no class for (uuid).
  const schema = {
    type: SchemaType.AVRO as const,
    schema: JSON.stringify(JSON.parse(schemaText(def.schemaFile))),
  };
  try {
    const { id } = await retry(
      () => client.register(schema, { subject, compatibility: COMPATIBILITY[settings.compatibility] }),
      {
        // A registry's own failure (5xx) may pass: Apicurio on H2 refuses first registrations that
        // several services make at once. Its answers about the schema (4xx) and no answer do not.
        attempts: 8,
        delayMs: () => 200 + Math.random() * 800,
        retryable: (err) => ((err as { status?: number }).status ?? 0) >= 500,
        onRetry: (err, attempt) =>
          log.info({ subject, attempt, err: (err as Error).message }, 'schema registration failed; retrying'),
      },
    );
    return id;
  } catch (err) {
    throw new SchemaRegistryError(registrationFailure(err, subject, settings), { cause: err });
  }
}

function registrationFailure(err: unknown, subject: string, settings: SchemaRegistrySettings): string {
  const { name, status, message } = err as { name?: string; status?: number; message?: string };
  const detail = message ?? String(err);
  if (name === 'ConfluentSchemaRegistryCompatibilityError')
    return (
      `the schema registry's subject ${subject} has another compatibility level than ` +
      `SCHEMA_REGISTRY_COMPATIBILITY=${settings.compatibility} (${detail}); ` +
      'set one of them to the other'
    );
  if (status === 409)
    return (
      `the schema registry refused the schema of ${subject} as incompatible with the versions it ` +
      `holds (compatibility ${settings.compatibility}): ${detail}`
    );
  if (status === 401 || status === 403)
    return (
      `the schema registry at ${settings.url} refused the login (${detail}): ` +
      'check SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD(_FILE)'
    );
  return `cannot register the schema of ${subject} with the schema registry at ${settings.url}: ${detail}`;
}

/** The part of a Kafka message a reader looks at. */
export interface WireMessage {
  value: Buffer | null;
  headers?: IHeaders | undefined;
}

/**
 * Fetches the writer schemas of the framed records in `batches` whose ids this process has not met
 * yet, so decodeRecord can then read them without waiting. Throws (for the batch to be fetched again)
 * when a framed record comes and no registry is configured, or the registry does not answer; an id
 * the registry does not know makes those records undecodable.
 */
export async function loadWriterSchemas(
  def: TopicSchema,
  batches: readonly (readonly WireMessage[])[],
): Promise<void> {
  let unknown: Set<number> | undefined;
  for (const messages of batches) {
    for (const message of messages) {
      if (!message.value) continue;
      const id = wireSchemaIdOf(message.value, message.headers?.[SCHEMA_HEADER]);
      if (id === undefined || active?.readersOf(def).has(id)) continue;
      unknown ??= new Set();
      unknown.add(id);
    }
  }
  if (!unknown) return;
  if (!active) {
    throw new SchemaRegistryError(
      `records of ${def.base} are in the Confluent wire format (schema id ${[...unknown].join(', ')}) ` +
        'but SCHEMA_REGISTRY_URL is unset: set it to the registry their producers use',
    );
  }
  const readers = active.readersOf(def);
  for (const id of unknown) readers.set(id, await readerOf(active, def, id));
}

async function readerOf(mode: RegistryMode, def: TopicSchema, id: number): Promise<Reader | Error> {
  let writer: Type;
  try {
    writer = (await mode.client.getSchema(id)) as Type;
  } catch (err) {
    if ((err as { status?: number }).status === 404)
      return new Error(`the schema registry at ${mode.url} has no schema with id ${id}`);
    throw new SchemaRegistryError(`cannot fetch schema ${id} from the schema registry at ${mode.url}`, {
      cause: err,
    });
  }
  const reader = def.type;
  if (writer.fingerprint().equals(reader.fingerprint())) return (body) => reader.fromBuffer(body);
  const resolver = reader.createResolver(writer);
  return (body) => reader.fromBuffer(body, resolver);
}

/** A framed record's value through the reader loadWriterSchemas made for its id. */
export function decodeFramed(def: TopicSchema, id: number, value: Buffer): unknown {
  const reader = active?.readersOf(def).get(id);
  if (reader === undefined)
    throw new Error(`no writer schema loaded for schema id ${id} of ${def.base} (loadWriterSchemas first)`);
  if (reader instanceof Error) throw reader;
  return reader(value.subarray(WIRE_PREFIX_BYTES));
}
