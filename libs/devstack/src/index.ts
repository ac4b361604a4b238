export * from './kafka/index.ts';
export * from './stack/infra.ts';
export * from './stack/services.ts';
