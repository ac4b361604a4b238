import type { components } from './api.ts';
import type { EventItem } from './client.ts';

type BatchResult = components['schemas']['EventBatchResult'];

export interface EventQueueOptions {
  /** Events per request at most (the API's limit and the default: 1,000). */
  maxBatch?: number;
  /** A partial batch is sent this long after its first event at the latest (default 1 s). */
  flushIntervalMs?: number;
  /** Events held at most; `add` waits beyond it until a batch has gone out (default 10,000). */
  maxBuffered?: number;
  /** Each answered batch: `results` holds each refused item's `errors` (codes per item). */
  onResult?: (events: EventItem[], result: BatchResult) => void;
  /** A batch that could not be sent after the retries: its events are not accepted. */
  onError?: (events: EventItem[], error: unknown) => void;
}

const MAX_BATCH = 1_000;

/**
 * Batches events for `POST /v1/events`: a batch goes out when it is full or `flushIntervalMs`
 * after its first event, one request at a time so one player's events keep their order. The
 * buffer is bounded: `add` waits while it is full, which slows a producer down to what the API
 * takes instead of growing memory. `close` sends everything held before it resolves.
 */
export class EventQueue {
  readonly #send: (events: EventItem[]) => Promise<BatchResult>;
  readonly #maxBatch: number;
  readonly #flushIntervalMs: number;
  readonly #maxBuffered: number;
  readonly #options: EventQueueOptions;
  #buffer: EventItem[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The batches in flight, one after another. */
  #sending: Promise<void> = Promise.resolve();
  #roomWaiters: (() => void)[] = [];
  #closed = false;

  constructor(send: (events: EventItem[]) => Promise<BatchResult>, options: EventQueueOptions = {}) {
    this.#send = send;
    this.#maxBatch = Math.min(MAX_BATCH, Math.max(1, options.maxBatch ?? MAX_BATCH));
    this.#flushIntervalMs = options.flushIntervalMs ?? 1_000;
    this.#maxBuffered = Math.max(this.#maxBatch, options.maxBuffered ?? 10_000);
    this.#options = options;
  }

  /** Events held and not yet sent. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** Adds an event; resolves once it is held (at once, unless the buffer is full). */
  async add(event: EventItem): Promise<void> {
    if (this.#closed) throw new Error('the event queue is closed');
    while (this.#buffer.length >= this.#maxBuffered) {
      await new Promise<void>((resolve) => this.#roomWaiters.push(resolve));
      if (this.#closed) throw new Error('the event queue is closed');
    }
    // The key is made now so that however often its batch is sent, the event is accepted once.
    this.#buffer.push({ ...event, idempotencyKey: event.idempotencyKey ?? crypto.randomUUID() });
    if (this.#buffer.length >= this.#maxBatch) this.#takeBatches(false);
    else this.#timer ??= setTimeout(() => void this.flush(), this.#flushIntervalMs);
  }

  /** Sends everything held now; resolves when every batch sent so far is answered. */
  flush(): Promise<void> {
    this.#takeBatches(true);
    return this.#sending;
  }

  /** Refuses new events, sends those held, and resolves when all are answered. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    for (const wake of this.#roomWaiters.splice(0)) wake();
  }

  #takeBatches(partialToo: boolean) {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#buffer.length >= this.#maxBatch || (partialToo && this.#buffer.length > 0)) {
      const batch = this.#buffer.splice(0, this.#maxBatch);
      this.#sending = this.#sending.then(() => this.#sendBatch(batch));
    }
    if (this.#buffer.length > 0) this.#timer = setTimeout(() => void this.flush(), this.#flushIntervalMs);
  }

  async #sendBatch(batch: EventItem[]) {
    try {
      const result = await this.#send(batch);
      this.#options.onResult?.(batch, result);
    } catch (err) {
      if (this.#options.onError) this.#options.onError(batch, err);
    } finally {
      // Room for the producers that waited: this batch left the buffer when it was taken.
      for (const wake of this.#roomWaiters.splice(0)) wake();
    }
  }
}
