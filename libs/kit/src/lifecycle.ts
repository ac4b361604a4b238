import type { Logger } from 'pino';

type Closer = { name: string; close: () => Promise<void> | void };

/**
 * Ordered, idempotent shutdown. Closers run in reverse order of registration, so what was started
 * last (the HTTP listener, the consumers) stops first and the pools it uses close last.
 */
export class Lifecycle {
  private readonly closers: Closer[] = [];
  private stopping: Promise<void> | undefined;
  private readonly log: Logger;
  private readonly timeoutMs: number;

  constructor(log: Logger, timeoutMs: number) {
    this.log = log;
    this.timeoutMs = timeoutMs;
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  onShutdown(name: string, close: () => Promise<void> | void): void {
    this.closers.push({ name, close });
  }

  shutdown(reason: string): Promise<void> {
    this.stopping ??= this.runClosers(reason);
    return this.stopping;
  }

  /** SIGTERM and SIGINT start one shutdown; the process exits when it ends or times out. */
  installSignalHandlers(): void {
    const onSignal = (signal: NodeJS.Signals) => this.exitAfterShutdown(signal);
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }

  /**
   * A part the process cannot run without has stopped for good (a consumer kafkajs gave up): the
   * process shuts down and exits with 1, so its orchestrator starts it again instead of leaving it
   * up and doing nothing.
   */
  fail(reason: string, err: unknown): void {
    this.log.fatal({ err }, reason);
    process.exitCode = 1;
    this.exitAfterShutdown(reason);
  }

  private exitAfterShutdown(reason: string): void {
    const timer = setTimeout(() => {
      this.log.error({ reason }, 'shutdown timed out; exiting');
      process.exit(1);
    }, this.timeoutMs);
    timer.unref();
    void this.shutdown(reason).then(() => process.exit(process.exitCode ?? 0));
  }

  private async runClosers(reason: string): Promise<void> {
    this.log.info({ reason }, 'shutting down');
    for (const closer of [...this.closers].reverse()) {
      try {
        await closer.close();
        this.log.debug({ closer: closer.name }, 'closed');
      } catch (err) {
        process.exitCode = 1;
        this.log.error({ err, closer: closer.name }, 'close failed');
      }
    }
    this.log.info('stopped');
  }
}
