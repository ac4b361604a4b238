export * from './kafka/index.ts';
