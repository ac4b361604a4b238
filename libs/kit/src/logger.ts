import { trace } from '@opentelemetry/api';
import { type Logger, pino } from 'pino';

export type { Logger };

/** Structured JSON logs. Keys and credentials are never written, and each line carries its trace. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-admin-token"]', '*.apiKey', '*.secret', '*.token'],
      censor: '[redacted]',
    },
    mixin() {
      const span = trace.getActiveSpan();
      return span ? { traceId: span.spanContext().traceId } : {};
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
