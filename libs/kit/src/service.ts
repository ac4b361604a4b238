import type { z } from 'zod';
import { ConfigError, parseEnv } from './env.ts';
import { tuneGarbageCollector } from './gc-tuning.ts';
import type { HttpApp } from './http.ts';
import { Lifecycle } from './lifecycle.ts';
import { createLogger, type Logger } from './logger.ts';
import { startMetricsServer } from './metrics-server.ts';
import { startTelemetry } from './telemetry.ts';

export interface ServiceContext<E> {
  name: string;
  env: E;
  log: Logger;
  lifecycle: Lifecycle;
}

interface BaseSettings {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  GC_MARKING_START_PERCENT: number;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}

/**
 * The one way a service process starts: configuration parsed and checked first, then the garbage
 * collector's pacing, logs and traces, then the service's own start; SIGTERM/SIGINT run the
 * registered closers in order.
 */
export async function runService<S extends z.ZodType<BaseSettings>>(definition: {
  name: string;
  env: S;
  start: (ctx: ServiceContext<z.infer<S>>) => Promise<void>;
}): Promise<void> {
  let env: z.infer<S>;
  try {
    env = parseEnv(definition.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  tuneGarbageCollector(env.GC_MARKING_START_PERCENT);
  const log = createLogger(definition.name, env.LOG_LEVEL);
  const lifecycle = new Lifecycle(log, env.SHUTDOWN_TIMEOUT_MS);
  lifecycle.onShutdown('telemetry', startTelemetry(definition.name, env.OTEL_EXPORTER_OTLP_ENDPOINT));
  lifecycle.installSignalHandlers();
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  routeProcessWarnings((warning) => log.warn({ err: warning }, 'process warning'));
  try {
    await definition.start({ name: definition.name, env, log, lifecycle });
  } catch (err) {
    lifecycle.fail('failed to start', err);
  }
}

/**
 * Serves the metrics on their port, then listens; on shutdown it stops taking requests and lets the
 * ones in flight finish (the metrics answer until then).
 */
export async function listen(
  app: HttpApp,
  ctx: ServiceContext<{ HOST: string; PORT: number; METRICS_PORT: number }>,
) {
  const metrics = await startMetricsServer(ctx.env.HOST, ctx.env.METRICS_PORT);
  ctx.lifecycle.onShutdown('metrics', () => metrics.close());
  await app.listen({ host: ctx.env.HOST, port: ctx.env.PORT });
  ctx.lifecycle.onShutdown('http', () => app.close());
  ctx.log.info(
    {
      address: `http://${ctx.env.HOST}:${ctx.env.PORT}`,
      metrics: `http://${ctx.env.HOST}:${ctx.env.METRICS_PORT}/metrics`,
    },
    `${ctx.name} listening`,
  );
}

/**
 * Process warnings go to `report` instead of raw stderr. kafkajs 2.2.4 arms one timer with a
 * negative delay (Node clamps it to 1 ms; tulios/kafkajs#1751); Node 24 warns about it on every
 * connection, so that one is dropped.
 */
export function routeProcessWarnings(report: (warning: Error) => void) {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name !== 'TimeoutNegativeWarning') report(warning);
  });
}
