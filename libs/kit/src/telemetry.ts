import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  NoopSpanProcessor,
  ParentBasedSampler,
} from '@opentelemetry/sdk-trace';

export type { Context, Span };
export { context, SpanKind, SpanStatusCode, trace };

/**
 * Starts the OpenTelemetry SDK. Spans are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 * Without it, spans of traces this service starts are not recorded either (a recorded span would be
 * built only to be dropped, at a cost to a busy service's CPU), yet every span still gets its
 * trace id, so every problem document and log line has one and it is propagated downstream.
 */
export function startTelemetry(serviceName: string, otlpEndpoint: string | undefined): () => Promise<void> {
  const sdk = new NodeSDK({
    serviceName,
    instrumentations: [],
    ...(otlpEndpoint
      ? {
          spanProcessors: [
            new BatchSpanProcessor({
              exporter: new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
            }),
          ],
        }
      : {
          // A tracer provider needs a processor; without one the SDK leaves spans without trace ids.
          spanProcessors: [new NoopSpanProcessor()],
          // A caller's sampled trace stays sampled downstream (services that export record it).
          sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }),
        }),
  });
  sdk.start();
  return () => sdk.shutdown();
}

export const tracer = () => trace.getTracer('engage');

export function currentTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/** Runs `fn` inside a new span that ends with it, marking the span failed when `fn` throws. */
export async function withSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T>,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; parent?: Context } = {},
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

type HeaderBag = Record<string, string | Buffer | (string | Buffer)[] | undefined>;

const headerGetter: TextMapGetter<HeaderBag> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key] ?? carrier[key.toLowerCase()];
    if (Buffer.isBuffer(value)) return value.toString();
    return Array.isArray(value) ? value.map(String) : value;
  },
};

const headerSetter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** W3C trace context from HTTP or Kafka headers. */
export function extractContext(headers: HeaderBag, base: Context = context.active()): Context {
  return propagation.extract(base, headers, headerGetter);
}

/** Adds the current (or given) trace context to outgoing HTTP or Kafka headers. */
export function injectContext(headers: Record<string, string> = {}, ctx: Context = context.active()) {
  propagation.inject(ctx, headers, headerSetter);
  return headers;
}
