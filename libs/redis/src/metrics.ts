import { tracingChannel } from 'node:diagnostics_channel';
import { Histogram, metricsRegistry } from '@engage/kit';

const commandDuration = new Histogram({
  name: 'redis_client_command_duration_seconds',
  help: 'Redis command duration by command and outcome.',
  labelNames: ['command', 'outcome'],
  buckets: [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
  registers: [metricsRegistry],
});

interface CommandContext {
  command?: string;
  startedAt?: number;
  error?: unknown;
}

let subscribed = false;
const ignore = () => {};

/**
 * Times every ioredis command of this process through ioredis's own tracing channel
 * (`ioredis:command`): no wrapper on the client, nothing done when nobody subscribed.
 */
export function instrumentRedisCommands(): void {
  if (subscribed) return;
  subscribed = true;
  tracingChannel<unknown, CommandContext>('ioredis:command').subscribe({
    start: (ctx) => {
      ctx.startedAt = performance.now();
    },
    end: ignore,
    asyncStart: ignore,
    error: ignore,
    asyncEnd: (ctx) => {
      if (ctx.startedAt === undefined) return;
      commandDuration.observe(
        { command: (ctx.command ?? 'unknown').toLowerCase(), outcome: ctx.error ? 'error' : 'ok' },
        (performance.now() - ctx.startedAt) / 1000,
      );
    },
  });
}
