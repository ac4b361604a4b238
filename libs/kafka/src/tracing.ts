import {
  type Context,
  context,
  extractContext,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  tracer,
} from '@engage/kit';
import type { Attributes } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';

const MAX_TRACED_RECORDS = 128;

/**
 * One span per consumer transaction. A batch of one record continues that record's trace; a larger
 * batch links to every record's trace (up to 128) and each of those traces gets a short span of its
 * own, so a trace followed from the HTTP request always shows where its record was applied. The
 * span is active while `fn` runs, so records the transaction publishes (outbox) continue its trace.
 */
export async function withConsumeSpan<T>(
  topic: string,
  partitions: number[],
  messages: KafkaMessage[],
  fn: () => Promise<T>,
): Promise<T> {
  const traced = messages.slice(0, MAX_TRACED_RECORDS).flatMap((m) => {
    const ctx = extractContext(m.headers ?? {});
    const spanContext = trace.getSpanContext(ctx);
    return spanContext ? [{ message: m, ctx, spanContext }] : [];
  });
  const parent = messages.length === 1 ? traced[0]?.ctx : undefined;
  const attributes: Attributes = {
    'messaging.system': 'kafka',
    'messaging.destination.name': topic,
    partition: partitions.length === 1 ? partitions[0] : partitions,
  };
  const startTime = Date.now();
  const span = tracer().startSpan(
    `process ${topic}`,
    {
      kind: SpanKind.CONSUMER,
      links: traced.map((t) => ({ context: t.spanContext })),
      attributes: { ...attributes, 'messaging.batch.message_count': messages.length },
      startTime,
    },
    parent ?? context.active(),
  );
  let failed = false;
  try {
    return await context.with(trace.setSpan(parent ?? context.active(), span), fn);
  } catch (err) {
    failed = true;
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    if (!parent) for (const t of traced) recordSpan(topic, attributes, t, span, startTime, failed);
    span.end();
  }
}

function recordSpan(
  topic: string,
  attributes: Attributes,
  record: { message: KafkaMessage; ctx: Context },
  batch: Span,
  startTime: number,
  failed: boolean,
) {
  const span = tracer().startSpan(
    `process ${topic} record`,
    {
      kind: SpanKind.CONSUMER,
      links: [{ context: batch.spanContext() }],
      attributes: { ...attributes, 'messaging.kafka.offset': record.message.offset },
      startTime,
    },
    record.ctx,
  );
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
