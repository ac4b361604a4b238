import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import {
  encodedSizeOf,
  encodeHeaderValues,
  type KafkaSecurity,
  KafkaSecurityError,
  PLAINTEXT,
  platformaticSecurity,
  produceDuration,
  produceFailures,
  securityFailureOf,
  toMessages,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import { compatibilityPartitioner, type Partitioner, Producer, stringSerializer } from '@platformatic/kafka';
import type { Message } from 'kafkajs';

/**
 * The producer of accepted events, on `@platformatic/kafka` (it builds and sends a request with
 * less CPU than kafkajs; docs/decisions.md#kafka-client). Each request's records are
 * Avro-encoded at once, in the request's own trace context; batches of requests that arrive while a
 * send is in flight are coalesced into the next send (up to MAX_BYTES_PER_SEND), so a burst of
 * requests costs a few large produce requests instead of one each. Each request still resolves only
 * once its own records are acknowledged, and fails if their send fails.
 *
 * One send at a time: the idempotent producer numbers each partition's records in the order sends
 * are built, so a send that fails can only be followed by sends it does not leave a gap before.
 * After a failed send the producer drops its producer id and sequence numbers and asks the broker
 * for a new id on the next send: a send that landed but failed on the way back can never make the
 * broker take a later batch as a duplicate and silently drop it.
 */
export interface EventProducer {
  send(records: AcceptedEvent[]): Promise<void>;
  close(): Promise<void>;
}

/** How long the producer waits for the broker, and how often it tries again, before a send fails. */
export interface ProducerTimeouts {
  connectMs: number;
  requestMs: number;
  /** At least 2: `@platformatic/kafka` turns fewer, for an idempotent producer, into retrying forever. */
  retries: number;
  /** The first wait between attempts; each next one doubles, up to MAX_RETRY_DELAY_MS. */
  retryDelayMs: number;
}

const MAX_RETRY_DELAY_MS = 2_000;

/**
 * Seven attempts with waits of 0.1, 0.2, … 2 s between them (5.1 s in all): a topic created a moment
 * ago can be unknown to the broker's metadata for seconds (seen on a freshly started broker), and the
 * library gives up on an unknown topic once its retries are spent. A send fails, and its requests get
 * a retryable 500, after at most about 30 s without an answering broker (seven attempts of at most
 * 3.5 s, plus the waits): within IDEMPOTENCY_PENDING_TIMEOUT_MS (35 s), so a send still in flight is
 * never doubled by a retry of its key.
 */
const DEFAULT_TIMEOUTS: ProducerTimeouts = {
  connectMs: 3_000,
  requestMs: 3_500,
  retries: 6,
  retryDelayMs: 100,
};

/**
 * Upper bound of one send's encoded size. One partition's part of a send travels as one record
 * batch, which the broker refuses above `message.max.bytes` (1 MB by default); keeping the whole
 * send under it keeps every partition's batch under it. A request larger than this (up to 1,000
 * maximal items, about 6 MB) goes out in several sends, one after the other, so one player's records
 * stay in order; the answer waits for all of them.
 */
const MAX_BYTES_PER_SEND = 900_000;

function* chunksOf(messages: Message[]): Generator<Message[]> {
  let chunk: Message[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = encodedSizeOf(message);
    if (chunk.length > 0 && bytes + size > MAX_BYTES_PER_SEND) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(message);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

interface Pending {
  messages: Message[];
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

type EventsProducer = Producer<string, Buffer, string, Buffer>;

const MAX_REMEMBERED_KEYS = 200_000;

/**
 * kafkajs's partitioner (`compatibilityPartitioner`: murmur2 of the key, which the library reduces
 * modulo the partition count), remembered per key: players send many events, so the same keys come
 * back, and murmur2 was a twentieth of the gateway's thread. The answer depends on the key alone.
 */
function rememberingPartitioner(): Partitioner<string, Buffer, string, Buffer> {
  let hashes = new Map<string, number>();
  return (message, key) => {
    let hash = hashes.get(message.key!);
    if (hash === undefined) {
      hash = compatibilityPartitioner(message, key);
      if (hashes.size >= MAX_REMEMBERED_KEYS) hashes = new Map();
      hashes.set(message.key!, hash);
    }
    return hash;
  };
}

/** Reaches a broker before it returns: a gateway that cannot reach Kafka does not start. */
export async function createEventProducer(options: {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  log: Logger;
  /** TLS and SASL from the gateway's configuration; plaintext when left out. */
  security?: KafkaSecurity;
  timeouts?: ProducerTimeouts;
}): Promise<EventProducer> {
  const topic = topicName(topics.eventsAccepted, options.topicPrefix);
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const security = options.security ?? PLAINTEXT;
  const producer: EventsProducer = new Producer({
    clientId: options.clientId,
    bootstrapBrokers: options.brokers,
    ...platformaticSecurity(security, options.brokers),
    idempotent: true,
    // kafkajs's default partitioner, which every other producer of the topic uses.
    partitioner: rememberingPartitioner(),
    serializers: { key: stringSerializer, headerKey: stringSerializer },
    autocreateTopics: false,
    connectTimeout: timeouts.connectMs,
    // The client's wait for an answer (a connection cut without a close must not hang a send) and
    // the broker's wait for the replicas' acknowledgements.
    requestTimeout: timeouts.requestMs,
    timeout: timeouts.requestMs,
    retries: Math.max(2, timeouts.retries),
    retryDelay: (_client, _operation, attempt) =>
      Math.min(timeouts.retryDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS),
  });
  try {
    await producer.listApis();
  } catch (err) {
    await producer.close().catch(() => {});
    const failure = securityFailureOf(err, security);
    throw failure ? new KafkaSecurityError(failure, { cause: err }) : err;
  }

  const send = async (messages: Message[]) => {
    const stop = produceDuration.startTimer({ topic });
    try {
      await producer.send({
        messages: messages.map((m) => ({
          topic,
          key: m.key as string,
          value: m.value as Buffer,
          headers: m.headers as Record<string, Buffer>,
        })),
      });
    } catch (err) {
      produceFailures.inc({ topic });
      throw err;
    } finally {
      stop();
    }
  };

  const queue: Pending[] = [];
  let sending = false;
  const flush = async () => {
    sending = true;
    while (queue.length > 0) {
      const taken: Pending[] = [];
      let bytes = 0;
      while (queue.length > 0 && (taken.length === 0 || bytes + queue[0]!.bytes <= MAX_BYTES_PER_SEND)) {
        const next = queue.shift()!;
        taken.push(next);
        bytes += next.bytes;
      }
      try {
        const messages = taken.flatMap((p) => p.messages);
        // Measured once already: what was taken within the bound goes out as it is.
        for (const chunk of bytes <= MAX_BYTES_PER_SEND ? [messages] : chunksOf(messages)) await send(chunk);
        for (const p of taken) p.resolve();
      } catch (err) {
        options.log.warn({ err }, 'a send of accepted events failed; its requests answer 500');
        for (const p of taken) p.reject(err);
      }
    }
    sending = false;
  };
  return {
    send(records) {
      if (records.length === 0) return Promise.resolve();
      const messages = encodeHeaderValues(toMessages(topics.eventsAccepted, records));
      const bytes = messages.reduce((sum, m) => sum + encodedSizeOf(m), 0);
      return new Promise<void>((resolve, reject) => {
        queue.push({ messages, bytes, resolve, reject });
        if (!sending) void flush();
      });
    },
    async close() {
      await producer.close();
    },
  };
}
