export * from './constants.ts';
export * from './events.ts';
export * from './process.ts';
export * from './provided.ts';
export * from './seeded-random.ts';
export * from './stack.ts';
export * from './tenant.ts';
export * from './topic-reader.ts';
