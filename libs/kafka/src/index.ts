export * from './client.ts';
export * from './codec.ts';
export * from './exactly-once-consumer.ts';
export * from './metrics.ts';
export * from './outbox.ts';
export * from './produce.ts';
export * from './topics.ts';
