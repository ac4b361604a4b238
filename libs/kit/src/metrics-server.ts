import { once } from 'node:events';
import { createServer } from 'node:http';
import { metricsRegistry } from './metrics.ts';

export interface MetricsServer {
  close(): Promise<void>;
}

/**
 * GET /metrics (Prometheus text) on a port of its own, apart from the API: the API port is what
 * callers reach, the metrics port what the scraper reaches, and a network policy can tell them apart.
 */
export async function startMetricsServer(host: string, port: number): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
    );
  });
  server.listen({ host, port });
  await once(server, 'listening');
  return {
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
