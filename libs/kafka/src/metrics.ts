import { metricsRegistry } from '@engage/kit';
import { Counter, Gauge, Histogram } from 'prom-client';

export const consumerLag = new Gauge({
  name: 'kafka_consumer_lag_records',
  help: 'Records between the last applied offset and the partition high watermark.',
  labelNames: ['group', 'topic', 'partition'],
  registers: [metricsRegistry],
});

export const batchSize = new Histogram({
  name: 'kafka_consumer_batch_records',
  help: 'Records applied per consumer transaction.',
  labelNames: ['group', 'topic'],
  buckets: [0, 1, 10, 50, 100, 250, 500, 1000],
  registers: [metricsRegistry],
});

export const recordsSkipped = new Counter({
  name: 'kafka_consumer_records_skipped_total',
  help: 'Redelivered records skipped because their effects were already committed.',
  labelNames: ['group', 'topic'],
  registers: [metricsRegistry],
});

export const produceDuration = new Histogram({
  name: 'kafka_produce_duration_seconds',
  help: 'Time from send to broker acknowledgement.',
  labelNames: ['topic'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [metricsRegistry],
});

export const produceFailures = new Counter({
  name: 'kafka_produce_failures_total',
  help: 'Sends the broker did not acknowledge (after the producer’s own retries), by topic.',
  labelNames: ['topic'],
  registers: [metricsRegistry],
});

export const deadLettersTotal = new Counter({
  name: 'kafka_dead_letters_total',
  help: 'Records set aside in dead_letters: by consumer group (or outbox), topic and reason.',
  labelNames: ['source', 'topic', 'reason'],
  registers: [metricsRegistry],
});

/** A consumer's stalled partitions, as label sets and seconds, read each time the gauge is scraped. */
export type StalledPartitions = () => {
  labels: { group: string; topic: string; partition: string };
  seconds: number;
}[];

/** Every consumer of this process that reports to `kafka_consumer_partition_stalled_seconds`. */
export const stalledSources = new Set<StalledPartitions>();

export const partitionStalled = new Gauge({
  name: 'kafka_consumer_partition_stalled_seconds',
  help: 'Seconds since the partition last advanced while records wait on it (0 when caught up).',
  labelNames: ['group', 'topic', 'partition'],
  registers: [metricsRegistry],
  collect() {
    // Partitions this process no longer consumes disappear from the gauge.
    this.reset();
    for (const source of stalledSources) {
      for (const { labels, seconds } of source()) this.set(labels, seconds);
    }
  },
});
