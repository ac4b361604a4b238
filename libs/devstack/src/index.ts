export * from './kafka/index.ts';
export * from './kcat.ts';
export * from './registry/registry.ts';
export * from './stack/infra.ts';
export * from './stack/services.ts';
