import { extractContext, SpanKind, trace, tracer } from '@engage/kit';
import type { KafkaMessage } from 'kafkajs';

/** Links a consumer transaction's span to the trace of every record it applies (up to 128). */
export async function withConsumeSpan<T>(
  topic: string,
  partition: number,
  messages: KafkaMessage[],
  fn: () => Promise<T>,
): Promise<T> {
  const links = messages.slice(0, 128).flatMap((m) => {
    const ctx = trace.getSpanContext(extractContext(m.headers ?? {}));
    return ctx ? [{ context: ctx }] : [];
  });
  const parent = messages.length === 1 ? extractContext(messages[0]!.headers ?? {}) : undefined;
  const span = tracer().startSpan(
    `process ${topic}`,
    {
      kind: SpanKind.CONSUMER,
      links,
      attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, partition },
    },
    parent,
  );
  try {
    return await fn();
  } finally {
    span.end();
  }
}
