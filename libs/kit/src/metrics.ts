import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram } from 'prom-client';

/** One Prometheus registry per process, served at /metrics on the metrics port (metrics-server.ts). */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const httpDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'HTTP request duration by route and status code.',
  labelNames: ['method', 'route', 'status_code'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

type HttpDurationSeries = ReturnType<typeof httpDuration.labels>;
/** The series of each (method, status, route) met, so a request's labels are resolved once per series. */
const httpSeries = new Map<string, HttpDurationSeries>();

function httpSeriesOf(method: string, statusCode: number, route: string): HttpDurationSeries {
  const key = `${method} ${statusCode} ${route}`;
  let series = httpSeries.get(key);
  if (!series) {
    series = httpDuration.labels({ method, route, status_code: String(statusCode) });
    httpSeries.set(key, series);
  }
  return series;
}

export function httpMetricsHook(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  httpSeriesOf(request.method, reply.statusCode, request.routeOptions.url ?? 'unmatched').observe(
    reply.elapsedTime / 1000,
  );
  done();
}
