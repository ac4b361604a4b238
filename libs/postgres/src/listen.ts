import pg from 'pg';
import { quoteIdent } from './pool.ts';

export interface ChannelListener {
  /** Ends the connection; no reconnection follows. */
  stop(): Promise<void>;
}

export interface ListenOptions {
  /** The pool whose connection settings the listening connection copies. */
  pool: pg.Pool;
  channel: string;
  applicationName: string;
  onNotification(payload: string): void;
  /** LISTEN is in effect: notifications from transactions committed from now on arrive. */
  onListening(): void;
  /** The connection is lost (or could not be made): notifications may have been missed. */
  onLost(err: unknown): void;
  log?: { warn(details: object, message: string): void };
}

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/**
 * LISTENs on one channel on a dedicated connection (a pooled one would carry the registration
 * back to the pool). Postgres delivers a notification only to sessions listening when it is
 * committed, so every loss of the connection is reported before it is made again.
 */
export function listenToChannel(options: ListenOptions): ChannelListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const lost = (err: unknown, failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    failed.removeAllListeners();
    failed.on('error', () => {});
    failed.end().catch(() => {});
    if (stopped) return;
    options.onLost(err);
    options.log?.warn(
      { err, channel: options.channel },
      'the notification connection was lost; listening again',
    );
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const connect = async () => {
    retryTimer = undefined;
    if (stopped) return;
    const next = new pg.Client({
      ...(options.pool.options as pg.ClientConfig),
      application_name: options.applicationName,
      keepAlive: true,
    });
    client = next;
    next.on('error', (err) => lost(err, next));
    next.on('end', () => lost(new Error('the notification connection ended'), next));
    next.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) {
        options.onNotification(message.payload);
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${quoteIdent(options.channel)}`);
    } catch (err) {
      lost(err, next);
      return;
    }
    if (client !== next) return;
    retryMs = FIRST_RETRY_MS;
    options.onListening();
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners();
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
